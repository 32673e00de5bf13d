import ValueStore

/// The clock of scripted runs: its time stands still until ``advance(to:)`` moves it, so a
/// transcript is the same on every machine and every run.
///
/// Advancing is deterministic because the clock knows when the demo is *idle*: when every running
/// effect is asleep on it. It waits for idleness before it wakes the first sleeper, and again after
/// each wake — the woken effect has sent its action and gone back to sleep, or finished — before
/// it wakes the next one or returns. So `timer on` then `wait 3` delivers exactly three ticks, and
/// their redraws, before the next command runs. The session reports running effects through
/// ``effectStarted()`` and ``effectFinished()``.
///
/// - Important: Effects are counted per `StoreTask`, that is per command, and effects started by
///   actions that effects send are not counted: the store tells no more. Both are exact for this
///   demo, whose actions start at most one effect each, and whose ticks and responses start none.
///   Miscounting could make a wake return early, never hang: idleness is "at least as many sleepers
///   as running effects".
final class VirtualClock: Clock {
  /// A point in virtual time, measured from the start of the run.
  struct Instant: InstantProtocol {
    let offset: Duration

    func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
    func duration(to other: Self) -> Duration { other.offset - offset }
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var nextID = 0
    var sleepers: [Int: Sleeper] = [:]
    var runningEffects = 0
    var idleWaiters: [CheckedContinuation<Void, Never>] = []

    var isIdle: Bool { sleepers.count >= runningEffects }

    /// Takes every idle waiter if the clock is idle.
    mutating func takeIdleWaiters() -> [CheckedContinuation<Void, Never>] {
      guard isIdle else { return [] }
      defer { idleWaiters = [] }
      return idleWaiters
    }
  }

  private let state = LockIsolated(State())

  var now: Instant { state.withValue { $0.now } }

  var minimumResolution: Duration { .zero }

  /// The deadline of the earliest sleeper, if any.
  var nextDeadline: Instant? { state.withValue { $0.sleepers.values.map(\.deadline).min() } }

  func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withValue { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // Checking cancellation under the lock closes the race with `onCancel`, which runs after
        // the task is marked cancelled: either this sees the mark or the handler sees the sleeper.
        let outcome: Result<Void, any Error>? = state.withValue { state in
          if Task.isCancelled { return .failure(CancellationError()) }
          if deadline <= state.now { return .success(()) }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return nil
        }
        if let outcome { continuation.resume(with: outcome) } else { resumeIdleWaiters() }
      }
    } onCancel: {
      state.withValue { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Notes an effect that started running (and will sleep on this clock or finish).
  func effectStarted() {
    state.withValue { $0.runningEffects += 1 }
  }

  /// Notes that an effect noted by ``effectStarted()`` finished.
  func effectFinished() {
    state.withValue { $0.runningEffects -= 1 }
    resumeIdleWaiters()
  }

  /// Returns once every running effect is asleep on this clock.
  func idle() async {
    await withCheckedContinuation { continuation in
      let isIdle = state.withValue { state in
        if !state.isIdle { state.idleWaiters.append(continuation) }
        return state.isIdle
      }
      if isIdle { continuation.resume() }
    }
  }

  /// Moves time forward to `deadline`, waking the sleepers it reaches one at a time, earliest
  /// first, each once the effects woken before it have settled.
  func advance(to deadline: Instant) async {
    await idle()
    while let due = takeSleeper(dueBy: deadline) {
      due.continuation.resume()
      await idle()
    }
    state.withValue { $0.now = max($0.now, deadline) }
  }

  /// Removes the earliest sleeper due by `deadline` (the first to sleep among equals) and moves
  /// time to its deadline.
  private func takeSleeper(dueBy deadline: Instant) -> Sleeper? {
    state.withValue { state in
      guard let (id, sleeper) = state.sleepers.min(by: { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }),
        sleeper.deadline <= deadline
      else { return nil }
      state.sleepers[id] = nil
      state.now = sleeper.deadline
      return sleeper
    }
  }

  private func resumeIdleWaiters() {
    for waiter in state.withValue({ $0.takeIdleWaiters() }) { waiter.resume() }
  }
}
