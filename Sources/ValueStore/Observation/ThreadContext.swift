#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// The observation state of one thread: its tracking scopes, its delivery queue, whether a
/// holder mutates on it, and Apple's Observation window. Tracking and transactions are
/// synchronous, so a thread-local (not a task-local) is the right scope, as in Apple's
/// Observation.
///
/// Its fields skip dynamic exclusivity checks: only its own thread touches them.
@usableFromInline
final class ThreadContext {
  // MARK: Tracking (Tracking.swift)

  /// The innermost `withTracking` scope on this thread.
  @exclusivity(unchecked) var scope: TrackingScope?
  /// Every open tracking scope on this thread, outermost first, including those `untracked` or a
  /// firing loop set aside (see `registerPendingReads`).
  @exclusivity(unchecked) var openScopes: [TrackingScope] = []
  /// Finished scopes kept for reuse (one per nesting level ever reached).
  @exclusivity(unchecked) var spareScopes: [TrackingScope] = []

  // MARK: Delivery (Observer.swift, Transaction.swift)

  /// Nesting depth of open transactions (`withTransaction`, holder mutations); 0 when none.
  @exclusivity(unchecked) @usableFromInline var transactionDepth = 0
  /// Notifications held back until the outermost transaction ends. Reused: one buffer per thread.
  @exclusivity(unchecked) var pending: [Delivery] = []
  /// True while `drainPending` runs observers on this thread.
  @exclusivity(unchecked) var isFiring = false

  // MARK: Holders (Holder.swift)

  /// Greater than zero while a holder mutates on this thread: a fork made then is a copy's (the
  /// holder's own values are forked by their slots) and takes no bare readers along.
  @exclusivity(unchecked) var holderDepth = 0

  /// What a holder's mutation sets aside on this thread, restored when it ends.
  @usableFromInline
  struct HolderMutation {
    let scope: TrackingScope?
    let hidesReadsFromApple: Bool
  }

  /// A holder starts mutating on this thread. Tracking closures that read before it: their reads
  /// so far are theirs before the mutation changes them; the body's reads (a reducer's, a
  /// `mutate` body's, on the value it receives) are not theirs at all, nor Apple's.
  /// An Apple window still open is asked first, through the holder's probe: a window left open
  /// by a closure that has ended would otherwise send every read on every thread down its slow
  /// path until the next holder read here.
  @usableFromInline
  func enterHolderMutation(_ probe: TrackingProbe) -> HolderMutation {
    if window != nil { probe.check() }
    if !openScopes.isEmpty { registerPendingReads() }
    let saved = HolderMutation(scope: scope, hidesReadsFromApple: hidesReadsFromApple)
    scope = nil
    hidesReadsFromApple = true
    holderDepth += 1
    return saved
  }

  @usableFromInline
  func exitHolderMutation(_ saved: HolderMutation) {
    holderDepth -= 1
    scope = saved.scope
    hidesReadsFromApple = saved.hidesReadsFromApple
  }

  // MARK: Apple's Observation (AppleObservation/)

  /// Set while Apple's Observation may be tracking on this thread (see `AppleWindow`).
  @exclusivity(unchecked) var window: AppleWindow?
  /// Reads are hidden from Apple's Observation: inside `untracked`, and inside a holder's
  /// mutation.
  @exclusivity(unchecked) var hidesReadsFromApple = false
  /// How this thread asks Apple's Observation whether it tracks before any holder was read in an
  /// Observation closure (see `askApple`).
  @exclusivity(unchecked) var threadProbe: TrackingProbe?
  /// This thread's reads recorded for Apple's Observation (see `AppleSubscriptions`).
  let appleRecorder = AppleRecorder()

  /// `ObservableFields` found so far, by `Fields` type: per thread, so a detach takes no lock.
  @exclusivity(unchecked) var observableFields: [ObjectIdentifier: ObservableFields] = [:]
  /// Whether this is the main thread, asked once: on Linux `Thread.isMainThread` makes two system
  /// calls, and a store observer's every round asks.
  lazy var isMainThread = Thread.isMainThread

  /// The thread exits. A window still open closes: Apple's closure was the last to read a holder
  /// here, and no holder read since found it over (a render thread that stops after a render).
  /// Left open, it would count as an open tracking scope for good — every read and write of
  /// every holder in the process on its slow path from then on — and other threads' changes
  /// would never move the keys it recorded.
  deinit {
    closeAppleWindow()
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

  /// Runs `body` on this thread's context without retaining it (the thread keeps it alive), for
  /// short calls made many times per change.
  @usableFromInline
  static func withCurrent<R>(_ body: (ThreadContext) -> R) -> R {
    guard let raw = pthread_getspecific(threadContextKey) else { return body(current) }
    return Unmanaged<ThreadContext>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
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

/// Number of tracking scopes (and Apple windows) open on all threads. Reads test it before
/// touching the thread-local, so an untracked read costs one relaxed load.
@usableFromInline
let openTrackingScopes = Atomic<Int>(0)
