import Observation
import Synchronization

// Apple's Observation (and so SwiftUI) sees every read made through a holder — a store, an
// `ObservedRoot` — at any depth, and is told only when one of those reads changes.
//
// - **Detecting Apple's tracking.** Observation keeps its access list private, but it hashes every
//   key path it records, and hashing a key path hashes its subscript arguments. A read through a
//   holder records a key path whose argument is a `TrackingDetector`; its `hash(into:)` runs only
//   when Apple is tracking on this thread, and opens a *bridge window* there. Untracked, the cost
//   is Observation's own check (one thread-local load).
// - **The window.** While it is open, every read recorded on an extent (`Extent.recordAccess`,
//   through any number of returned copies: `store.a.b.c`, `store.rows.count`, an element) is also
//   bridged. A window counts as an open tracking scope, so reads take their slow path only while
//   one is open; it closes at the first read that finds Apple no longer tracking, and when a store
//   starts sending (reducer reads are never bridged).
// - **Bridges.** A bridged read of one field of one extent arms an `ObservationBridge`: an
//   `Observable` object of its own, recorded into Apple's access list, and a one-shot observer of
//   that field, registered like any other (anchored, followed through forks and adoptions). When
//   the field changes the bridge calls its registrar's `withMutation`, which fires exactly the
//   Apple scopes that read that field. An armed bridge is reused by later reads of the same field
//   (a per-thread cache), so a steady-state bridged read is one cache lookup and one Apple access.
// - **A round with user code in it** (`Observer.closed`): a batch closes its bridges before any
//   `onChange` runs, so a read in between records a new generation (a new bridge) rather than a
//   notification still to come; and a bridge that fires while the closure that recorded it may
//   still run (Observation tracks on this thread, or the arming thread's window is open) stays
//   armed, so the scope hears the next change once it subscribes.

/// Hashing it is how Apple's Observation tells us it is tracking on this thread (see above).
@usableFromInline
struct TrackingDetector: Hashable, Sendable {
  @usableFromInline static func == (_: Self, _: Self) -> Bool { true }
  @usableFromInline func hash(into hasher: inout Hasher) {
    ThreadContext.withCurrent { $0.appleIsTracking() }
  }
}

/// The `Observable` Apple records when a holder is read: it never changes; recording it is what
/// tells us Apple is tracking.
///
/// Each holder has its own (`RootSlot.probe`), as each `@Observable` object has its registrar: an
/// Observation scope that records a probe and never fires (a view gone before any change, an
/// `Observations` sequence dropped) stays subscribed to it — with everything its `onChange`
/// captured — until the probe goes. One global probe kept them all for good (≈ 1 KB a scope, and
/// every later subscription to it slower); a holder's goes with the holder.
@usableFromInline
final class TrackingProbe: Observable, Sendable {
  @usableFromInline let registrar = ObservationRegistrar()
  subscript(_: TrackingDetector) -> Void { () }

  /// A probe for stores that read through their root's (a scoped store's field read): never
  /// asked.
  static let unused = TrackingProbe()
  /// Made once: a key path with an argument is made at run time.
  @usableFromInline static let keyPath = \TrackingProbe.[TrackingDetector()]
  /// An instance property, so that a read finds it without a lazy global's check.
  @usableFromInline let keyPath = TrackingProbe.keyPath

  @usableFromInline init() {}

  /// Opens a bridge window on this thread if Apple's Observation is tracking.
  @inlinable
  func check() {
    registrar.access(self, keyPath: keyPath)
  }
}

