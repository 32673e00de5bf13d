import StoreTesting
import Testing
import ValueStore

/// What a test sees of a presented child that dismisses itself: the dismissal, once, and what the
/// child sent with it (delivered, as TCA delivers what an effect sent; the gone child ignores it).
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
    await store.send(.child(.presented(.closeThenSave)))
    await store.receive(.child(.dismiss)) { $0.child = nil }
    await store.receive(.child(.presented(.save)))  // the child is gone: ignored
  }
}
