import Observation
import Testing
@testable import ValueStore

/// An enum as the whole state of a store or a root, declared as TCA users declare one — cases
/// carrying features' states, `CasePathable`, nothing hand-written: switching cases notifies the
/// readers of the case, a change inside a case's state only the readers of what changed, through
/// our tracking and Apple's Observation alike.
@MainActor @Suite(.timeLimit(.minutes(1))) struct EnumRootTests {
  enum AppState: Equatable, Sendable, CasePathable {
    case login(Child)
    case main(Row)
    case splash
  }

  enum AppAction: Equatable, Sendable {
    case login(CaseScopeTests.Counting.Action)
    case loggedIn
    case rename(String)
    case logOut
  }

  struct AppFeature: Reducer {
    var body: some Reducer<AppState, AppAction> {
      Reduce<AppState, AppAction> { state, action in
        switch action {
        case .login: break
        case .loggedIn: state = .main(Row(id: 1))
        case let .rename(title): state.modify(AppState.main) { $0.title = title }
        case .logOut: state = .splash
        }
        return .none
      }
      .ifCaseLet(AppState.login, action: AppAction.login) { CaseScopeTests.Counting() }
    }
  }

  @Test func aStoreOfAnEnumStateNeedsNoConformanceButCasePathable() {
    let store = Store(initialState: AppState.login(Child())) { AppFeature() }
    let whole = tracking { store.currentState }
    let loginCount = tracking { store.withState { $0[case: AppState.login]?.count } }
    store.send(.login(.increment))
    #expect(store.currentState == .login(Child(.init(count: 1))))
    #expect(whole.count == 0, "the whole value's identity (case and payload) is unchanged")
    #expect(loginCount.count == 1)
    store.send(.loggedIn)
    #expect(whole.count == 1)
    store.send(.logOut)

    let mainTitle = tracking { store.withState { $0[case: AppState.main]?.title } }
    store.send(.loggedIn)
    #expect(mainTitle.count == 1)
    let titleAgain = tracking { store.withState { $0[case: AppState.main]?.title } }
    let rowCount = tracking { store.withState { $0[case: AppState.main]?.count } }
    store.send(.rename("Inbox"))
    #expect(titleAgain.count == 1)
    #expect(rowCount.count == 0, "a change inside the case's state notifies only what changed")
    store.send(.rename("Inbox"))
  }

  @Test func aCaseStoreOfAnEnumRoot() {
    let store = Store(initialState: AppState.login(Child())) { AppFeature() }
    let login = store.scope(case: AppState.login, action: AppAction.login)
    #expect(login != nil)
    let count = tracking { login?.count }
    login?.send(.increment)
    #expect(login?.count == 1)
    #expect(count.count == 1)
    store.send(.loggedIn)
    #expect(store.scope(case: AppState.login, action: AppAction.login) == nil)
  }

  /// The store of a case the state has left goes, as a dismissed child's does (found by a
  /// SwiftUI-like probe: it stayed cached until the state came back to the case).
  @Test func theStoreOfACaseTheStateLeftIsReleased() {
    let store = Store(initialState: AppState.login(Child())) { AppFeature() }
    weak let login = store.scope(case: AppState.login, action: AppAction.login)
    #expect(login != nil)
    store.send(.loggedIn)
    #expect(store.scope(case: AppState.login, action: AppAction.login) == nil)
    #expect(login == nil)
  }

  @Test func observationSeesAnEnumRootByCaseAndPayload() {
    let store = Store(initialState: AppState.main(Row(id: 1))) { AppFeature() }
    let titles = Recorder(), counts = Recorder()
    withObservationTracking { _ = store.withState { $0[case: AppState.main]?.title } } onChange: {
      titles.record(ObservationChange(keyPaths: []))
    }
    withObservationTracking { _ = store.withState { $0[case: AppState.main]?.count } } onChange: {
      counts.record(ObservationChange(keyPaths: []))
    }
    store.send(.rename("Inbox"))
    #expect(titles.count == 1)
    #expect(counts.count == 0)
    store.send(.logOut)
    #expect(counts.count == 1)
  }

  @Test func aRootOfAnEnumValue() {
    let root = ObservedRoot(AppState.main(Row(id: 1)))
    let title = tracking { root.read { $0[case: AppState.main]?.title } }
    let count = tracking { root.read { $0[case: AppState.main]?.count } }
    root.mutate { $0.modify(AppState.main) { $0.title = "x" } }
    #expect(title.count == 1)
    #expect(count.count == 0)
    let whole = tracking { root.currentValue }
    root.mutate { $0 = .splash }
    #expect(whole.count == 1)
    #expect(count.count == 1, "the case's state is gone")
    let splash = tracking { root.currentValue }
    root.mutate { $0 = .splash }
    #expect(splash.count == 0, "the same payload-less case is no change")
  }
}