/// One field of one extent, as Apple's Observation sees it (see above).
final class ObservationBridge: Observable, @unchecked Sendable {
  let registrar = ObservationRegistrar()
  /// The field it stands for.
  let key: BridgeKey
  /// False once the field changed (the bridge fired); re-armed by the next bridged read.
  let isArmed = Atomic<Bool>(false)
  /// Fired, and its `withMutation` not started: a read of the field now gets a new bridge (this
  /// one would notify it of a change it has seen).
  let isFiring = Atomic<Bool>(false)
  /// A newer bridge of this thread stands for the same field of the same location (a read of a
  /// fork of the value this one was armed on): this one is not kept when it next fires. Kept
  /// while the thread's window is open, superseded bridges piled up on a thread that only
  /// renders (one per write of an enum's payload, each fired by every later write). Safe: a
  /// closure that recorded this bridge and still runs is the one that armed the newer bridge, or
  /// encloses it and takes its reads (Observation merges a nested scope's); one that ended has
  /// subscribed and hears the next fire. Cleared by a read of this bridge again.
  let isSuperseded = Atomic<Bool>(false)
  /// Fires on other threads deciding whether it stays armed (`Observer.staysArmed`), from before
  /// they look at the arming thread's window to after they closed it or kept it. A read on the
  /// arming thread reuses the bridge only when none is: one deciding to drop it found the
  /// window closed, and the read (its window open since) might otherwise record a bridge about
  /// to go dead — its scope then waits on it for good. Each side writes its own flag, then reads
  /// the other's (sequentially consistent), so at least one sees the other: the fire keeps the
  /// bridge, or the read arms a new one.
  let deciding = Atomic<Int>(0)
  /// The bridge window of the thread that armed this bridge (the cache is per thread).
  let armedBy: BridgeWindowFlag
  /// The one-shot observer of the field while armed. Guarded by ``registry``. Strong, and so a
  /// cycle (the observer holds the bridge) broken when it fires, or when the thread's cache drops
  /// a bridge whose value died (`BridgeWindowFlag.deadKeys`), which it does only where no
  /// Observation scope runs on it (`dropDeadBridges`): when the value dies on that thread outside
  /// tracking, once the thread finds Observation not tracking, or when it exits. With the bridge
  /// go the Observation scopes subscribed to its registrar that never fired, and what their
  /// `onChange` captured. (Held weakly by the cache, bridges went at once on every thread, but a
  /// weak reference gives an object a side table and slows every retain of it: a nested read by
  /// Observation cost a fifth more.)
  var observer: Observer?
  subscript(_: TrackingDetector) -> Void { () }
  /// Never read or written: `\.field` is what a read records and a change notifies, argument-less
  /// so that Observation hashes it as cheaply as an `@Observable` property's (FieldBridges.swift).
  private var field = false

  static let fieldKeyPath = \ObservationBridge.field
  /// Accessed after `fieldKeyPath` when we need to know whether Observation records the read: its
  /// argument tells (see `TrackingProbe`). Never notified.
  static let detection = \ObservationBridge.[TrackingDetector()]

  init(_ key: BridgeKey, armedBy window: BridgeWindowFlag) {
    self.key = key
    armedBy = window
  }

  /// Records this bridge in Apple's access list. If `asks`, also whether Apple recorded it (false:
  /// it was not tracking); without asking, true. Leaves `appleTrackingSeen` false.
  func access(_ context: ThreadContext, asks: Bool = true) -> Bool {
    registrar.access(self, keyPath: Self.fieldKeyPath)
    guard asks else { return true }
    context.appleTrackingSeen = false
    registrar.access(self, keyPath: Self.detection)
    defer { context.appleTrackingSeen = false }
    return context.appleTrackingSeen
  }

  /// Registers a fresh one-shot observer of `key` on `extent`. Apple's scopes that recorded this
  /// bridge before were all told when it last fired (they are one-shot), so the bridge is reused.
  ///
  /// Anchored, the observer goes where the location is now (`Extent.locationHead`): if another
  /// thread's write moved the value read on to a fork since, registered here it would wait where
  /// nothing is written again, and so would the Observation scope that records the bridge (our own
  /// scopes fire at once then, B10; an Observation scope cannot be fired before it subscribes).
  /// That change is missed, as Observation's own would be; the next one is heard.
  ///
  /// The bridges of this thread already registered there for the same field are superseded.
  func arm(_ extent: Extent, _ key: FieldKey, _ keyPath: AnyKeyPath?, anchored: Bool) {
    let observer = Observer(onChange: { [self] _ in fire() }, closed: { [self] kept in if !kept { close() } }, windowBridge: self)
    isSuperseded.store(false, ordering: .relaxed)
    withRegistry { garbage in
      if let previous = self.observer { garbage.append(previous) }
      self.observer = observer
      let target = anchored ? extent.locationHead() : .passUnretained(extent)
      observer.extents.append((target, 1))
      target._withUnsafeGuaranteedRef { target in
        target.registrations.forEach(key: key) { registration in
          guard registration.anchored == anchored, let older = registration.observer.windowBridge,
            older !== self, older.armedBy === armedBy
          else { return }
          older.isSuperseded.store(true, ordering: .relaxed)
        }
        target.register(observer, key: key, keyPath: keyPath, anchored: anchored)
      }
    }
    isArmed.store(true, ordering: .relaxed)
  }

  /// Its field changed (see `Observer.closed`).
  private func close() {
    isFiring.store(true, ordering: .relaxed)
    isArmed.store(false, ordering: .relaxed)
    withRegistry { garbage in letGoOfObserver(&garbage) }
  }

  /// Drops the observer (the cycle with it: `observer`), releasing it after the lock. Requires the
  /// registry lock.
  func letGoOfObserver(_ garbage: inout [AnyObject]) {
    if let observer { garbage.append(observer) }
    observer = nil
  }

