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

/// A case's effects end when the state leaves the case (TCA's `ifCaseLet`): a logged-in screen's
/// timer stops at logout.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct IfCaseLetEffectsTests {
  enum AppState: Equatable, Sendable, CasePathable {
    case login(Tally)
    case main(Tally)
  }

  struct Main: Reducer {
    enum Action: Equatable, Sendable { case startTimer, tick }
    let clock: TestClock
    func reduce(into state: inout Tally, action: Action) -> Effect<Action> {
      switch action {
      case .startTimer:
        return .run { [clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .tick:
        state.count += 1
        return .none
      }
    }
  }

  struct App: Reducer {
    enum Action: Equatable, Sendable { case main(Main.Action), logout }
    let clock: TestClock
    var body: some Reducer<AppState, Action> {
      Reduce<AppState, Action> { state, action in
        if case .logout = action { state = .login(Tally()) }
        return .none
      }
      .ifCaseLet(AppState.main, action: Action.main) { Main(clock: clock) }
    }
  }

  @Test func leavingTheCaseCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: AppState.main(Tally())) { App(clock: clock) }
    await store.send(.main(.startTimer))
    await clock.advance(by: .seconds(1))
    await store.receive(.main(.tick)) { $0.modify(AppState.main) { $0.count = 1 } }
    await store.send(.logout) { $0 = .login(Tally()) }
    await clock.advance(by: .seconds(3))
    await store.finish()  // the timer was cancelled: no tick, nothing running
  }
}
