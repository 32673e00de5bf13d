/// The one lock that guards every subscriber table (``Subscribers``), every location tree's
/// children, every fork's lineage and every ``Observer``'s list of where it is registered.
///
/// One lock keeps cancellation (observer → tables) and notification (table → observers) free of
/// lock-ordering problems. It is taken only on slow paths: a tracking scope registering, a write
/// to a value somebody observes, a fork. Unobserved reads and writes never touch it.
///
/// Rules, because a deinitializer or user code run inside it would re-enter it:
/// - Nothing releases a reference to an observer (which owns a user closure and what it captures)
///   or an extent inside the lock: such references go into `garbage`, released after the lock.
/// - No user code and no call into Apple's Observation runs inside it.
/// - Taking it again on the thread that holds it stops with a message instead of hanging.
@usableFromInline
let registry = Lock(reentryMessage: """
  ValueStore's registry lock was taken again by the thread that holds it: a reference released \
  inside it ran code that observes (report this as a bug)
  """)

/// Runs `body` under the registry lock; what it puts in `garbage` is released after the lock.
@usableFromInline
func withRegistry<R>(_ body: (inout [AnyObject]) -> R) -> R {
  var garbage: [AnyObject] = []
  let result = registry.withLock { body(&garbage) }
  withExtendedLifetime(garbage) {}
  return result
}
