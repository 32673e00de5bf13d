import StoreTesting
import Testing
import ValueStore

/// What a test sees of a presented child that dismisses itself: the dismissal, once, and what the
/// child sent with it (delivered, as TCA delivers what an effect sent; the gone child ignores it,
/// and the test fails: an action for absent state).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreNavigationTests {
  struct Child: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var saves = 0 }
    var _$fields = Observed(Fields())
  }
  struct ChildFeature: Reducer {
    enum Action: Equatable, Sendable { case closeTwice, closeThenSave, save }
    func reduce(into state: inout Child, action: Action) -> Effect<Action> {
      switch action {
      case .closeTwice: return .merge(.dismiss, .dismiss)
      case .closeThenSave: return .merge(.dismiss, .send(.save))
      case .save:
        state.saves += 1
        return .none
      }
    }
  }
  struct Parent: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var child: Child? = Child(); var path = StackState<Child>([Child()]) }
    var _$fields = Observed(Fields())
  }
  struct ParentFeature: Reducer {
    enum Action: Equatable, Sendable {
      case child(PresentationAction<ChildFeature.Action>)
      case path(StackAction<Child, ChildFeature.Action>)
    }
    var body: some Reducer<Parent, Action> {
      EmptyReducer<Parent, Action>()
        .ifLet(\.child, action: Action.child) { ChildFeature() }
        .forEach(\.path, action: Action.path) { ChildFeature() }
    }
  }

  @Test func aChildDismissingTwiceIsReceivedDismissingOnce() async {
    let store = TestStore(initialState: Parent()) { ParentFeature() }
    await store.send(.child(.presented(.closeTwice)))
    await store.receive(.child(.dismiss)) { $0.child = nil }
    await store.send(.path(.element(id: 0, action: .closeTwice)))
    await store.receive(.path(.popFrom(id: 0))) { $0.path = [] }
  }

  @Test func whatAChildSendsWithItsDismissalIsReceivedAfterIt() async {
    let store = TestStore(initialState: Parent()) { ParentFeature() }
    // The child is gone when its save arrives: ignored, and a test failure (as in TCA).
    await withKnownIssue { await store.send(.child(.presented(.closeThenSave))) } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("ifLet received save while its state is nil") }
    }
    await store.receive(.child(.dismiss)) { $0.child = nil }
    await store.receive(.child(.presented(.save)))
  }

  /// Actions for state that is not there fail a test (a runtime warning in an app).
  @Test func anActionForAbsentStateFailsTheTest() async {
    let store = TestStore(initialState: Parent()) { ParentFeature() }
    await store.send(.child(.dismiss)) { $0.child = nil }
    await withKnownIssue { await store.send(.child(.presented(.save))) } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("ifLet received save while its state is nil") }
    }
    await withKnownIssue { await store.send(.path(.element(id: 7, action: .save))) }
  }
}
