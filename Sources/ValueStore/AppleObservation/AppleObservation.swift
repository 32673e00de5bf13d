import Observation
import Synchronization

// Apple's Observation (and so SwiftUI) sees every read made through a holder, at any depth, and
// is told only when one of those reads changes — exactly as for an `@Observable` class, because
// every place observers subscribe to (a location, a bare value's box) has one
// (`AppleSubscriptions`): a registrar, and key paths for its keys.
//
// - **Detecting Apple's tracking.** Observation keeps its access list private, but it hashes every
//   key path it records, and hashing a key path hashes its subscript arguments. A holder read
//   records a key path whose argument is a `TrackingDetector` (on the holder's `TrackingProbe`);
//   its `hash(into:)` runs only when Apple is tracking on this thread, and opens the thread's
//   `AppleWindow`. A holder read that finds Apple no longer tracking closes it.
// - **The window** counts as an open tracking scope, so reads take their slow path while it is
//   open; values holders hand out are mapped in it, so a read on a returned copy
//   (`store.child.count`) is known to be the child location's.
// - **Reads and changes.** A read at a location Apple may track calls the location registrar's
//   `access` with a key path of the read's own, grouped with the other reads of its closure; a
//   change of a key Apple accessed queues one `withMutation` per closure that registered a read
//   of it, run with the deliveries after the holder's mutation, outside every lock. Each closure
//   is fired once (see `AppleSubscriptions`): Apple's registrar alone would not keep to that.

/// Hashing it is how Apple's Observation tells us it is tracking on this thread (see above).
@usableFromInline
struct TrackingDetector: Hashable, Sendable {
  @usableFromInline static func == (_: Self, _: Self) -> Bool { true }
  @usableFromInline func hash(into hasher: inout Hasher) {
    ThreadContext.withCurrent { $0.appleIsTracking() }
  }
}

/// What Apple records when a holder is read: a key path that never changes, on the registrar of
/// the holder's root location (`AppleSubscriptions`) — recording it is what tells us Apple is
/// tracking, and a closure reading the holder's fields subscribes to one registrar, as to an
/// `@Observable` object's. A scope that records it and never fires stays subscribed to it until
/// the holder goes.
@usableFromInline
final class TrackingProbe: Sendable {
  @usableFromInline let subscriptions: AppleSubscriptions
  /// `subscriptions`' registrar (a copy names the same registrar), borrowed in place by a read.
  @usableFromInline let registrar: ObservationRegistrar
  /// Made once: a key path with an argument is made at run time. An instance property, so that a
  /// read finds it without a lazy global's check.
  @usableFromInline let keyPath = AppleSubscriptions.detector

  init(_ subscriptions: AppleSubscriptions = AppleSubscriptions()) {
    self.subscriptions = subscriptions
    registrar = subscriptions.registrar
  }

  /// A scoped store's (never asked: its reads go through its root's).
  static let unused = TrackingProbe()

  /// Called by every holder read: opens this thread's window if Apple's Observation tracks, and
  /// closes an open one if it no longer does.
  /// Returns whether a read must be recorded now: a tracking scope or an Apple window is open
  /// somewhere.
  @inlinable @discardableResult
  func check() -> Bool {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) {
      ask()
      return openTrackingScopes.load(ordering: .relaxed) != 0
    }
    registrar.access(subscriptions, keyPath: keyPath)
    return _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0)
  }

  /// `check` while a scope or window is open somewhere. Inside the Observation closure that
  /// recorded this thread's current run of reads (not registered yet), Apple is known to track:
  /// nothing to ask.
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

/// Apple's Observation on one thread, while it may be tracking there (see above).
final class AppleWindow: @unchecked Sendable {  // its thread's own
  /// Values holders handed out while the window was open (as a tracking scope's). Weakly: a
  /// window may stay open long after Apple's closure ended (until a holder read finds it so),
  /// and must not keep a holder's locations — and the scopes subscribed to them — alive.
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

  /// Hands out a value (again: see `TrackingScope.handOut`). Returns whether it moved: handed
  /// out at another location than before.
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
  /// The last extent serial given when the window opened: a bare value made since was made
  /// inside Observation's closure (a filtered copy), which no earlier render read.
  let openedAfter = nextExtentSerial.load(ordering: .relaxed)

  /// Whether a read of a bare value whose lineage began with extent serial `lineage` is shown to
  /// Observation: not a value made since the window opened (a filtered copy made inside the
  /// closure dies there, and a scope subscribed to a registrar that died before it subscribed is
  /// never released — Observation's own behaviour for a dropped object). A value made earlier
  /// and changed since (a fork) still is.
  func showsBare(_ lineage: UInt64) -> Bool { lineage <= openedAfter }


}

extension ThreadContext {
  /// Whether an Observation closure that recorded reads of ours runs on this thread now: its run
  /// is not registered yet (Observation registers it as soon as the closure returns).
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

  /// Whether Apple's Observation tracks on this thread now, asked where no holder is read
  /// (entering `untracked`). Inside the closure whose reads of ours are this thread's open run,
  /// it does. Otherwise it asks through the thread's own probe: a closure that records it stays
  /// subscribed to it until a later ask finds Apple not tracking here, and the thread takes a new
  /// one.
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

  /// A holder is about to ask Apple whether it tracks.
  @usableFromInline
  func askingApple() {
    window?.seen = false
  }

  /// After a holder asked Apple: a window the detector did not confirm closes (Apple's closure
  /// ended since).
  @usableFromInline
  func checkedApple() {
    if let window, !window.seen { closeAppleWindow() }
  }

  /// An access of ours found Observation not tracking on this thread: the window is stale, and a
  /// run its reads began is no closure's.
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

/// What the core tells Apple's Observation.
enum AppleObservation {
  /// A read of `key` at `place` that Apple may be recording on this thread: recorded as the
  /// current run's record (see `AppleSubscriptions`), listed at the place once Apple recorded it.
  static func access(_ place: Subscribers, _ key: FieldKey, _ keyPath: AnyKeyPath?, _ context: ThreadContext) {
    let apple = place.makeApple()
    let recorder = context.appleRecorder
    let read = recorder.read(of: key, at: apple)
    guard access(read, of: key, at: apple, recorder) else { return context.appleStoppedTracking() }
    recorder.accessed(read, of: key, at: apple)
  }

  /// Asks Observation to record `read`; listed at its place once it did. Returns whether it did:
  /// every access is also a probe — one Observation does not record means it does not track on
  /// this thread.
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

  /// `changes` were written at `place`: Apple's scopes that read them hear it, after the
  /// mutation, outside every lock.
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

  /// Tells Apple's scopes that registered `keyPaths` at `apple` (called by the delivery loop): each
  /// key path is a claimed run's, delivered once but for a change its own `onChange` makes.
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
