import ValueStore

/// A clock whose time moves only when a test moves it.
///
/// Inject a `TestClock` wherever the code under test takes `any Clock<Duration>`; its sleeps then
/// suspend until the test advances the clock to (or past) their deadline, so timers, debounces and
/// timeouts run instantly, with no wall-clock time involved:
///
/// ```swift
/// @Test func retriesAfterOneSecond() async {
///   let clock = TestClock()
///   let model = RetryModel(clock: clock)
///   model.startRetrying()
///
///   await clock.advance(by: .milliseconds(999))
///   #expect(model.attempts == 0)
///   await clock.advance(by: .milliseconds(1))
///   #expect(model.attempts == 1)
/// }
/// ```
///
/// As swift-clocks' `TestClock`: a sleep until ``now`` (`sleep(for: .zero)`) also suspends until
/// the clock is next advanced, `advance()` advances by zero and wakes the sleepers that are due,
/// and ``run(timeout:isolation:fileID:filePath:line:column:)`` advances until no sleeper is left.
///
/// ## Scheduling
///
/// Advancing wakes the due sleepers one at a time, earliest deadline first (ties in the order they
/// started sleeping), with ``now`` set to each sleeper's deadline as it wakes. After each wake the
/// clock does two things before it wakes the next sleeper or returns:
///
/// 1. It waits until the woken task has actually resumed. This is deterministic, so wake-ups
///    happen in deadline order even when the advancing task outranks the sleepers in priority.
/// 2. It yields ``yieldsPerStep`` times, so that the woken task can run on to its next suspension
///    point, and a task that sleeps again within the advanced range is woken by the same call.
///
/// If the woken tasks and the advancing task all run on one serial executor (for example a shared
/// `TaskExecutor` preference in a test), each woken task runs to its next suspension before the
/// clock moves on, provided it gets there in fewer than ``yieldsPerStep`` hops. An advance runs on
/// its caller's actor: from a `@MainActor` test, on the main queue, where a ``TestStore`` runs its
/// effects — so a timer effect sends its tick and sleeps again before the advance goes on, however
/// busy the main queue is.
///
/// - Important: On the parallel global executor, the second step is a heuristic. Whether a woken
///   task has reached its next suspension can't be observed, so the clock can only yield. If the
///   task's thread is preempted, or the task does a lot of work or awaits something else (an actor
///   hop, I/O, another task) first, it may not get there before `advance` returns. More yields make
///   this rarer but can't rule it out. When that matters, await an observable effect of the task
///   rather than relying on the advance alone.
public final class TestClock: Clock {
  /// A point in a ``TestClock``'s time, measured from the clock's zero point.
  public struct Instant: InstantProtocol {
    /// The instant's distance from the zero point.
    public let offset: Duration

    /// Creates the instant at `offset` from the zero point.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    public func advanced(by duration: Duration) -> Self {
      Self(offset: offset + duration)
    }

    public func duration(to other: Self) -> Duration {
      other.offset - offset
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    /// Resumed with `true` when an advance wakes the sleeper, so that it confirms the wake.
    let continuation: CheckedContinuation<Bool, any Error>
  }

  private struct State {
    var now: Instant
    var nextID: UInt64 = 0
    var sleepers: [UInt64: Sleeper] = [:]
    /// Advances waiting for a woken sleeper to confirm that it is running again.
    var wakeWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    /// Wakes confirmed before their advance started waiting for them.
    var confirmedWakes: Set<UInt64> = []

    var earliestSleeper: Sleeper? {
      sleepers.values.min { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
    }
  }

  /// How many times an advance yields after each wake so that the woken task can run on.
  public let yieldsPerStep: Int

  // `LockIsolated` (a pthread mutex) rather than `Synchronization.Mutex`: on Linux the thread
  // sanitizer reports false races on a contended `Mutex`.
  private let state: LockIsolated<State>

  /// Creates a clock that starts at `now`.
  ///
  /// - Parameters:
  ///   - now: The clock's initial instant.
  ///   - yieldsPerStep: How many times an advance yields after waking each sleeper; see
  ///     "Scheduling" in ``TestClock``. The default of 20 matches swift-clocks.
  public init(now: Instant = Instant(), yieldsPerStep: Int = 20) {
    self.state = LockIsolated(State(now: now))
    self.yieldsPerStep = yieldsPerStep
  }

  /// The clock's current instant. It changes only when the clock is advanced.
  public var now: Instant {
    state.withValue { $0.now }
  }

  /// Zero: a test clock can wake a sleeper at any instant.
  public var minimumResolution: Duration {
    .zero
  }

  /// The number of tasks suspended in ``sleep(until:tolerance:)``, waiting for the clock to reach
  /// their deadline.
  public var sleeperCount: Int {
    state.withValue { $0.sleepers.count }
  }

