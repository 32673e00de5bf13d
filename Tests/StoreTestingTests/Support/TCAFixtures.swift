import StoreTesting
import ValueStore

/// A state holding one number: the `Int` state of TCA's test-store tests (a store's state must be
/// observable here).
struct Number: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable { var value = 0 }
  var _$fields: Observed<Fields>

  init(_ value: Int = 0) { _$fields = Observed(Fields(value: value)) }
}

/// TCA's `NonExhaustiveReceive`: `onAppear` resets the state and sends back two responses, each
/// counting itself.
struct NonExhaustiveReceive: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var count = 0
      var int = 0
      var string = ""
    }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable {
    case onAppear
    case response1(Int)
    case response2(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      state = State()
      return .merge(.send(.response1(42)), .send(.response2("Hello")))
    case let .response1(int):
      state.count += 1
      state.int = int
      return .none
    case let .response2(string):
      state.count += 1
      state.string = string
      return .none
    }
  }
}
