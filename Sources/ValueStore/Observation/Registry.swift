/// The one lock guarding every subscriber table (``Subscribers``), location tree's children,
/// fork's lineage and ``Observer``'s places: one lock keeps cancellation (observer → tables) and
/// notification (table → observers) free of lock-ordering problems. Taken only on slow paths
/// (registering, a write somebody observes, a fork): unobserved reads and writes never take it.
/// A deinitializer or user code would re-enter it, so inside it no observer or extent reference
/// is released (they go into `garbage`, released after) and no user code or call into Apple's
/// Observation runs. Re-entry stops with a message.
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
