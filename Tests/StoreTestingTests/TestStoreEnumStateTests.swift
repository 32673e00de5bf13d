import StoreTesting
import Testing
import ValueStore

/// A test store of an enum state, declared as TCA users declare one: cases carrying features'
/// states, `CasePathable`, nothing hand-written.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreEnumStateTests {
  enum AppState: Equatable, Sendable, CasePathable {
    case login(Tally)
    case main(Tally)
  }

  struct AppFeature: Reducer {
    enum Action: Equatable, Sendable { case login(TallyFeature.Action), loggedIn }
    var body: some Reducer<AppState, Action> {
      Reduce<AppState, Action> { state, action in
        if case .loggedIn = action, let login = state[case: AppState.login] {
          state = .main(Tally(.init(count: login.count)))
        }
        return .none
      }
      .ifCaseLet(AppState.login, action: Action.login) { TallyFeature() }
    }
  }

  @Test func sendingChecksTheStateByCase() async {
    let store = TestStore(initialState: AppState.login(Tally())) { AppFeature() }
    await store.send(.login(.increment)) { $0.modify(AppState.login) { $0.count = 1 } }
    await store.send(.loggedIn) { $0 = .main(Tally(.init(count: 1))) }
    await store.finish()
  }

  @Test func aWrongExpectationIsReported() async {
    let store = TestStore(initialState: AppState.login(Tally())) { AppFeature() }
    await withKnownIssue {
      await store.send(.loggedIn) { $0 = .main(Tally(.init(count: 5))) }
    }
  }
}
