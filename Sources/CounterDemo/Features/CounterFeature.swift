import ValueStore

/// A counter. The same state serves the standalone counter (id 0) and each counter of the list,
/// which is why it is `Identifiable`.
struct Counter: ObservableState, Identifiable, Equatable, Sendable {
  struct Fields: Identifiable, Equatable, Sendable {
    let id: Int
    var count = 0
  }
  var _$fields: Observed<Fields>  // no default: a counter is made with its id, `Counter(.init(id: 1))`
}

/// Increments, decrements and resets a ``Counter``. No effects.
struct CounterFeature: Reducer {
  enum Action: Equatable, Sendable {
    case increment
    case decrement
    case reset
  }

  func reduce(into state: inout Counter, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    case .reset: state.count = 0
    }
    return .none
  }
}
