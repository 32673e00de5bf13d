import StoreTesting
import Testing
import ValueStore

extension Result: CasePathable {}

/// A feature whose whole state is a `Result` (TCA's `testResultStore`-like shape): a test store
/// of it is made, and its reducer runs.
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

  @Test func aTestStoreOfAResultState() async {
    let store = TestStore(initialState: Result<Int, Failure>.success(0)) {
      Reduce<Result<Int, Failure>, Action> { state, action in
        switch action {
        case let .succeed(value): state = .success(value)
        case .fail: state = .failure(Failure())
        }
        return .none
      }
    }
    await store.send(.succeed(2)) { $0 = .success(2) }
    await store.send(.fail) { $0 = .failure(Failure()) }
  }
}
