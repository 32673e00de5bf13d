#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A pthread mutex (the registry, root holders, `LockIsolated`) that knows its holding thread:
/// taking it again on that thread stops with `reentryMessage` instead of deadlocking. Not
/// `Synchronization.Mutex`: see Documentation/Decisions/0004-pthread-lock-not-mutex.md.
@usableFromInline
final class Lock: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// The holding thread (`currentThreadID`), 0 when free. Written only by the holder; read by any
  /// thread that finds the mutex taken, to tell re-entry from contention.
  @usableFromInline let owner = Atomic<UInt>(0)
  @usableFromInline let reentryMessage: StaticString

  init(reentryMessage: StaticString = "a lock was taken again by the thread that holds it") {
    self.reentryMessage = reentryMessage
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == currentThreadID() }

  @inlinable
  func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    lock()
    defer { unlock() }
    return try body()
  }

  /// Takes the lock; for bodies that must stay inlined in their caller (prefer ``withLock(_:)``).
  @inlinable
  func lock() {
    let me = currentThreadID()
    if pthread_mutex_trylock(mutex) != 0 {
      // Taken: by another thread (wait) or by this one (it would never return).
      if owner.load(ordering: .relaxed) == me { fatalError("\(reentryMessage)") }
      pthread_mutex_lock(mutex)
    }
    owner.store(me, ordering: .relaxed)
  }

  /// Takes the lock unless this thread holds it already (then returns false and takes nothing).
  @inlinable
  func lockUnlessHeld() -> Bool {
    let me = currentThreadID()
    if pthread_mutex_trylock(mutex) != 0 {
      if owner.load(ordering: .relaxed) == me { return false }
      pthread_mutex_lock(mutex)
    }
    owner.store(me, ordering: .relaxed)
    return true
  }

  @inlinable
  func unlock() {
    owner.store(0, ordering: .relaxed)
    pthread_mutex_unlock(mutex)
  }
}

/// A number naming the calling thread, never 0.
@inlinable
func currentThreadID() -> UInt {
  #if canImport(Darwin)
  UInt(bitPattern: pthread_self())
  #else
  UInt(pthread_self())
  #endif
}