  /// Once `withMutation` has started, Observation has taken the scopes it notifies: the bridge
  /// may be reused from then on (by a scope re-armed from its `onChange`).
  private func fire() {
    isFiring.store(false, ordering: .relaxed)
    registrar.withMutation(of: self, keyPath: Self.fieldKeyPath) {}
  }
}

/// Identifies a field of an extent for the bridge cache (serials are never reused), and how the
/// bridge's observer is registered there: an anchored read must not reuse a bridge an un-anchored
/// read armed (a bare copy's change would reach it; found by a randomized run).
struct BridgeKey: Hashable {
  let serial: UInt64
  let key: FieldKey
  let anchored: Bool
}

extension ThreadContext {
  /// Whether Apple's Observation tracks on this thread now (it records the probe, which never
  /// changes). Leaves `appleTrackingSeen` as it was.
  func observationTracksHere() -> Bool {
    let seen = appleTrackingSeen
    appleTrackingSeen = false
    let probe = threadProbe ?? TrackingProbe()
    threadProbe = probe
    probe.check()
    defer { appleTrackingSeen = seen }
    if appleTrackingSeen { threadProbeRecorded = true } else { observationStoppedTracking() }
    return appleTrackingSeen
  }

  /// Observation was found not tracking on this thread: every scope it tracked here has ended
  /// (and subscribed). Closes the window, and drops the thread's probe: the scopes that recorded
  /// it (asking when `untracked` started, or when a bridge fired here) stay subscribed to their
  /// other registrars, and no longer to it — kept, it would hold every such scope that never
  /// fires, and what its `onChange` captured, for the thread's life. (Dropped while a scope still
  /// ran, the probe would be installed into after it died, and leak for good: hence only here.)
  func observationStoppedTracking() {
    closeBridgeWindow()
    if threadProbeRecorded {
      threadProbe = nil
      threadProbeRecorded = false
    }
    dropDeadBridges()
  }

  /// Drops the cached bridges whose value died since (see `ObservationBridge.observer`), and those
  /// a prune set aside: O(those). Only where no Observation scope runs on this thread: one that
  /// recorded a bridge whose value died while it ran subscribes when it ends, and a bridge gone by
  /// then would take its subscription into a registrar nothing cancels (a cycle through
  /// Observation's own state: that scope, if it never fired, for good).
  @inline(never)
  func dropDeadBridges() {
    if !setAside.isEmpty { setAside = [] }
    if !displaced.isEmpty { dropDisplacedBridges() }
    guard window.deadBridges.load(ordering: .relaxed) != 0 else { return }
    withRegistry { garbage in
      window.deadBridges.store(0, ordering: .relaxed)
      let dead = window.deadKeys
      window.deadKeys = []
      for key in dead {
        guard let bridge = bridges[key], bridge.observer?.extents.isEmpty ?? true else { continue }
        bridges[key] = nil
        bridge.letGoOfObserver(&garbage)
        garbage.append(bridge)
      }
    }
    if let last = lastBridge, bridges[last.key] !== last { lastBridge = nil }
  }

  /// Lets go of the bridges displaced from the cache while a fire decided whether they stay
  /// armed (`ObservationBridge.deciding`) once they no longer are, or their value died.
  func dropDisplacedBridges() {
    withRegistry { garbage in
      displaced.removeAll { bridge in
        guard let observer = bridge.observer, observer.isActive, !observer.extents.isEmpty else {
          bridge.letGoOfObserver(&garbage)
          garbage.append(bridge)
          return true
        }
        return false
      }
    }
  }

  /// Hides the reads that follow from an Observation scope open on this thread now, if any — not
  /// from one opened later (`untracked`; an observer re-tracking as it fires). Callers restore
  /// `bridgeHidden`.
  func hideReadsFromObservationScopeOpenNow() {
    bridgeHidden = true  // while asking, so that asking opens no bridge window
    bridgeHidden = observationTracksHere()
  }

  /// Called while Apple's Observation records a holder read or a bridge: it is tracking here.
  func appleIsTracking() {
    appleTrackingSeen = true
    unaskedReads = 0
    guard !bridgeWindow, !bridgeHidden else { return }
    bridgeWindow = true
    if openScopes.isEmpty { anchorSession = nextAnchorSession() }
    // Before any read of a bridge's `deciding` (see there).
    window.isOpen.store(true, ordering: .sequentiallyConsistent)
    openTrackingScopes.add(1, ordering: .relaxed)
  }

  /// Whether a read of an armed store field must ask Observation whether it still tracks here
  /// (FieldBridges.swift). With the window closed, only one with reads below it does: asking
  /// opens the window for them. With the window open, one in 16: the window closes at a read that
  /// finds Observation gone, so a thread reading only armed fields must still ask now and then, or
  /// a window left open after a closure would keep every read of every holder on its slow path
  /// (`openTrackingScopes`); asking at each read costs each a second Observation access.
  func asksObservation(leaf: Bool) -> Bool {
    guard bridgeWindow else { return !leaf }
    unaskedReads += 1
    return unaskedReads >= 16
  }

