import ValueStore

/// The whole demo: a counter, a timer, number facts and a list of counters.
struct AppState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var counter = Counter(.init(id: 0))
    var timer = TimerState()
    var fact = FactState()
    var list = CounterListState()
  }
  var _$fields = Observed(Fields())
}

/// Composes the features. Its only dependency is the clock the timer and the fact run on.
struct AppFeature: Reducer {
  enum Action: Equatable, Sendable {
    case counter(CounterFeature.Action)
    case timer(TimerFeature.Action)
    case fact(FactFeature.Action)
    case list(CounterListFeature.Action)
    /// Asks for a fact about the standalone counter's current count.
    case factAboutCounter
  }

  let clock: any Clock<Duration>

  var body: some Reducer<AppState, Action> {
    Scope(state: \.counter, action: Action.counter) { CounterFeature() }
    Scope(state: \.timer, action: Action.timer) { TimerFeature(clock: clock) }
    Scope(state: \.fact, action: Action.fact) { FactFeature(clock: clock) }
    Scope(state: \.list, action: Action.list) { CounterListFeature() }
    Reduce { state, action in
      guard case .factAboutCounter = action else { return .none }
      return .send(.fact(.request(state.counter.count)))
    }
  }
}
