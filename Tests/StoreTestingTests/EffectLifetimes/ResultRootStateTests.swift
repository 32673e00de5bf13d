import StoreTesting
import Testing
import ValueStore

extension Result: CasePathable {}

/// A feature whose whole state is a `Result`: a store of it is made, and its reducer runs. (A
/// `TestStore` of one still crashes at creation: issue 29, item 5.)
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ResultRootStateTests {
  struct Failure: Error, Equatable {}
  enum Action: Equatable, Sendable { case succeed(Int), fail }

  @Test func aStoreOfAResultState() async {
    let store = Store(initialState: Result<Int, Failure>.success(0)) {
      Reduce<Result<Int, Failure>, Action> { state, action in
        if case let .succeed(value) = action { state = .success(value) }
        return .none
      }
    }
    store.send(.succeed(2))
    #expect(store.withState { $0 } == .success(2))
  }
}
