import StoreTesting
import Testing
import ValueStore

/// A plain `ifLet` (not a presentation): the child's effects live as long as the child, and are its
/// own (TCA's `IfLetReducerTests`).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct IfLetEffectLifetimeTests {
  @Test func testEffectCancellation() async {
    let clock = TestClock()
    let store = TestStore(initialState: TickerHost.State()) { TickerHost(clock: clock) }
    await store.send(.show(1)) { $0.ticker = Ticker.State(id: 1) }
    await store.send(.ticker(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.ticker(.tick)) { $0.ticker?.ticks = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(.ticker(.tick)) { $0.ticker?.ticks = 2 }
    await store.send(.hide) { $0.ticker = nil }
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  @Test func testGrandchildEffectCancellation() async {
    let clock = TestClock()
    let store = TestStore(initialState: Outer.State()) { Outer(clock: clock) }
    await store.send(.start) { $0.host = TickerHost.State(); $0.host?.ticker = Ticker.State(id: 1) }
    await store.send(.host(.ticker(.start)))
    await clock.advance(by: .seconds(1))
    await store.receive(.host(.ticker(.tick))) { $0.host?.ticker?.ticks = 1 }
    await store.send(.exit) { $0.host = nil }
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  /// A child replaced by one with another id is another child: the first one's effects end.
  @Test func testIdentifiableChild() async {
    let clock = TestClock()
    let store = TestStore(initialState: TickerHost.State()) { TickerHost(clock: clock) }
    await store.send(.show(1)) { $0.ticker = Ticker.State(id: 1) }
    await store.send(.ticker(.start))
    await store.send(.show(2)) { $0.ticker = Ticker.State(id: 2) }
    await clock.advance(by: .seconds(3))
    await store.send(.hide) { $0.ticker = nil }
    await store.finish()
  }

  /// The parent's `.cancel(id:)` with the child's id reaches the child's effect.
  @Test func testNavigation_cancelID_parentCancellation() async {
    let clock = TestClock()
    let store = TestStore(initialState: Outer.State()) { Outer(clock: clock) }
    await store.send(.start) { $0.host = TickerHost.State(); $0.host?.ticker = Ticker.State(id: 1) }
    await store.send(.host(.ticker(.start)))
    await store.send(.stopAll)
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  /// The child's `.cancel(id:)` does not reach the parent's effect with the same id.
  @Test func testNavigation_cancelID_childCannotCancelParent() async {
    let clock = TestClock()
    let store = TestStore(initialState: Outer.State()) { Outer(clock: clock) }
    await store.send(.start) { $0.host = TickerHost.State(); $0.host?.ticker = Ticker.State(id: 1) }
    await store.send(.startOwnTimer)
    await store.send(.host(.ticker(.stop)))
    await clock.advance(by: .seconds(1))
    await store.receive(.ownTick)
    await store.send(.stopAll)
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  /// Two nested levels: a host inside a screen.
  struct Outer: Reducer {
    struct State: ObservableState, Equatable, Sendable {
      struct Fields: Equatable, Sendable { var host: TickerHost.State? }
      var _$fields = Observed(Fields())
    }
    enum Action: Equatable, Sendable { case host(TickerHost.Action), start, exit, stopAll, startOwnTimer, ownTick }
    let clock: TestClock

    var body: some Reducer<State, Action> {
      Reduce<State, Action> { state, action in
        switch action {
        case .start:
          state.host = TickerHost.State()
          state.host?.ticker = Ticker.State(id: 1)
        case .exit: state.host = nil
        case .stopAll: return .cancel(id: Ticker.CancelID.timer)
        case .startOwnTimer:
          return .run { [clock] send in
            while true {
              try await clock.sleep(for: .seconds(1))
              await send(.ownTick)
            }
          }
          .cancellable(id: Ticker.CancelID.timer)
        case .host, .ownTick: break
        }
        return .none
      }
      .ifLet(\.host, action: Action.host) { TickerHost(clock: clock) }
    }
  }
}
