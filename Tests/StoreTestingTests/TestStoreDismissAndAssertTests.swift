import StoreTesting
import Testing
import ValueStore

/// TCA's test-store tools for presented features and non-exhaustive tests: `isDismissed`,
/// `withExhaustivity`, `assert`.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreDismissAndAssertTests {
  struct Editor: Reducer {
    enum Action: Equatable, Sendable { case edit, saveTapped, saveInBackground, saved }
    func reduce(into state: inout Tally, action: Action) -> Effect<Action> {
      switch action {
      case .edit: state.count += 1; return .none
      case .saveTapped: return .dismiss
      case .saveInBackground: return .run { send in await send(.saved); await send.dismiss() }
      case .saved: state.fact = "saved"; return .none
      }
    }
  }

  @Test func aFeatureThatDismissesItselfIsDismissed() async {
    let store = TestStore(initialState: Tally()) { Editor() }
    await store.send(.edit) { $0.count = 1 }
    #expect(!store.isDismissed)
    await store.send(.saveTapped)
    #expect(store.isDismissed)
    await withKnownIssue {
      await store.send(.edit)
    } matching: { $0.description.contains("dismissed itself") }
    #expect(store.state.count == 1, "an action sent after the dismissal is not sent")
  }

  @Test func anEffectThatDismissesDismissesTheFeature() async {
    let store = TestStore(initialState: Tally()) { Editor() }
    await store.send(.saveInBackground)
    await store.receive(.saved) { $0.fact = "saved" }
    await store.finish()
    #expect(store.isDismissed)
  }

  @Test func withExhaustivityOffSkipsWhatTheTestDoesNotStateThenRestores() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }
    await store.withExhaustivity(.off) {
      await store.send(.incrementTwice)
      await store.receive(.increment) { $0.count = 1 }
    }
    #expect(store.exhaustivity == .on)
    await store.skipReceivedActions()
    await withKnownIssue {
      await store.send(.increment)  // exhaustive again: the state change is not stated
    }
  }

  @Test func assertChecksTheCurrentStateAgainstTheLastAsserted() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }
    store.exhaustivity = .off
    await store.send(.incrementTwice)  // two `.increment`s received, not asserted
    store.assert { $0.count = 2 }
    store.assert { _ in }  // nothing changed since: no "expected a change" failure
    withKnownIssue {
      store.assert { $0.count = 3 }
    }
    await store.skipReceivedActions()
  }

  @Test func assertWhenExhaustiveChecksTheWholeState() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }
    await store.send(.incrementTwice)
    withKnownIssue {
      store.assert { _ in }  // the received actions changed the count; the closure does not say so
    }
    store.assert { _ in }  // taken as asserted by the call before
    await store.skipReceivedActions()
  }
}
