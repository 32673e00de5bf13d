/// The one lock that guards every registration table (``Extent`` registrations, fork lineage and
/// ``Observer`` back-links).
///
/// A single lock keeps cancellation (observer → extents) and extent teardown (extent → observers)
/// free of lock-ordering problems. It is only taken on slow paths: a tracked scope registering, a
/// write to a value somebody observes, a fork. Unobserved reads and writes never touch it.
///
/// Rules, because a deinitializer or user code run inside the lock would re-enter it:
/// - Nothing drops a reference to an observer (which owns a user closure and what it captures)
///   inside the lock: such references go into `garbage`, released after the lock is let go.
/// - An extent may still die inside the lock — its last reference can be a temporary made from an
///   unretained back-link while another thread drops the value that held it — so `Extent.deinit`
///   does its bookkeeping in place when this thread holds the lock, and parks what it releases in
///   `lateGarbage`.
/// - Taking the lock again on the thread that holds it stops with a message instead of hanging.
@usableFromInline
let registry = Lock(reentryMessage: """
  ValueStore's registry lock was taken again by the thread that holds it: a reference released \
  inside it ran code that observes (report this as a bug)
  """)

/// References released inside the lock by dying extents (see `registry`). Guarded by ``registry``.
nonisolated(unsafe) var lateGarbage: [AnyObject] = []

@usableFromInline
func withRegistry<R>(_ body: (inout [AnyObject]) -> R) -> R {
  var garbage: [AnyObject] = []
  let result = registry.withLock {
    let result = body(&garbage)
    if !lateGarbage.isEmpty {
      garbage += lateGarbage
      lateGarbage = []
    }
    return result
  }
  withExtendedLifetime(garbage) {}
  return result
}
