import ValueStore

/// Counters the user adds and removes, each with an id that is never reused.
struct CounterListState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var counters: IdentifiedArrayOf<Counter> = []
    var nextID = 1
  }
  var _$fields = Observed(Fields())

  /// The sum of all counts; tracked through the list's structure and every count.
  var total: Int {
    // `elements` is a tracked read of the list's structure (ids, order, count), so an observer of
    // the total also hears about added and removed counters, even while the list is empty.
    self.counters.elements.reduce(0) { $0 + $1.count }
  }
}

/// Adds and removes counters, and runs ``CounterFeature`` on the counter an action names.
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
        state.counters.remove(id: id)
      case .counters:
        break  // handled by `forEach`
      }
      return .none
    }
    .forEach(\.counters, action: Action.counters) { CounterFeature() }
  }
}