  /// Suspends until the clock is advanced to `deadline` or later.
  ///
  /// Returns at once if `deadline` is before ``now``; a sleep until ``now`` suspends until the next
  /// advance, even by zero (`advance()`).
  ///
  /// - Throws: `CancellationError` if the task is cancelled before or while sleeping; a
  ///   cancelled sleeper stops counting towards ``sleeperCount``.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withValue { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    let wokenByAdvance = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // Checking cancellation under the lock closes the race with `onCancel`: the task is
        // marked cancelled before the handler runs, so either this sees the flag or the handler
        // sees the sleeper.
        let immediateOutcome: Result<Bool, any Error>? = state.withValue { state in
          if Task.isCancelled { return .failure(CancellationError()) }
          if deadline < state.now { return .success(false) }
          state.sleepers[id] = Sleeper(id: id, deadline: deadline, continuation: continuation)
          return nil
        }
        if let immediateOutcome {
          continuation.resume(with: immediateOutcome)
        }
      }
    } onCancel: {
      state.withValue { $0.sleepers.removeValue(forKey: id) }?
        .continuation.resume(throwing: CancellationError())
    }
    if wokenByAdvance {
      confirmWake(of: id)
    }
  }

  /// Moves the clock forward by `duration`, waking every sleeper whose deadline it reaches; by
  /// default by zero, which wakes the sleepers that are due (a sleep until ``now``).
  ///
  /// See ``advance(to:isolation:fileID:filePath:line:column:)``.
  public func advance(
    by duration: Duration = .zero,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await advance(
      to: now.advanced(by: duration), isolation: isolation, fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  /// Moves the clock forward to `deadline`, waking every sleeper whose deadline it reaches.
  ///
  /// Sleepers wake in deadline order, ``now`` being set to each one's deadline as it wakes. When
  /// this returns, ``now`` is `deadline` and every woken task has resumed and been given
  /// ``yieldsPerStep`` yields to run on (see "Scheduling" in ``TestClock``).
  ///
  /// Time never moves backwards: a `deadline` before ``now`` reports an issue at the caller's
  /// location and leaves the clock unchanged.
  public func advance(
    to deadline: Instant,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let start = now
    guard deadline >= start else {
      reportIssue(
        "TestClock can't move backwards: asked to advance to \(deadline.offset), "
          + "but now is \(start.offset)",
        fileID: fileID, filePath: filePath, line: line, column: column
      )
      return
    }
    await step(to: deadline, isolation: isolation)
  }

  /// Advances the clock until no sleepers remain, waking each in deadline order, and fails if one
  /// remains after `timeout` of real time.
  ///
  /// ```swift
  /// await store.send(.startButtonTapped)
  /// await clock.run()   // the countdown's five ticks
  /// ```
  ///
  /// A task that keeps sleeping on the clock in a loop, such as a repeating timer, is still
  /// sleeping at the timeout: the test fails, and the task keeps sleeping. Advance such tasks by a
  /// bounded amount instead.
  public func run(
    timeout: Duration = .milliseconds(500),
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let end = ContinuousClock.now + timeout
    await step(to: now, isolation: isolation)  // Lets tasks that were just started reach their first sleep.
    while let deadline = state.withValue({ $0.earliestSleeper?.deadline }) {
      guard ContinuousClock.now < end else {
        return reportIssue(
          "Expected all sleeps to finish, but some are still suspending after \(timeout). A task "
            + "keeps sleeping on the clock: advance it by a bounded amount, or increase the timeout "
            + "of 'run'.",
          fileID: fileID, filePath: filePath, line: line, column: column)
      }
      await step(to: deadline, isolation: isolation)
    }
  }

  private func step(to deadline: Instant, isolation: isolated (any Actor)?) async {
    while true {
      // Before the first wake, yielding lets tasks started just before the advance reach their
      // sleep; after a wake, it lets the woken task run on.
      await yieldToWokenTasks(isolation: isolation)
      let due: Sleeper? = state.withValue { state in
        guard let sleeper = state.earliestSleeper, sleeper.deadline <= deadline else {
          state.now = max(state.now, deadline)
          return nil
        }
        state.sleepers[sleeper.id] = nil
        state.now = max(state.now, sleeper.deadline)
        return sleeper
      }
      guard let due else { return }
      due.continuation.resume(returning: true)
      await waitForWake(of: due.id, isolation: isolation)
    }
  }

  /// Suspends until the sleeper `id`, already resumed, is running again: unlike yielding, this
  /// guarantees it got a thread before the next sleeper wakes or the advance returns.
  private func waitForWake(of id: UInt64, isolation: isolated (any Actor)?) async {
    await withCheckedContinuation { continuation in
      let alreadyConfirmed = state.withValue { state in
        if state.confirmedWakes.remove(id) != nil { return true }
        state.wakeWaiters[id] = continuation
        return false
      }
      if alreadyConfirmed {
        continuation.resume()
      }
    }
  }

  private func confirmWake(of id: UInt64) {
    let waiter = state.withValue { state in
      let waiter = state.wakeWaiters.removeValue(forKey: id)
      if waiter == nil {
        state.confirmedWakes.insert(id)
      }
      return waiter
    }
    waiter?.resume()
  }

  private func yieldToWokenTasks(isolation: isolated (any Actor)?) async {
    for _ in 0..<yieldsPerStep {
      await Task.yield()
    }
  }
}
