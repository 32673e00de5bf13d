import Dispatch
import StoreTesting
import Testing

// Tests whose outcome depends on woken tasks running to their next suspension before the clock
// moves on run all their tasks on one `SerialTaskExecutor`. On the parallel global executor that
// is only likely, not certain (see `TestClock`), and asserting on it would make the tests flaky.
@Suite struct TestClockTests {
  typealias Instant = TestClock.Instant

  @Test func nowMovesOnlyWhenAdvancedAndByExactlyTheAmount() async {
    let clock = TestClock()
    #expect(clock.now == Instant(offset: .zero))

    await clock.advance(by: .milliseconds(1500))
    #expect(clock.now == Instant(offset: .milliseconds(1500)))
    await clock.advance(to: Instant(offset: .seconds(4)))
    #expect(clock.now == Instant(offset: .seconds(4)))
    await clock.advance(by: .zero)
    #expect(clock.now == Instant(offset: .seconds(4)))
    #expect(TestClock(now: Instant(offset: .seconds(-3))).now.offset == .seconds(-3))
  }

  @Test func advancingBackwardsReportsAnIssueAndLeavesTheClockAlone() async {
    let clock = TestClock(now: Instant(offset: .seconds(2)))

    let expectedLine = #line + 2
    await withKnownIssue {
      await clock.advance(by: .seconds(-1))
    } matching: { issue in
      issue.comments == [
        "TestClock can't move backwards: asked to advance to 1.0 seconds, but now is 2.0 seconds"
      ] && issue.sourceLocation?.line == expectedLine
    }
    #expect(clock.now == Instant(offset: .seconds(2)))
  }

