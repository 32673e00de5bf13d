import StoreTesting
import Testing
import ValueStore

/// Sending and receiving by (nested) case, with or without the payload, for actions that are not
/// `Equatable`.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreCaseTests {
  struct Loader: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var items: [Int] = []; var loads = 0 }
    var _$fields = Observed(Fields())
  }
  struct LoaderFeature: Reducer {
    enum Action: Sendable { case load, loaded([Int]), failed(any Error) }
    func reduce(into state: inout Loader, action: Action) -> Effect<Action> {
      switch action {
      case .load:
        state.loads += 1
        let loads = state.loads
        return .send(.loaded(Array(1...loads)))
      case let .loaded(items):
        state.items = items
        return .none
      case .failed:
        return .none
      }
    }
  }
  struct Screen: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var loader = Loader() }
    var _$fields = Observed(Fields())
  }
  /// Not `Equatable`: a payload holds an error.
  struct ScreenFeature: Reducer {
    enum Action: Sendable { case loader(LoaderFeature.Action), closed(any Error) }
    var body: some Reducer<Screen, Action> {
      Scope(state: \.loader, action: Action.loader) { LoaderFeature() }
    }
  }
  static let loaded = CasePath(ScreenFeature.Action.loader).appending(LoaderFeature.Action.loaded)

  @Test func aNestedCaseIsReceivedWithOrWithoutItsPayload() async {
    let store = TestStore(initialState: Screen()) { ScreenFeature() }
    let load = CasePath(ScreenFeature.Action.loader)
    await store.send(load, .load) { $0.loader.loads = 1 }
    await store.receive(Self.loaded) { $0.loader.items = [1] }
    await store.send(load, .load) { $0.loader.loads = 2 }
    await store.receive(Self.loaded, [1, 2]) { $0.loader.items = [1, 2] }
  }

  @Test func aTopLevelCaseIsReceivedByItsConstructor() async {
    let store = TestStore(initialState: Loader()) { LoaderFeature() }
    await store.send(.load) { $0.loads = 1 }
    await store.receive(LoaderFeature.Action.loaded) { $0.items = [1] }
    await store.send(.load) { $0.loads = 2 }
    await store.receive(LoaderFeature.Action.loaded, [1, 2]) { $0.items = [1, 2] }
  }

  @Test func aDifferentPayloadFailsWithADiffOfTheActions() async {
    let line = #line + 4
    let issues = await recordIssues {
      let store = TestStore(initialState: Loader()) { LoaderFeature() }
      await store.send(.load) { $0.loads = 1 }
      await store.receive(LoaderFeature.Action.loaded, [7]) { $0.items = [1] }
    }
    #expect(
      issues == [
        RecordedIssue(
          message: """
            Received unexpected action: …

                TestStoreCaseTests.LoaderFeature.Action.loaded(
                  [
              −     [0]: 7
              +     [0]: 1
                  ]
                )

            (Expected: −, Received: +)
            """, line: line)
      ])
  }

  @Test func anotherCaseFailsShowingTheReceivedAction() async {
    let line = #line + 4
    let issues = await recordIssues {
      let store = TestStore(initialState: Loader()) { LoaderFeature() }
      await store.send(.load) { $0.loads = 1 }
      await store.receive(LoaderFeature.Action.failed)
    }
    #expect(
      issues == [
        RecordedIssue(
          message: """
            Received unexpected action: …

              TestStoreCaseTests.LoaderFeature.Action.loaded(
                [
                  [0]: 1
                ]
              )

            (Expected: TestStoreCaseTests.LoaderFeature.Action.failed)
            """, line: line)
      ])
  }

  @Test func aComposedCaseIsNamedLevelByLevel() {
    #expect(
      "\(Self.loaded)" == "TestStoreCaseTests.ScreenFeature.Action.loader → TestStoreCaseTests.LoaderFeature.Action.loaded")
    #expect("\(CasePath(ScreenFeature.Action.loader))" == "TestStoreCaseTests.ScreenFeature.Action.loader")
  }
}

/// A case without payload of an action that is not `Equatable`, received by itself (TCA's
/// `receive(\.tick)`).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreReceiveCaseWithoutPayloadTests {
  struct Ticker: Reducer {
    enum Action: Sendable { case start, tick, failed(any Error) }
    func reduce(into state: inout TestStoreCaseTests.Loader, action: Action) -> Effect<Action> {
      switch action {
      case .start: return .send(.tick)
      case .tick: state.loads += 1; return .none
      case .failed: return .none
      }
    }
  }
  struct Failure: Error {}

  @Test func aCaseWithoutPayloadIsReceivedByItself() async {
    let store = TestStore(initialState: TestStoreCaseTests.Loader()) { Ticker() }
    await store.send(.start)
    await store.receive(.tick) { $0.loads = 1 }
  }

  @Test func aCaseWithAPayloadCannotBeComparedAndFails() async {
    let store = TestStore(initialState: TestStoreCaseTests.Loader()) { Ticker() }
    await store.send(.start)
    await withKnownIssue {
      await store.receive(.failed(Failure()))
    } matching: { $0.description.contains("not Equatable") }
    await store.receive(.tick) { $0.loads = 1 }
  }
}
