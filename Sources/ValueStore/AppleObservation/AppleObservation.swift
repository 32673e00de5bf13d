import Observation
import Synchronization

// The bridge to Apple's Observation (and so SwiftUI), from its public API: it sees every read made
// through a holder and is told only when one changes, as for an `@Observable` class, through each
// place's `AppleSubscriptions`. Documentation/Core.md, "Apple's Observation", describes the whole.

/// Observation hashes every key path it records, with its arguments: hashing this one (see
/// `TrackingProbe`) tells us it tracks on this thread, and opens the thread's `AppleWindow`.
@usableFromInline
struct TrackingDetector: Hashable, Sendable {
  @usableFromInline static func == (_: Self, _: Self) -> Bool { true }
  @usableFromInline func hash(into hasher: inout Hasher) {
    ThreadContext.withCurrent { $0.appleIsTracking() }
  }
}

/// What Apple records when a holder is read: a fixed key path on the registrar of the holder's root
/// location; recording it tells us Apple tracks, and subscribes the closure to one registrar, as to
/// an `@Observable` object's. A scope that never fires stays subscribed until the holder goes.
@usableFromInline
final class TrackingProbe: Sendable {
  @usableFromInline let subscriptions: AppleSubscriptions
  /// `subscriptions`' registrar (a copy names the same registrar), borrowed in place by a read.
  @usableFromInline let registrar: ObservationRegistrar
  /// Made once (a key path with an argument is made at run time); a property: no lazy-global check.
  @usableFromInline let keyPath = AppleSubscriptions.detector

  init(_ subscriptions: AppleSubscriptions = AppleSubscriptions()) {
    self.subscriptions = subscriptions
    registrar = subscriptions.registrar
  }

  /// A scoped store's (never asked: its reads go through its root's).
  static let unused = TrackingProbe()

  /// Called by every holder read: opens this thread's window if Apple tracks, closes an open one if
  /// it no longer does. Returns whether the read must be recorded (a scope or window is open).
  @inlinable @discardableResult
  func check() -> Bool {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) {
      ask()
      return openTrackingScopes.load(ordering: .relaxed) != 0
    }
    registrar.access(subscriptions, keyPath: keyPath)
    return _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0)
  }

  /// `check` while a scope or window is open somewhere. Nothing to ask inside the Observation
  /// closure that recorded this thread's current run (not registered yet): Apple tracks there.
  @usableFromInline @inline(never)
  func ask() {
    ThreadContext.withCurrent { context in
      if context.isInAppleClosure { return }
      context.askingApple()
      registrar.access(subscriptions, keyPath: keyPath)
      context.checkedApple()
    }
  }
}

/// Apple's Observation on one thread while it may track there: it counts as an open tracking
/// scope (reads take their slow path) and maps handed-out values as a scope does.
final class AppleWindow: @unchecked Sendable {  // its thread's own
  /// Values holders handed out while open. Weakly: a window may outlive Apple's closure (until a
  /// holder read finds it over) and must not keep a holder's locations, and their subscribers, alive.
  @exclusivity(unchecked) private var handouts: [UInt64: WeakHandout] = [:]

  private struct WeakHandout {
    weak var location: Location?
    var version: UInt64
    var serial: UInt64
  }

  func handout(of serial: UInt64) -> Handout? {
    guard let index = handouts.index(forKey: serial), let location = handouts.values[index].location else { return nil }
    let found = handouts.values[index]
    return Handout(location: location, version: found.version, serial: found.serial)
  }

  /// Hands out a value (see `TrackingScope.handOut`); returns whether it moved to another location.
  @discardableResult
  func handOut(_ handout: Handout, serial: UInt64) -> Bool {
    if let index = handouts.index(forKey: serial), handouts.values[index].location === handout.location {
      handouts.values[index].version = handout.version
      handouts.values[index].serial = handout.serial
      return false
    }
    handouts[serial] = WeakHandout(location: handout.location, version: handout.version, serial: handout.serial)
    return true
  }

