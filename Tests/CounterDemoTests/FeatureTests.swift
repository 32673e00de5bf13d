import StoreTesting
import Testing
import ValueStore
@testable import CounterDemo

/// The demo's reducers, tested exhaustively: every state change and every received action is
/// asserted, and each test ends with no effect left running. Time is a `TestClock`.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct FeatureTests {
  @Test func counterIncrementsDecrementsAndResets() async {
    let store = TestStore(initialState: Counter(.init(id: 0)), reducer: CounterFeature())
    await store.send(.increment) { $0.count = 1 }
    await store.send(.increment) { $0.count = 2 }
    await store.send(.decrement) { $0.count = 1 }
    await store.send(.reset) { $0.count = 0 }
    await store.send(.decrement) { $0.count = -1 }
  }

  @Test func timerTicksEverySecondWhileOn() async {
    let clock = TestClock()
    let store = TestStore(initialState: TimerState(), reducer: TimerFeature(clock: clock))
    await store.send(.start) { $0.isOn = true }
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.seconds = 1 }
    await store.receive(.tick) { $0.seconds = 2 }
    await store.receive(.tick) { $0.seconds = 3 }
    await store.send(.start)  // already on: the rhythm stays
    await clock.advance(by: .milliseconds(999))
    await store.send(.stop) { $0.isOn = false }
    await clock.advance(by: .seconds(10))
    await store.finish()
  }

  @Test func timerRestartsWhereItStopped() async {
    let clock = TestClock()
    let store = TestStore(initialState: TimerState(), reducer: TimerFeature(clock: clock))
    await store.send(.start) { $0.isOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.seconds = 1 }
    await store.send(.stop) { $0.isOn = false }
    await store.send(.start) { $0.isOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.seconds = 2 }
    await store.send(.stop) { $0.isOn = false }
    await store.finish()
  }

  @Test func factArrivesAfterTheDelay() async {
    let clock = TestClock()
    let store = TestStore(initialState: FactState(), reducer: FactFeature(clock: clock))
    await store.send(.request(12)) { $0.pending = 12 }
    await clock.advance(by: FactFeature.delay)
    await store.receive(.response("12 is even; 12 = 2² × 3.")) {
      $0.pending = nil
      $0.fact = "12 is even; 12 = 2² × 3."
    }
    await store.finish()
  }

  @Test func aNewerFactRequestCancelsThePendingOne() async {
    let clock = TestClock()
    let store = TestStore(initialState: FactState(), reducer: FactFeature(clock: clock))
    await store.send(.request(6)) { $0.pending = 6 }
    await clock.advance(by: .milliseconds(400))
    await store.send(.request(7)) { $0.pending = 7 }
    await clock.advance(by: .milliseconds(100))  // the first request's deadline: it was cancelled
    await clock.advance(by: .milliseconds(400))  // the second's
    await store.receive(.response("7 is odd and prime.")) {
      $0.pending = nil
      $0.fact = "7 is odd and prime."
    }
    await store.finish()
  }

  @Test func factsAreComputedOffline() {
    #expect(FactFeature.fact(about: 0) == "0 is even and neither prime nor composite.")
    #expect(FactFeature.fact(about: -1) == "-1 is odd and neither prime nor composite.")
    #expect(FactFeature.fact(about: 97) == "97 is odd and prime.")
    #expect(FactFeature.fact(about: -7) == "-7 is odd; 7 is prime.")
    #expect(FactFeature.fact(about: 360) == "360 is even; 360 = 2³ × 3² × 5.")
    #expect(FactFeature.fact(about: -12) == "-12 is even; -12 = -2² × 3.")
    #expect(FactFeature.fact(about: 1 << 40) == "1099511627776 is even; 1099511627776 = 2⁴⁰.")
  }

  @Test func listAddsRemovesAndCountsByID() async {
    let store = TestStore(initialState: CounterListState(), reducer: CounterListFeature())
    await store.send(.add) {
      $0.counters = [Counter(.init(id: 1))]
      $0.nextID = 2
    }
    await store.send(.add) {
      $0.counters.append(Counter(.init(id: 2)))
      $0.nextID = 3
    }
    await store.send(.counters(.element(id: 2, action: .increment))) {
      $0.counters[id: 2]?.count = 1
      $0.total = 1
    }
    await store.send(.counters(.element(id: 2, action: .increment))) {
      $0.counters[id: 2]?.count = 2
      $0.total = 2
    }
    await store.send(.counters(.element(id: 1, action: .decrement))) {
      $0.counters[id: 1]?.count = -1
      $0.total = 1
    }
    await store.send(.remove(id: 1)) {  // the total loses the removed counter's count
      $0.counters.remove(id: 1)
      $0.total = 2
    }
    await store.send(.counters(.element(id: 2, action: .reset))) {
      $0.counters[id: 2]?.count = 0
      $0.total = 0
    }
    await store.send(.add) {  // ids are never reused
      $0.counters.append(Counter(.init(id: 3)))
      $0.nextID = 4
    }
    await store.send(.remove(id: 9))  // no such counter: nothing changes
  }

  @Test func appAsksForAFactAboutTheCounter() async {
    let clock = TestClock()
    let store = TestStore(initialState: AppState(), reducer: AppFeature(clock: clock))
    await store.send(.counter(.increment)) { $0.counter.count = 1 }
    await store.send(.factAboutCounter)
    await store.receive(.fact(.request(1))) { $0.fact.pending = 1 }
    await clock.advance(by: FactFeature.delay)
    await store.receive(.fact(.response("1 is odd and neither prime nor composite."))) {
      $0.fact.pending = nil
      $0.fact.fact = "1 is odd and neither prime nor composite."
    }
    await store.finish()
  }

  @Test func appRoutesEachFeaturesActions() async {
    let clock = TestClock()
    let store = TestStore(initialState: AppState(), reducer: AppFeature(clock: clock))
    await store.send(.list(.add)) {
      $0.list.counters = [Counter(.init(id: 1))]
      $0.list.nextID = 2
    }
    await store.send(.list(.counters(.element(id: 1, action: .increment)))) {
      $0.list.counters[id: 1]?.count = 1
      $0.list.total = 1
    }
    await store.send(.timer(.start)) { $0.timer.isOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.timer(.tick)) { $0.timer.seconds = 1 }
    await store.send(.timer(.stop)) { $0.timer.isOn = false }
    await store.finish()
  }
}
