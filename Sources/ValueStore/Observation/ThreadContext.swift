#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// The observation state of one thread: the innermost tracking scope, the open transaction and
/// whether a root holder is mutating. Tracking and transactions are synchronous, so a thread-local
/// (not a task-local) is the right scope, as in Apple's Observation.
///
/// Its fields on hot paths skip dynamic exclusivity checks: only its own thread touches them, and the
/// check cost more than the tracked read it guards.
@usableFromInline
final class ThreadContext {
  /// The innermost `withTracking` scope on this thread.
  @exclusivity(unchecked) var scope: TrackingScope?
  /// The scope set aside while observers fire (see `startFiring`).
  var scopeWhileFiring: TrackingScope?
  /// Every open tracking scope on this thread, outermost first, including those `untracked` or a
  /// firing observer set aside (see `registerPendingReads`).
  @exclusivity(unchecked) var openScopes: [TrackingScope] = []
  /// Finished scopes kept for reuse (one per nesting level ever reached).
  var spareScopes: [TrackingScope] = []
  /// Nesting depth of open transactions (`withTransaction`, holder mutations); 0 when none.
  @exclusivity(unchecked) var transactionDepth = 0
  /// Notifications held back until the outermost transaction ends. Reused: one buffer per thread.
  @exclusivity(unchecked) var pending: [Delivery] = []
  /// True while `drainPending` runs observers on this thread: deliveries made meanwhile wait for
  /// its next round instead of nesting.
  @exclusivity(unchecked) var isFiring = false
  /// Greater than zero while an ``ObservedRoot`` runs a mutation on this thread: forks made then
  /// are reconciled by the slots that hold them, not announced at once.
  @exclusivity(unchecked) var holderDepth = 0
  /// Greater than zero while an ``ObservedRoot`` read accessor runs: accesses recorded then are
  /// anchored (they belong to the holder's location, never to a bare copy).
  @exclusivity(unchecked) @usableFromInline var anchorDepth = 0
  /// The tracking session open on this thread: a number the outermost of our scopes, or a bridge
  /// window opened outside them, takes anew (`nextAnchorSession`); 0 when none is open. Values a
  /// holder's tracked read reaches are marked with it (`Extent.anchoredIn`).
  @exclusivity(unchecked) var anchorSession: UInt64 = 0
  /// Set by `TrackingDetector` when Apple's Observation records a key path on this thread.
  @exclusivity(unchecked) var appleTrackingSeen = false
  /// Reads on this thread are also bridged to Apple's Observation (see ObservationBridge.swift).
  @exclusivity(unchecked) @usableFromInline var bridgeWindow = false
  /// Reads of armed store fields that did not ask Observation whether it still tracks since the
  /// window opened or last asked (see `asksObservation`).
  @exclusivity(unchecked) var unaskedReads = 0
  /// `bridgeWindow`, for other threads: a bridge this thread armed, fired elsewhere while the
  /// window is open, stays armed (the closure that recorded it may still run; `Observer.closed`).
  let window = BridgeWindowFlag()
  /// Reads are hidden from Apple's Observation: inside `untracked` entered while Observation
  /// tracked here (an Observation scope opened inside it is seen: its reads are bridged), and
  /// inside a holder's mutation body.
  @exclusivity(unchecked) var bridgeHidden = false
  /// How this thread asks Observation whether it tracks when no holder asks (`untracked`, a
  /// bridge firing here); replaced once Observation is seen not tracking (see
  /// `observationStoppedTracking`).
  var threadProbe: TrackingProbe?
  /// A scope recorded `threadProbe` (it was asked while Observation tracked): it is replaced, not
  /// kept, once Observation stops tracking here. (Replaced at every stop, it was made anew at
  /// every round of an `observe`, which asks as it re-tracks: a fifth of the round.)
  var threadProbeRecorded = false
  /// Armed bridges by field, so a field read again under Apple's tracking reuses its bridge.
  var bridges: [BridgeKey: ObservationBridge] = [:]
  var bridgesPruneAt = 64
  /// Bridges a prune dropped while an Observation scope may have run here (see `pruneBridges`).
  var setAside: [ObservationBridge] = []
  /// Bridges replaced in the cache while still armed (`ObservationBridge.deciding`), until they
  /// fire or their value dies (`dropDisplacedBridges`).
  var displaced: [ObservationBridge] = []
  /// The bridge used last: a field read many times in a row skips the cache lookup.
  @exclusivity(unchecked) var lastBridge: ObservationBridge?
  /// `ObservableFields` found so far, by `Fields` type: per thread, so a detach takes no lock.
  var observableFields: [ObjectIdentifier: ObservableFields] = [:]
  /// Whether this is the main thread, asked once: on Linux `Thread.isMainThread` makes two system
  /// calls (`gettid`, `getpid`), and a store observer's every round asks.
  lazy var isMainThread = Thread.isMainThread

