import ValueStore

/// Counters the user adds and removes, each with an id that is never reused.
struct CounterListState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var counters: IdentifiedArrayOf<Counter> = []
    var nextID = 1
    /// The sum of all counts, kept up to date by the reducer: drawing it reads one field, not
    /// every counter (which made each add cost O(n) — and n adds O(n²)).
    var total = 0
  }
  var _$fields = Observed(Fields())
}

/// Adds and removes counters, runs ``CounterFeature`` on the counter an action names, and keeps
/// the total.
struct CounterListFeature: Reducer {
  enum Action: Equatable, Sendable {
    case add
    case remove(id: Int)
    case counters(IdentifiedAction<Int, CounterFeature.Action>)
  }

  var body: some Reducer<CounterListState, Action> {
    Reduce { state, action in
      switch action {
      case .add:
        state.counters.append(Counter(.init(id: state.nextID)))
        state.nextID += 1
      case let .remove(id):
        state.total -= state.counters.remove(id: id)?.count ?? 0
      case .counters:
        break  // handled by `forEach`
      }
      return .none
    }
    .forEach(\.counters, action: Action.counters) { CounterFeature() }
  }

  /// Runs `body`, adding what a counter's action changed its count by to the total.
  func reduce(into state: inout CounterListState, action: Action) -> Effect<Action> {
    guard case let .counters(.element(id, _)) = action else { return body.reduce(into: &state, action: action) }
    let before = state.counters[id: id]?.count ?? 0
    let effect = body.reduce(into: &state, action: action)
    state.total += (state.counters[id: id]?.count ?? 0) - before
    return effect
  }
}
