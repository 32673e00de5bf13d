#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// The observation state of one thread: tracking scopes, delivery queue, holder mutations, Apple's
/// window. Thread-local, not task-local: tracking and transactions are synchronous (as in Apple's
/// Observation). Its fields skip dynamic exclusivity checks: only its thread touches them.
@usableFromInline
final class ThreadContext {
  // MARK: Tracking (Tracking.swift)

  @exclusivity(unchecked) var scope: TrackingScope?
  /// Every open tracking scope here, outermost first, including those `untracked` or a firing loop
  /// set aside (see `registerPendingReads`).
  @exclusivity(unchecked) var openScopes: [TrackingScope] = []
  /// Finished scopes kept for reuse (one per nesting level ever reached).
  @exclusivity(unchecked) var spareScopes: [TrackingScope] = []

  // MARK: Delivery (Observer.swift, Transaction.swift)

  /// Nesting depth of open transactions (`withTransaction`, holder mutations); 0 when none.
  @exclusivity(unchecked) @usableFromInline var transactionDepth = 0
  /// Notifications held back until the outermost transaction ends. Reused: one buffer per thread.
  @exclusivity(unchecked) var pending: [Delivery] = []
  @exclusivity(unchecked) var isFiring = false

  // MARK: Holders (ObservedRoot.swift: `HolderRoot`, `mutateHeld`)

  /// Greater than zero while a holder mutates on this thread: a fork made then is a copy's (the
  /// holder's own values are forked by their slots) and takes no bare readers along.
  @exclusivity(unchecked) var holderDepth = 0

  /// What a holder's mutation sets aside on this thread, restored when it ends.
  @usableFromInline
  struct HolderMutation {
    let scope: TrackingScope?
    let hidesReadsFromApple: Bool
  }

  /// A holder starts mutating here. Scopes that read before it register those reads now; the body's
  /// reads (a reducer's) are neither theirs nor Apple's. An open Apple window is checked first
  /// through `probe`: one left open by an ended closure would keep every read on its slow path.
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
  /// Reads are hidden from Apple's Observation: inside `untracked` and a holder's mutation.
  @exclusivity(unchecked) var hidesReadsFromApple = false
  /// How this thread asks Apple whether it tracks where no holder was read (see `askApple`).
  @exclusivity(unchecked) var threadProbe: TrackingProbe?
  /// This thread's reads recorded for Apple's Observation (see `AppleSubscriptions`).
  let appleRecorder = AppleRecorder()

  /// `ObservableFields` found so far, by `Fields` type: per thread, so a detach takes no lock.
  @exclusivity(unchecked) var observableFields: [ObjectIdentifier: ObservableFields] = [:]
  /// Asked once: `Thread.isMainThread` makes system calls on Linux, and every observer round asks.
  lazy var isMainThread = Thread.isMainThread

  /// A window still open closes with its thread: left open, it would count as an open scope for good
  /// (every read and write on its slow path), and other threads' changes would not move its keys.
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

  /// Runs `body` on this thread's context unretained, or on nil if the thread made none (never
  /// makes one).
  static func withExisting<R>(_ body: (ThreadContext?) -> R) -> R {
    guard let raw = pthread_getspecific(threadContextKey) else { return body(nil) }
    return Unmanaged<ThreadContext>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
  }

  /// Runs `body` on this thread's context unretained (the thread keeps it): for frequent short calls.
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