  /// The thread exits: its cached bridges let go of their observers (a cycle each), so that those
  /// whose value is gone go, with the Observation scopes subscribed to them.
  deinit {
    let cached = Array(bridges.values) + displaced
    withRegistry { garbage in
      for bridge in cached { bridge.letGoOfObserver(&garbage) }
    }
  }

  @usableFromInline
  static var current: ThreadContext {
    if let raw = pthread_getspecific(threadContextKey) {
      return Unmanaged<ThreadContext>.fromOpaque(raw).takeUnretainedValue()
    }
    let context = ThreadContext()
    pthread_setspecific(threadContextKey, Unmanaged.passRetained(context).toOpaque())
    return context
  }

  /// Whether a read made now is recorded here: a tracking scope is open on this thread (one
  /// opened inside `untracked`, which clears the scope, included), or a bridge window where reads
  /// are not hidden from Observation.
  @usableFromInline var isRecording: Bool { scope != nil || (bridgeWindow && !bridgeHidden) }

  /// Runs `body` on this thread's context without retaining it (the thread keeps it alive), for
  /// short calls made many times per change (Observation hashes our detector on each access).
  static func withCurrent<R>(_ body: (ThreadContext) -> R) -> R {
    guard let raw = pthread_getspecific(threadContextKey) else { return body(current) }
    return Unmanaged<ThreadContext>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
  }

  /// Runs `body` on this thread's context if it has one (none made for it: a thread that never
  /// tracked has nothing to tidy, and one exiting has let go of its context).
  static func ifAny(_ body: (ThreadContext) -> Void) {
    guard let raw = pthread_getspecific(threadContextKey) else { return }
    Unmanaged<ThreadContext>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
  }
}

#if canImport(Darwin)
private let threadContextKey: pthread_key_t = {
  var key = pthread_key_t()
  pthread_key_create(&key) { Unmanaged<ThreadContext>.fromOpaque($0).release() }
  return key
}()
#else
private let threadContextKey: pthread_key_t = {
  var key = pthread_key_t()
  pthread_key_create(&key) { raw in
    if let raw { Unmanaged<ThreadContext>.fromOpaque(raw).release() }
  }
  return key
}()
#endif

/// The last tracking session number given (`ThreadContext.anchorSession`).
private let anchorSessions = Atomic<UInt64>(0)

/// A tracking session number no session had.
func nextAnchorSession() -> UInt64 {
  anchorSessions.wrappingAdd(1, ordering: .relaxed).newValue
}

/// Number of `withTracking` scopes open on all threads. Reads test it before touching the
/// thread-local, so an untracked read costs one relaxed load.
@usableFromInline
let openTrackingScopes = Atomic<Int>(0)

/// Whether a read made now through the holder whose probe is `probe` may have to be recorded: a
/// scope is open somewhere, or Apple's Observation tracks on this thread (asking it opens a
/// bridge window, see ObservationBridge.swift).
@inlinable
func trackingMayRecord(_ probe: TrackingProbe) -> Bool {
  if openTrackingScopes.load(ordering: .relaxed) != 0 { return true }
  probe.check()
  return openTrackingScopes.load(ordering: .relaxed) != 0
}
