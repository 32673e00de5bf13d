/// Keeps an ``observe(_:)`` subscription alive; cancels it on ``cancel()`` or when released.
public final class ObservationToken: Sendable {
  let loop: ObservationLoop

  init(_ loop: ObservationLoop) { self.loop = loop }

  /// Stops the subscription. Idempotent; safe from any thread.
  public func cancel() { loop.cancel() }

  deinit { loop.cancel() }
}

/// Re-tracks `apply` after every change it observed, until cancelled.
final class ObservationLoop: @unchecked Sendable {
  let apply: @Sendable () -> Void
  /// Guarded by ``registry``.
  private var observer: Observer?
  /// Guarded by ``registry``.
  private var isCancelled = false

  init(_ apply: @escaping @Sendable () -> Void) { self.apply = apply }

  func run() {
    // A transaction: an observer that fires as it registers (its read raced a change) re-runs
    // the loop only after it is stored here, so `cancel` always reaches the newest one.
    withTransaction {
      // Weak: the token owns the loop; registrations must not keep it (and what `apply` captures) alive.
      let observer = track(apply) { [weak self] _ in self?.run() }.observer
      withRegistry { garbage in
        if isCancelled {
          observer?.deactivate(&garbage)
        } else {
          self.observer = observer
        }
      }
    }
  }

  func cancel() {
    withRegistry { garbage in
      isCancelled = true
      observer?.deactivate(&garbage)
      observer = nil
    }
  }
}

/// Runs `apply` now and again after every change of what it read, re-tracking each time, until the
/// returned token is cancelled or released.
///
/// ```swift
/// let token = observe {
///   print("count:", model.count)   // reprinted whenever `count` changes
/// }
/// ```
///
/// `apply` runs on the thread that made the change, after it (at the end of a transaction inside
/// one). Capture what it reads weakly or through the token's owner: the subscription itself keeps
/// nothing alive but `apply`.
public func observe(_ apply: @escaping @Sendable () -> Void) -> ObservationToken {
  let loop = ObservationLoop(apply)
  loop.run()
  return ObservationToken(loop)
}
