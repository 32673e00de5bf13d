import StoreTesting
import Testing
import ValueStore

/// swift-clocks' `TestClockTests`, translated: sleeping until now, `advance()`, and `run(timeout:)`.
@Suite(.timeLimit(.minutes(1))) struct SwiftClocksTestClockTests {
  typealias Instant = TestClock.Instant

  /// Sleeps until `now` in a task, returns once it is asleep or done, then advances by zero.
  @Test(arguments: [false, true])
  func testSleepUntilExactlyNow(forZero: Bool) async throws {
    let clock = TestClock(now: Instant(offset: .seconds(3)))
    let woken = Log<Instant>()
    let sleeper = Task {
      if forZero { try await clock.sleep(for: .zero) } else { try await clock.sleep(until: clock.now) }
      woken.append(clock.now)
    }
    while clock.sleeperCount == 0 && woken.values.isEmpty { await Task.yield() }
    #expect(woken.values.isEmpty, "asleep until the clock is advanced")

    await clock.advance()
    try await sleeper.value
    #expect(woken.values == [Instant(offset: .seconds(3))])
  }

  @Test func testRun() async throws {
    let clock = TestClock()
    let sleeper = Task {
      try await clock.sleep(for: .seconds(1))
      return clock.now
    }
    await clock.waitForSleepers(1)

    await clock.run(timeout: .seconds(30))
    #expect(try await sleeper.value == Instant(offset: .seconds(1)))
  }

  // On one serial executor, so that the timer is asleep again whenever `run` looks (see
  // TestClockTests).
  @Test func testRunWithTimeout() async throws {
    let clock = TestClock()
    let executor = SerialTaskExecutor()
    let isRunning = LockIsolated(true)
    let timer = Task(executorPreference: executor) {
      while isRunning.withValue({ $0 }) { try await clock.sleep(for: .seconds(1)) }
    }
    await clock.waitForSleepers(1)

    let line = #line + 2
    let issues = await withTaskExecutorPreference(executor) {
      await recordIssues { await clock.run(timeout: .milliseconds(50)) }
    }
    #expect(
      issues == [
        RecordedIssue(
          message: "Expected all sleeps to finish, but some are still suspending after 0.05 seconds. "
            + "A task keeps sleeping on the clock: advance it by a bounded amount, or increase the "
            + "timeout of 'run'.",
          line: line)
      ])

    isRunning.withValue { $0 = false }
    await clock.run(timeout: .seconds(30))
    try await timer.value
    #expect(clock.sleeperCount == 0)
  }
}
