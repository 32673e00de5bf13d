/// The one lock that guards every registration table (``Extent`` registrations, fork lineage and
/// ``Observer`` back-links).
///
/// A single lock keeps cancellation (observer → extents) and extent teardown (extent → observers)
/// free of lock-ordering problems. It is only taken on slow paths: a tracked scope registering, a
/// write to a value somebody observes, a fork. Unobserved reads and writes never touch it.
///
/// Nothing may drop the last reference to an extent, observer or user closure while holding the
/// lock (their deinitializers may take it again): such references go into `garbage`, which is
/// released after the lock is let go.
@usableFromInline
let registry = Lock()

@usableFromInline
func withRegistry<R>(_ body: (inout [AnyObject]) -> R) -> R {
  var garbage: [AnyObject] = []
  let result = registry.withLock { body(&garbage) }
  withExtendedLifetime(garbage) {}
  return result
}
