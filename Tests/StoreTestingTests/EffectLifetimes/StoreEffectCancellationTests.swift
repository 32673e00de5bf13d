import StoreTesting
import Testing
import ValueStore

/// Cancellation reaches exactly the effects it names (TCA's `StoreTests`).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct StoreEffectCancellationTests {
  enum Chain: Equatable, Sendable { case task, response, response1, response2 }

  /// Cancelling the task `send` returns cancels the effects of the actions its effects sent, and of
  /// the actions those sent.
  @Test func testCascadingTaskCancellation() async {
    let store = TestStore(initialState: Tally()) {
      Reduce<Tally, Chain> { (_: inout Tally, action: Chain) -> Effect<Chain> in
        switch action {
        case .task:
          return .run { send in await send(.response) }
        case .response:
          return .merge(.run { _ in try await Task.never() }, .run { send in await send(.response1) })
        case .response1:
          return .merge(.run { _ in try await Task.never() }, .run { send in await send(.response2) })
        case .response2:
          return .run { _ in try await Task.never() }
        }
      }
    }
    let task = await store.send(.task)
    await store.receive(.response)
    await store.receive(.response1)
    await store.receive(.response2)
    await task.cancel()
    await store.finish()
  }

  enum Isolation: Equatable, Sendable { case tap, cancel }
  enum CancelID { case effect }

  /// Two root stores of one feature: a cancellation in one never reaches the other's effects.
  @Test func testRootStoreCancellationIsolation() async {
    func feature() -> some Reducer<Tally, Isolation> {
      Reduce<Tally, Isolation> { (_: inout Tally, action: Isolation) -> Effect<Isolation> in
        switch action {
        case .tap: return .run { _ in try await Task.never() }.cancellable(id: CancelID.effect)
        case .cancel: return .cancel(id: CancelID.effect)
        }
      }
    }
    let first = Store(initialState: Tally()) { feature() }
    let second = Store(initialState: Tally()) { feature() }
    let firstTask = first.send(.tap)
    let secondTask = second.send(.tap)
    second.send(.cancel)
    #expect(await eventually { !secondTask.isInFlight })
    #expect(firstTask.isInFlight)
    await firstTask.cancel()
    #expect(await eventually { !firstTask.isInFlight })
  }

  enum Steps: Equatable, Sendable { case start, stop, next, last }
  enum StepID { case wait }

  /// A `.cancellable` step of a concatenation: cancelling its id ends that step, and the steps
  /// after it run; an uncancelled one blocks them; cancelling in flight replaces the step.
  @Test func cancellableStepOfAConcatenation() async {
    let store = TestStore(initialState: Tally()) {
      Reduce<Tally, Steps> { (_: inout Tally, action: Steps) -> Effect<Steps> in
        switch action {
        case .start:
          return .concatenate(
            .send(.next),
            .run { _ in try await Task.never() }.cancellable(id: StepID.wait, cancelInFlight: true),
            .send(.last)
          )
        case .stop: return .cancel(id: StepID.wait)
        case .next, .last: return .none
        }
      }
    }
    await store.send(.start)
    await store.receive(.next)
    await store.send(.start)  // cancels the first concatenation's waiting step: it goes on
    await store.receive(.next)
    await store.receive(.last)
    await store.send(.stop)
    await store.receive(.last)
    await store.finish()
  }
}

/// Whether `condition` holds within a bounded number of main-actor turns: a wait that cannot hang.
@MainActor
func eventually(turns: Int = 100_000, _ condition: () -> Bool) async -> Bool {
  for _ in 0..<turns {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}
