import StoreTesting
import ValueStore

/// A row with a timer: what a list of timers, downloads or players is made of.
struct Ticker: Reducer {
  struct State: ObservableState, Equatable, Sendable, Identifiable {
    struct Fields: Identifiable, Equatable, Sendable {
      var id: Int
      var ticks = 0
    }
    var _$fields: Observed<Fields>
  }
  enum Action: Equatable, Sendable { case start, stop, tick, removeMe }
  enum CancelID { case timer }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .stop:
      return .cancel(id: CancelID.timer)
    case .tick:
      state.ticks += 1
      return .none
    case .removeMe:
      return .none
    }
  }
}

/// A list of tickers; a row removes itself by sending `.removeMe`, which the list handles.
struct TickerList: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var rows: IdentifiedArrayOf<Ticker.State> = []
    }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable {
    case rows(IdentifiedAction<Int, Ticker.Action>)
    case add(Int), remove(Int), removeAll, replace([Int]), stopAll
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case let .add(id): state.rows.append(Ticker.State(id: id))
      case let .remove(id): state.rows.remove(id: id)
      case let .rows(.element(id, .removeMe)): state.rows.remove(id: id)
      case .removeAll: state.rows.removeAll()
      case let .replace(ids): state.rows = IdentifiedArray(uniqueElements: ids.map { Ticker.State(id: $0) })
      case .stopAll: return .cancel(id: Ticker.CancelID.timer)
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rows) { Ticker(clock: clock) }
  }
}

/// A screen with an optional ticker (not a presentation: a plain `ifLet`).
struct TickerHost: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var ticker: Ticker.State?
    }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable {
    case ticker(Ticker.Action)
    case show(Int), hide, stopAll
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case let .show(id): state.ticker = Ticker.State(id: id)
      case .hide: state.ticker = nil
      case .stopAll: return .cancel(id: Ticker.CancelID.timer)
      case .ticker: break
      }
      return .none
    }
    .ifLet(\.ticker, action: Action.ticker) { Ticker(clock: clock) }
  }
}

extension Ticker.State {
  init(id: Int, ticks: Int = 0) { _$fields = Observed(Fields(id: id, ticks: ticks)) }
}

extension TickerList.State {
  init(rows: [Int]) { _$fields = Observed(Fields(rows: IdentifiedArray(uniqueElements: rows.map { Ticker.State(id: $0) }))) }
}
