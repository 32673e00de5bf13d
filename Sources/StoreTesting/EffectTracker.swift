import ValueStore

/// The effects started by a test store's actions, and the test store's waiting for them: for an
/// action to be received, or for effects to finish.
///
/// Waiting never polls. Received actions and finished effects signal the waiters; a timer task
/// ends a wait at its deadline.
@MainActor
final class EffectTracker {
  /// The effects started by one action.
  struct Record {
    let task: StoreTask
    /// The action, when the store received it from an effect; nil when the test sent it.
    let received: (any Sendable)?
    let origin: SendOrigin
    /// Set by `skipInFlightEffects()`: not required to finish.
    var isSkipped = false
    /// Whether a task already signals the waiters when these effects finish.
    var isWatched = false

    /// The failure for effects still running when they must have finished.
    var stillRunningMessage: String {
      let startedBy =
        received.map {
          "received action \(String(customDumping: $0)) (following \(origin.description))"
        } ?? origin.description
      return """
        An effect returned for this action is still running. It must run to completion before the \
        end of the test. …

        Started by \(startedBy)
        """
    }
  }

  /// How many times ``settle()`` yields at most while effects are running.
  static let settleYields = 20

  /// Effects that may still be running, oldest first; finished ones are dropped lazily.
  private var records: [Record] = []
  private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
  private var nextWaiterID = 0

  /// Starts tracking `task`: the effects of the action the test sent from `origin`, or of the
  /// action `received` from an effect that followed from it.
  func track(_ task: StoreTask, received: (any Sendable)? = nil, from origin: SendOrigin) {
    records.append(Record(task: task, received: received, origin: origin))
  }

  /// The effects still running, oldest first; skipped ones only if asked for.
  func running(includingSkipped: Bool = false) -> [Record] {
    records.removeAll { !$0.task.isInFlight }
    return includingSkipped ? records : records.filter { !$0.isSkipped }
  }

  /// Stops requiring the running effects to finish; they keep running.
  func skipRunning() {
    for index in records.indices { records[index].isSkipped = true }
  }

  /// Wakes every waiter, to check again what it waits for.
  func signal() {
    guard !waiters.isEmpty else { return }
    let woken = waiters
    waiters.removeAll()
    for waiter in woken.values { waiter.resume() }
  }

  /// Suspends until `condition` holds or `deadline` passes; returns whether `condition` holds.
  func wait(until deadline: ContinuousClock.Instant, for condition: () -> Bool) async -> Bool {
    while !condition() {
      guard ContinuousClock.now < deadline else { return false }
      watchRunningEffects()
      await nextSignal(before: deadline)
    }
    return true
  }

  /// Gives effects that are about to finish the chance to, before the test goes on: an effect
  /// that sent its last action still has to return after the test received the action, and a
  /// cancelled effect still has to unwind. Without this the test could end first and report them
  /// as still running.
  ///
  /// The test store's effects run on the main queue (``MainQueueExecutor``), so yielding lets each
  /// of them run to its next suspension: this yields while effects run, a bounded number of times
  /// (an effect that runs on, like a timer, never finishes), and costs nothing when none runs.
  func settle() async {
    var yields = 0
    while !running().isEmpty && yields < Self.settleYields {
      await Task.yield()
      yields += 1
    }
  }

  /// Makes each running effect signal the waiters when it finishes.
  private func watchRunningEffects() {
    for index in records.indices where !records[index].isWatched && records[index].task.isInFlight {
      records[index].isWatched = true
      let task = records[index].task
      Task { [weak self] in
        await task.finish()
        self?.signal()
      }
    }
  }

  /// Suspends until the next ``signal()``, or until `deadline`.
  private func nextSignal(before deadline: ContinuousClock.Instant) async {
    let id = nextWaiterID
    nextWaiterID += 1
    let timer = Task { [weak self] in
      try? await Task.sleep(until: deadline, clock: .continuous)
      self?.waiters.removeValue(forKey: id)?.resume()
    }
    await withCheckedContinuation { waiters[id] = $0 }
    timer.cancel()
  }
}