  @Test func aSleeperWakesOnlyOnceTheClockReachesItsDeadline() async throws {
    let clock = TestClock()
    let sleeper = Task {
      try await clock.sleep(for: .seconds(1))
      return clock.now
    }
    await clock.waitForSleepers(1)

    await clock.advance(by: .milliseconds(999))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .milliseconds(1))
    #expect(clock.sleeperCount == 0)
    #expect(try await sleeper.value == Instant(offset: .seconds(1)))
  }

  @Test func sleepingUntilAnInstantBeforeNowReturnsAtOnce() async throws {
    let clock = TestClock(now: Instant(offset: .seconds(5)))

    try await clock.sleep(until: Instant(offset: .seconds(1)))
    #expect(clock.sleeperCount == 0)
  }

  @Test func oneAdvanceWakesSleepersInDeadlineOrderEachAtItsDeadline() async throws {
    let clock = TestClock()
    let executor = SerialTaskExecutor()
    let wakes = Log<(String, Instant)>()
    // Started latest-deadline-first, so wake order can't be mistaken for start order.
    let sleepers = [("c", 3), ("a", 1), ("b", 2)].map { name, seconds in
      Task(executorPreference: executor) {
        try await clock.sleep(until: Instant(offset: .seconds(seconds)))
        wakes.append((name, clock.now))
      }
    }

    try await withTaskExecutorPreference(executor) {
      await clock.waitForSleepers(3)
      await clock.advance(by: .seconds(5))
      for sleeper in sleepers { try await sleeper.value }
    }

    #expect(wakes.values.map(\.0) == ["a", "b", "c"])
    #expect(wakes.values.map(\.1.offset) == [.seconds(1), .seconds(2), .seconds(3)])
    #expect(clock.now == Instant(offset: .seconds(5)))
  }

  @Test func sleepersWithTheSameDeadlineWakeInTheOrderTheyWentToSleep() async throws {
    let clock = TestClock()
    let executor = SerialTaskExecutor()
    let wakes = Log<Int>()

    try await withTaskExecutorPreference(executor) {
      var sleepers: [Task<Void, any Error>] = []
      for index in 0..<3 {
        sleepers.append(
          Task(executorPreference: executor) {
            try await clock.sleep(for: .seconds(1))
            wakes.append(index)
          })
        await clock.waitForSleepers(index + 1)
      }
      await clock.advance(by: .seconds(1))
      for sleeper in sleepers { try await sleeper.value }
    }

    #expect(wakes.values == [0, 1, 2])
  }

  // With no yields at all, it is waiting for each woken task to resume that lets it sleep again
  // before the advance looks for the next sleeper.
  @Test(arguments: [0, 20])
  func aTaskThatSleepsAgainWithinTheAdvanceIsWokenByTheSameAdvance(yieldsPerStep: Int) async {
    let clock = TestClock(yieldsPerStep: yieldsPerStep)
    let executor = SerialTaskExecutor()
    let ticks = Log<Instant>()
    let timer = Task(executorPreference: executor) {
      for _ in 0..<3 {
        try await clock.sleep(for: .seconds(1))
        ticks.append(clock.now)
      }
    }

    await withTaskExecutorPreference(executor) {
      await clock.waitForSleepers(1)
      await clock.advance(by: .milliseconds(3500))
    }
    // Had the timer missed a wake, it would sleep forever: fail instead of hanging.
    timer.cancel()
    _ = await timer.result

    #expect(ticks.values.map(\.offset) == [.seconds(1), .seconds(2), .seconds(3)])
    #expect(clock.now == Instant(offset: .milliseconds(3500)))
  }

  @Test func manyConcurrentSleepersEachWakeWhenTheirDeadlineIsReached() async throws {
    let clock = TestClock()
    let count = 50
    try await withThrowingTaskGroup(of: Void.self) { group in
      // Interleaved deadlines, so registration order differs from deadline order.
      for index in 0..<count {
        let tenths = (index * 7) % count + 1
        group.addTask { try await clock.sleep(for: .milliseconds(100 * tenths)) }
      }
      await clock.waitForSleepers(count)

      for step in 1...count {
        await clock.advance(by: .milliseconds(100))
        #expect(clock.sleeperCount == count - step)
      }
      try await group.waitForAll()
    }
  }

  @Test func runWakesEverySleeperIncludingOnesThatSleepAgain() async {
    let clock = TestClock()
    let executor = SerialTaskExecutor()
    let wakes = Log<Instant>()
    let once = Task(executorPreference: executor) {
      try await clock.sleep(for: .seconds(5))
      wakes.append(clock.now)
    }
    let twice = Task(executorPreference: executor) {
      try await clock.sleep(for: .seconds(2))
      wakes.append(clock.now)
      try await clock.sleep(for: .seconds(2))
      wakes.append(clock.now)
    }

    await withTaskExecutorPreference(executor) {
      await clock.waitForSleepers(2)
      await clock.run()
    }
    // Had a sleeper missed a wake, it would sleep forever: fail instead of hanging.
    once.cancel()
    twice.cancel()
    _ = (await once.result, await twice.result)

    #expect(clock.sleeperCount == 0)
    #expect(wakes.values.map(\.offset) == [.seconds(2), .seconds(4), .seconds(5)])
    #expect(clock.now == Instant(offset: .seconds(5)))
  }

  @Test func runWithoutSleepersLeavesTheClockAlone() async {
    let clock = TestClock()
    await clock.run()
    #expect(clock.now == Instant(offset: .zero))
  }

  @Test func cancellingASleeperThrowsAndRemovesIt() async {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.waitForSleepers(1)

    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
    #expect(clock.now == Instant(offset: .zero))
  }

  @Test func sleepingInACancelledTaskThrowsWithoutRegisteringASleeper() async {
    let clock = TestClock()
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }

    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }
}

/// Runs jobs one at a time in the order they were enqueued, so that `Task.yield()` lets every
/// other ready task run to its next suspension first.
final class SerialTaskExecutor: TaskExecutor {
  private let queue = DispatchQueue(label: "TestClockTests.SerialTaskExecutor")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