  func absorb(_ handouts: [UInt64: Handout]) {
    for (serial, handout) in handouts { handOut(handout, serial: serial) }
  }
  /// Set by the detector since the last holder read asked.
  @exclusivity(unchecked) var seen = true
  /// Closed: its thread left Observation's closure (or exited).
  @exclusivity(unchecked) var isClosed = false
  /// The last extent serial when the window opened: a bare value made since was made inside
  /// Observation's closure (a filtered copy), which no earlier render read.
  let openedAfter = nextExtentSerial.load(ordering: .relaxed)

  /// Whether a bare value of lineage `lineage` is shown to Observation: not if made since the window
  /// opened (a filtered copy dying in the closure would leave a scope subscribed to a dead registrar,
  /// never released, as Observation does for a dropped object); a fork of an older value is.
  func showsBare(_ lineage: UInt64) -> Bool { lineage <= openedAfter }


}

extension ThreadContext {
  /// An Observation closure that recorded reads of ours runs here now: its run is not registered
  /// yet (Observation registers it as the closure returns).
  var isInAppleClosure: Bool {
    window != nil && !hidesReadsFromApple && appleRecorder.hasOpenRun
  }

  /// The detector ran: Apple records a holder read on this thread.
  func appleIsTracking() {
    if let window {
      window.seen = true
    } else {
      window = AppleWindow()
      openTrackingScopes.add(1, ordering: .relaxed)
    }
  }

  /// Whether Apple tracks on this thread now, asked where no holder is read (entering `untracked`):
  /// yes inside the closure of this thread's open run; otherwise asked through the thread's probe,
  /// replaced once an ask finds Apple not tracking (a closure that records it stays subscribed to it).
  func askApple() -> Bool {
    if window != nil && appleRecorder.hasOpenRun { return true }
    closeAppleWindow()  // whatever opened it has ended, or recorded nothing of ours: ask afresh
    let probe = threadProbe ?? TrackingProbe()
    threadProbe = probe
    appleIsTracking()  // a window to ask with: the detector confirms it, or it closes
    window!.seen = false
    probe.check()
    if window != nil { return true }
    threadProbe = nil  // whatever recorded it is over
    return false
  }

  @usableFromInline
  func askingApple() {
    window?.seen = false
  }

  /// After a holder asked Apple: a window the detector did not confirm closes (its closure ended).
  @usableFromInline
  func checkedApple() {
    if let window, !window.seen { closeAppleWindow() }
  }

  /// An access found Observation not tracking here: the window is stale, its run no closure's.
  func appleStoppedTracking() {
    closeAppleWindow()
    appleRecorder.dropUnrecordedRun()
  }

  /// Closes the window: a holder starts mutating (its reads are never Apple's), or Apple stopped.
  func closeAppleWindow() {
    guard let window else { return }
    window.isClosed = true
    self.window = nil
    openTrackingScopes.subtract(1, ordering: .relaxed)
    // A repeated read skips handing its value out again: the window it was handed out in is gone.
    appleRecorder.forgetRecentReads()
  }
}

/// What the core tells Apple's Observation: a read at a place it may track is recorded with a key
/// path of the read's own; a change of a key it recorded queues one `withMutation` per closure,
/// run with the deliveries after the mutation, outside every lock, each closure fired once.
enum AppleObservation {
  /// A read of `key` at `place` Apple may record on this thread: recorded in the current run (see
  /// `AppleSubscriptions`), listed at the place once Apple recorded it.
  static func access(_ place: Subscribers, _ key: FieldKey, _ keyPath: AnyKeyPath?, _ context: ThreadContext) {
    let apple = place.makeApple()
    let recorder = context.appleRecorder
    let read = recorder.read(of: key, at: apple)
    guard access(read, of: key, at: apple, recorder) else { return context.appleStoppedTracking() }
    recorder.accessed(read, of: key, at: apple)
  }

