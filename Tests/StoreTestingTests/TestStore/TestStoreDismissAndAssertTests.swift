import Foundation
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

/// Found porting TCA's SyncUps: a test store's initial state is made with the test's dependencies;
/// a root feature that dismisses itself cancels its effects; a non-exhaustive closure checks
/// the state after the action.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreAsInTCATests {
  struct Attendees: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var ids: [UUID] = [] }
    var _$fields = Observed(Fields())
    init() {
      @Dependency(\.uuid) var uuid
      _$fields = Observed(Fields(ids: [uuid()]))
    }
  }

  struct AttendeesFeature: Reducer {
    enum Action: Equatable, Sendable { case add }
    @Dependency(\.uuid) var uuid
    func reduce(into state: inout Attendees, action: Action) -> Effect<Action> {
      state.ids.append(uuid())
      return .none
    }
  }

  @Test func theInitialStateIsMadeWithTheTestsDependencies() async {
    let store = TestStore(initialState: Attendees()) { AttendeesFeature() } withDependencies: {
      $0.uuid = .incrementing
    }
    #expect(store.state.ids == [UUID(0)])
    await store.send(.add) { $0.ids.append(UUID(1)) }
  }

  struct Recording: Reducer {
    enum Action: Equatable, Sendable { case start, tick, stop }
    func reduce(into state: inout Tally, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { send in
          let never = AsyncStream<Never> { _ in }
          for await _ in never {}  // runs until cancelled
          await send(.tick)
        }
      case .tick: state.count += 1; return .none
      case .stop: return .dismiss
      }
    }
  }

  @Test func aRootFeatureThatDismissesItselfCancelsItsEffects() async {
    let store = TestStore(initialState: Tally()) { Recording() }
    await store.send(.start)
    await store.send(.stop)
    #expect(store.isDismissed)
    await store.finish()  // the running effect was cancelled: nothing left to wait for
  }

  @Test func aNonExhaustiveClosureRunsOnceOnTheStateAfterTheAction() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }
    store.exhaustivity = .off
    await store.send(.setCount(3))
    var runs = 0
    await store.send(.increment) {
      runs += 1
      #expect($0.count == 4)
    }
    await store.send(.incrementTwice)
    await store.receive(.increment) {
      runs += 1
      #expect($0.count == 5)
    }
    #expect(runs == 2)
  }
}
