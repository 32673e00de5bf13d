import Observation
import Synchronization

/// What Apple's Observation subscribed to at one place (a location, or a bare value's box): an
/// `Observable` object whose registrar Observation's scopes subscribe to, with two key paths per
/// key read, used in turn.
///
/// A change of a key calls `withMutation` with the key's current key path, after it first moved
/// the key to its other key path: a scope that reads the key again while Observation is told (an
/// `onChange` re-arming, as it runs inside `withMutation`) subscribes to the other one, and hears
/// the next change rather than the rest of this one. The key stays put while an Observation
/// closure that recorded its current key path may still be running (it subscribes when it
/// ends): on the changing thread, asked; on another, while that thread's window is open.
final class AppleSubscriptions: Observable, @unchecked Sendable {  // guarded by `registry`
  let registrar = ObservationRegistrar()
  /// Whether Observation ever accessed a key here: a change then asks which.
  let isObserved = Atomic<Bool>(false)
  private var keys: [FieldKey: KeyPaths] = [:]
  /// Called once, when Observation first accesses a key here (a location mirrors it for writes).
  var onObserved: (@Sendable () -> Void)?

  subscript(apple _: AppleKey) -> Int { 0 }
  subscript(detect _: TrackingDetector) -> Int { 0 }

  /// The key path of a detector (see `AppleObservation.tracksHere`).
  static let detectorKeyPath = \AppleSubscriptions.[detect: TrackingDetector()]

  /// The key path Observation knows `key` by, recorded in `window`. Requires the registry lock.
  func keyPath(for key: FieldKey, accessedIn window: AppleWindow?) -> KeyPath<AppleSubscriptions, Int> {
    if keys[key] == nil {
      keys[key] = KeyPaths(key)
      if !isObserved.load(ordering: .relaxed) {
        isObserved.store(true, ordering: .relaxed)
        onObserved?()
      }
    }
    if let window { keys[key]!.accessed(in: window) }
    return keys[key]!.current
  }

  /// The current key paths of the keys `changes` write, each moved on unless a closure that
  /// recorded it may still run (`moving` false: on this thread; else another open window than
  /// `window`, the changing thread's). Requires the registry lock.
  func keyPaths(changing changes: [Change], moving: Bool, from window: AppleWindow?) -> [KeyPath<AppleSubscriptions, Int>] {
    var changed: [KeyPath<AppleSubscriptions, Int>] = []
    // A key whose notification is still to be delivered is not moved again: its scopes hear that
    // one; moved twice, a scope re-armed in between would hear the rest of this change.
    for key in keys.keys where !keys[key]!.isPending && changes.contains(where: { key.matches($0.key) }) {
      changed.append(keys[key]!.current)
      keys[key]!.isPending = true
      if moving { keys[key]!.move(unlessRecordingElsewhereThan: window) }
    }
    return changed
  }

  /// The notifications of `keyPaths` are being delivered. Requires the registry lock.
  func delivering(_ keyPaths: [KeyPath<AppleSubscriptions, Int>]) {
    for key in keys.keys where keys[key]!.isPending {
      if keyPaths.contains(keys[key]!.paths.0) || keyPaths.contains(keys[key]!.paths.1) { keys[key]!.isPending = false }
    }
  }

  /// How many keys Observation accessed here (for tests). Requires the registry lock.
  var keyCount: Int { keys.count }

  /// A key's two key paths, and which one is current.
  private struct KeyPaths {
    let paths: (KeyPath<AppleSubscriptions, Int>, KeyPath<AppleSubscriptions, Int>)
    var generation = false
    /// A notification of this key is queued, not yet delivered.
    var isPending = false
    /// The windows in which Observation may have recorded the current key path.
    private var recordedIn: [AppleWindow] = []

    init(_ key: FieldKey) {
      paths = (
        \AppleSubscriptions.[apple: AppleKey(key: key, generation: false)],
        \AppleSubscriptions.[apple: AppleKey(key: key, generation: true)]
      )
    }

    var current: KeyPath<AppleSubscriptions, Int> { generation ? paths.1 : paths.0 }

    mutating func accessed(in window: AppleWindow) {
      if recordedIn.last === window { return }
      recordedIn.removeAll { !$0.isOpen.load(ordering: .relaxed) || $0 === window }
      recordedIn.append(window)
    }

    mutating func move(unlessRecordingElsewhereThan window: AppleWindow?) {
      if recordedIn.contains(where: { $0 !== window && $0.isOpen.load(ordering: .relaxed) }) { return }
      generation.toggle()
      recordedIn.removeAll()
    }
  }
}

/// The argument of a key's key path for Apple's Observation.
struct AppleKey: Hashable, Sendable {
  let key: FieldKey
  let generation: Bool
}
