import Testing
import ValueStore
@testable import CounterDemo

/// Scripted sessions depend on virtual time being exact: these run the real features on it.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct VirtualTimelineTests {
  let timeline = VirtualTimeline()
  let store: Store<AppState, AppFeature.Action>

  init() {
    store = Store(initialState: AppState(), reducer: AppFeature(clock: timeline.clock))
  }

  private func send(_ action: AppFeature.Action) {
    timeline.track(store.send(action))
  }

  @Test(arguments: 1...50) func waitingDeliversExactlyTheTicksDue(run: Int) async {
    send(.timer(.start))
    await timeline.wait(.seconds(3))
    #expect(store.timer.seconds == 3)
    await timeline.wait(.milliseconds(999))
    #expect(store.timer.seconds == 3)
    await timeline.wait(.milliseconds(1))
    #expect(store.timer.seconds == 4)
    send(.timer(.stop))
    await timeline.wait(.seconds(5))
    #expect(store.timer.seconds == 4)
  }

  @Test func aNewerFactReplacesThePendingOne() async {
    send(.fact(.request(1)))
    send(.fact(.request(12)))
    await timeline.wait(.seconds(1))
    #expect(store.fact.pending == nil)
    #expect(store.fact.fact == "12 is even; 12 = 2² × 3.")
  }

  @Test func timeStandsStillBetweenWaits() async {
    send(.factAboutCounter)
    await timeline.wait(.milliseconds(499))
    #expect(store.fact.pending == 0)
    await timeline.wait(.milliseconds(1))
    #expect(store.fact.fact == "0 is even and neither prime nor composite.")
  }

  @Test func drainingRunsPendingEffectsToTheirEnd() async {
    send(.timer(.start))
    send(.fact(.request(7)))
    send(.timer(.stop))
    await timeline.drain()
    #expect(store.fact.fact == "7 is odd and prime.")
    #expect(store.timer.seconds == 0)
  }

  @Test func aCancelledSleeperThrowsAndNoLongerCounts() async {
    let clock = VirtualClock()
    let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1))) }
    clock.effectStarted()
    await clock.idle()  // the sleeper is asleep
    #expect(clock.nextDeadline != nil)
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.nextDeadline == nil)
  }
}
