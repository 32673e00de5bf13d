import StoreTesting
import Testing
import ValueStore

/// A feature whose whole state is a `Result` (`Result` is case-pathable, as in TCA): a store and a
/// test store of it are made, its reducer runs, and the test store checks its changes
/// (issue 29, item 5: the test store crashed at creation).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ResultRootStateTests {
  struct Failure: Error, Equatable {}
  enum Action: Equatable, Sendable { case succeed(Int), fail, bump }

  static func feature() -> Reduce<Result<Int, Failure>, Action> {
    Reduce { state, action in
      switch action {
      case let .succeed(value): state = .success(value)
      case .fail: state = .failure(Failure())
      case .bump: state.modify(Result.success) { $0 += 1 }
      }
      return .none
    }
  }

  @Test func aStoreOfAResultState() async {
    let store = Store(initialState: Result<Int, Failure>.success(0)) { Self.feature() }
    store.send(.succeed(2))
    #expect(store.withState { $0 } == .success(2))
  }

  @Test func aTestStoreOfAResultState() async {
    let store = TestStore(initialState: Result<Int, Failure>.success(0)) { Self.feature() }
    await store.send(.succeed(2)) { $0 = .success(2) }
    await store.send(.bump) { $0.modify(Result.success) { $0 = 3 } }
    await store.send(.fail) { $0 = .failure(Failure()) }
    #expect(store.state.is(Result.failure))
    await store.send(.bump)
  }

  @Test func aWrongExpectationOfAResultStateFails() async {
    let store = TestStore(initialState: Result<Int, Failure>.success(0)) { Self.feature() }
    await withKnownIssue {
      await store.send(.succeed(2)) { $0 = .success(3) }
    }
  }
}