  /// Asks Observation to record `read`, listed at its place once it did. Returns whether it did:
  /// every access is a probe, and one Observation does not record means it does not track here.
  static func access(_ read: AppleRead, of key: FieldKey, at apple: AppleSubscriptions, _ recorder: AppleRecorder) -> Bool {
    recorder.state.accessing = true
    recorder.state.sawTracking = false
    apple.registrar.access(apple, keyPath: read.keyPath)
    recorder.state.accessing = false
    guard recorder.state.sawTracking else { return false }
    guard !read.record.isListed else { return true }
    read.record.isListed = true
    withRegistry { _ in apple.list(read, for: key) }
    return true
  }

  /// `change` written at `place`: Apple's scopes that read it hear it after the mutation, outside
  /// every lock.
  static func didChange(_ place: Subscribers, _ change: Change) {
    guard let apple = place.apple, apple.isObserved.load(ordering: .relaxed) else { return }
    didChange(place, [change])
  }

  static func didChange(_ place: Subscribers, _ changes: [Change]) {
    guard let apple = place.apple, apple.isObserved.load(ordering: .relaxed) else { return }
    let thread = ThreadContext.current.appleRecorder.thread
    let keyPaths = withRegistry { _ in apple.keyPaths(changing: changes, on: thread) }
    guard !keyPaths.isEmpty else { return }
    deliver([Delivery(apple: apple, keyPaths: keyPaths)])
  }

  /// Tells what a reconciliation collected: keys written at a place, or (nil) everything there
  /// (and, at a location, below) replaced.
  static func tell(_ changes: [(Subscribers, [Change]?)]) {
    for (place, written) in changes {
      if let written {
        didChange(place, written)
      } else if let location = place as? Location {
        didReplace(location)
      } else {
        didChange(place, [Change(key: .any, keyPath: nil)])
      }
    }
  }

  /// The value at `location` was replaced: Apple's scopes that read anything here or below hear it.
  static func didReplace(_ location: Location) {
    let thread = ThreadContext.current.appleRecorder.thread
    var deliveries: [Delivery] = []
    withRegistry { _ in
      location.forEachInTree {
        guard let apple = $0.apple, apple.isObserved.load(ordering: .relaxed) else { return }
        let keyPaths = apple.keyPaths(changing: [Change(key: .any, keyPath: nil)], on: thread)
        if !keyPaths.isEmpty { deliveries.append(Delivery(apple: apple, keyPaths: keyPaths)) }
      }
    }
    deliver(deliveries)
  }

  /// Tells Apple's scopes that registered `keyPaths` at `apple` (from the delivery loop): each is a
  /// claimed run's, delivered once, but for a change its own `onChange` makes.
  static func fire(_ apple: AppleSubscriptions, _ keyPaths: [KeyPath<AppleSubscriptions, Int>]) {
    let context = ThreadContext.current
    let thread = context.appleRecorder.thread
    for keyPath in keyPaths {
      _ = withRegistry { _ in apple.delivers(keyPath, on: thread, true) }
      #if VALUESTORE_INTERNAL_CHECKS
      _checkOutsideRegistry("Observation's withMutation")
      #endif
      apple.registrar.withMutation(of: apple, keyPath: keyPath) {}
      guard let run = withRegistry({ _ in apple.delivers(keyPath, on: thread, false) }) else { continue }
      let isOneClosure = run.thread == thread && run.isOneClosure
      let appleTracks = run.thread == thread && !isOneClosure && context.askApple()
      let (reusable, deferred) = withRegistry { _ in
        run.finish(on: thread, isOneClosure: isOneClosure, appleTracks: appleTracks)
      }
      context.appleRecorder.reuse(reusable)
      for (place, keyPath) in deferred { fire(place, [keyPath]) }
    }
  }
}
