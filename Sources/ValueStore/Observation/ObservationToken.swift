import Synchronization

/// Keeps an ``observe(_:)`` subscription alive; cancels it on ``cancel()`` or when released.
///
/// Store it while you observe: an optimized build may release a local token after its last use
/// (even with `_ = token`); end a local one with `withExtendedLifetime(token) {}` or `token.cancel()`.
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
  /// Runs a round elsewhere (the main actor, for a store's observers); nil: where the change was made.
  let hop: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
  /// Guarded by ``registry``.
  private var observer: Observer?
  /// Also read without the lock: an observer fired in the round that cancelled must not run `apply`.
  private let isCancelled = Atomic<Bool>(false)

  /// Made once: forming a weak reference every round would cost a side-table update.
  private var onChange: (@Sendable (ObservationChange) -> Void)!

  init(_ apply: @escaping @Sendable () -> Void, hop: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil) {
    self.apply = apply
    self.hop = hop
    // Weak: the token owns the loop; registrations must not keep it (and what `apply` captures) alive.
    onChange = { [weak self] _ in self?.changed() }
  }

  func run() {
    guard !isCancelled.load(ordering: .relaxed) else { return }
    // A transaction: an observer firing as it registers (its read raced a change) re-runs the loop
    // only once it is stored here, so `cancel` always reaches the newest one.
    withTransaction {
      let observer = track(apply, onChange: onChange).observer
      withRegistry { garbage in
        if isCancelled.load(ordering: .relaxed) {
          observer?.deactivate(&garbage)
        } else {
          // The previous observer has fired; this may be the last reference to it.
          if let previous = self.observer { garbage.append(previous) }
          self.observer = observer
        }
      }
    }
  }

  private func changed() {
    guard let hop else { return run() }
    // Strong: a round that hops runs soon, and `run` does nothing once the loop is cancelled.
    hop { [self] in run() }
  }

  func cancel() {
    withRegistry { garbage in
      isCancelled.store(true, ordering: .relaxed)
      observer?.deactivate(&garbage)
      observer = nil
    }
  }
}

/// Runs `apply` now and after every change of what it read, re-tracking each time, until the token
/// is cancelled or released.
///
/// ```swift
/// let token = observe {
///   print("count:", model.count)   // reprinted whenever `count` changes
/// }
/// ```
///
/// `apply` runs on the thread that made the change, after it (at the end of an enclosing
/// transaction), and again only if its own mutations changed what it read, once it returned. The
/// subscription keeps nothing alive but `apply`: capture what it reads weakly or via the token's owner.
public func observe(_ apply: @escaping @Sendable () -> Void) -> ObservationToken {
  let loop = ObservationLoop(apply)
  loop.run()
  return ObservationToken(loop)
}