  /// Closes this thread's bridge window, if open.
  @inline(__always)
  func closeBridgeWindow() {
    guard bridgeWindow else { return }
    bridgeWindow = false
    if openScopes.isEmpty { anchorSession = 0 }
    window.isOpen.store(false, ordering: .relaxed)
    openTrackingScopes.subtract(1, ordering: .relaxed)
  }
}

/// Whether a thread's bridge window is open, readable from other threads (`ThreadContext.window`).
final class BridgeWindowFlag: @unchecked Sendable {  // `deadKeys` guarded by `registry`
  let isOpen = Atomic<Bool>(false)
  /// Bridges this thread armed whose value died (their observer lost its last extent): the
  /// thread's cache still holds them, and so the Observation scopes subscribed to them. Their
  /// keys, and how many: the thread drops them (`dropDeadBridges`).
  let deadBridges = Atomic<Int>(0)
  var deadKeys: [BridgeKey] = []
}

extension Extent {
  /// Tells Apple's Observation about a read of `key` on this extent, if it still tracks: through
  /// the field's armed bridge, made on first use. Called with the window open.
  func bridgeAccess(_ key: FieldKey, _ keyPath: AnyKeyPath?, anchored: Bool, _ context: ThreadContext) {
    guard !context.bridgeHidden else { return }
    let cacheKey = BridgeKey(serial: serial, key: key, anchored: anchored)
    // The last bridge is in the cache (pruning forgets it): a field read again skips the lookup,
    // armed or not.
    let last = context.lastBridge
    let cached = last.flatMap { $0.key == cacheKey ? $0 : nil } ?? context.bridges[cacheKey]
    if let bridge = cached, bridge.isArmed.load(ordering: .relaxed) {
      if bridge.isSuperseded.load(ordering: .relaxed) { bridge.isSuperseded.store(false, ordering: .sequentiallyConsistent) }
      if bridge.deciding.load(ordering: .sequentiallyConsistent) == 0, bridge.isArmed.load(ordering: .relaxed) {
        context.lastBridge = bridge
        // Whether Apple still tracks is asked now and then, as for a store's armed fields.
        if !bridge.access(context, asks: context.asksObservation(leaf: true)) { context.observationStoppedTracking() }
        return
      }
    }
    // Not armed here yet, or a fire elsewhere is deciding whether it stays armed (`deciding`). The
    // bridge itself asks whether Apple still tracks (no global probe, see `TrackingProbe`):
    // accessed first, armed only if Apple recorded it. A window left open after its closure ended
    // costs one bridge made for nothing, then closes.
    let reusable = cached.flatMap { bridge in
      bridge.isFiring.load(ordering: .relaxed) || bridge.isArmed.load(ordering: .relaxed) ? nil : bridge
    }
    let bridge = reusable ?? ObservationBridge(cacheKey, armedBy: context.window)
    guard bridge.access(context) else { return context.observationStoppedTracking() }
    bridge.arm(self, key, keyPath, anchored: anchored)
    if reusable == nil {
      // One still armed may be kept by the fire deciding: the thread lets go of it later.
      if let displaced = cached, displaced.isArmed.load(ordering: .relaxed) { context.displaced.append(displaced) }
      context.cacheBridge(bridge, for: cacheKey)
    }
    context.lastBridge = bridge
  }
}

extension ThreadContext {
  /// Keeps `bridge` for later reads of its field. Once the cache has doubled, drops the bridges
  /// of fields that no longer exist (their extent died: the observer lost its last registration)
  /// or that changed and were not read since.
  func cacheBridge(_ bridge: ObservationBridge, for key: BridgeKey) {
    bridges[key] = bridge
    if bridges.count >= bridgesPruneAt { pruneBridges() }
  }

  /// Drops the bridges no read can use again (see `cacheBridge`); the next prune comes when the
  /// cache has doubled from what is left. This runs inside an Observation scope (a read made it):
  /// the bridges dropped are set aside, kept until the next prune or the next place where none
  /// runs (see `dropDeadBridges`), not released now.
  func pruneBridges() {
    let released = setAside
    setAside = []
    withRegistry { garbage in
      garbage.append(contentsOf: released)
      bridges = bridges.filter { _, bridge in
        if let observer = bridge.observer, !observer.extents.isEmpty { return true }
        bridge.letGoOfObserver(&garbage)
        setAside.append(bridge)
        return false
      }
    }
    if let last = lastBridge, bridges[last.key] !== last { lastBridge = nil }
    bridgesPruneAt = max(64, bridges.count * 2)
  }
}
