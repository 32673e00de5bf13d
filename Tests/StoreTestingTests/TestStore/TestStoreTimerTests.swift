import StoreTesting
import Testing
import ValueStore

/// The timer of `TestStore`'s documentation, on a `TestClock`: time moves only when the test moves
/// it.
struct TimerState: ObservableState, Equatable {
  struct Fields: Equatable { var count = 0; var isRunning = false }
  var _$fields = Observed(Fields())
}

struct TimerFeature: Reducer {
  enum Action: Equatable, Sendable { case toggleTimer, tick }
  enum CancelID { case timer }
  let clock: any Clock<Duration>

  func reduce(into state: inout TimerState, action: Action) -> Effect<Action> {
    switch action {
    case .toggleTimer:
      state.isRunning.toggle()
      guard state.isRunning else { return .cancel(id: CancelID.timer) }
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .tick:
      state.count += 1
      return .none
    }
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreTimerTests {
  @Test func ticksEverySecondUntilStopped() async {
    let clock = TestClock()
    let store = TestStore(initialState: TimerState()) { TimerFeature(clock: clock) }

    await store.send(.toggleTimer) { $0.isRunning = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.count = 2 }
    await store.send(.toggleTimer) { $0.isRunning = false }  // cancels the timer
  }

  // Waiting for the timer to be asleep before each advance makes the test independent of
  // scheduling: the timer goes back to sleep on another thread after sending a tick, and an
  // advance made before that would move time past a deadline the timer has not set yet.
  @Test func aTimerCancelledThroughItsTaskEnds() async {
    let clock = TestClock()
    let store = TestStore(initialState: TimerState()) { TimerFeature(clock: clock) }

    let timer = await store.send(.toggleTimer) { $0.isRunning = true }
    for count in 1...3 {
      await clock.waitForSleepers(1)
      await clock.advance(by: .seconds(1))
      await store.receive(.tick) { $0.count = count }
    }
    await timer.cancel()
    #expect(!timer.isInFlight)
    #expect(clock.sleeperCount == 0)
  }
}
