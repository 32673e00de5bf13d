import Testing
import ValueStore
import StoreTesting

/// A shared value the feature changes is asserted in the step that changed it, exhaustively.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct TestStoreSharedTests {
  struct Feature: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable { var title = "" }
      var _$fields = Observed(Fields())
      @Shared(.inMemory("count")) var count = 0
      init(_$fields: Observed<Fields> = Observed(Fields())) { self._$fields = _$fields }
    }
    enum Action: Equatable, Sendable { case increment, rename, incrementLater }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .increment:
        state.$count.withLock { $0 += 1 }
        return .none
      case .rename:
        state.title = "x"
        return .none
      case .incrementLater:
        return .send(.increment)
      }
    }
  }

  @Test func aSharedChangeAssertedPasses() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.increment) { $0.$count.withLock { $0 = 1 } }
    await store.send(.increment) { $0.$count.withLock { $0 = 2 } }
    #expect(store.state.count == 2)
  }

  @Test func aSharedChangeNotAssertedFails() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await withKnownIssue {
      await store.send(.increment)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined() + "\(issue)"
      return text.contains("count: 0") && text.contains("count: 1")
    }
  }

  @Test func aSharedChangeAssertedWronglyFails() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await withKnownIssue {
      await store.send(.increment) { $0.$count.withLock { $0 = 2 } }
    }
  }

  @Test func anAssertionOfASharedChangeThatDidNotHappenFails() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await withKnownIssue {
      await store.send(.rename) {
        $0.title = "x"
        $0.$count.withLock { $0 = 1 }
      }
    }
    #expect(store.state.count == 0)
  }

  @Test func aSharedChangeByAReceivedActionIsAssertedAtTheReceive() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.incrementLater)
    await store.receive(.increment) { $0.$count.withLock { $0 = 1 } }
  }

  @Test func nonExhaustiveSkipsAnUnassertedSharedChange() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    store.exhaustivity = .off
    await store.send(.increment)
    await store.send(.increment) { $0.$count.withLock { $0 = 2 } }
  }

  struct Row: Identifiable, Equatable, Sendable {
    let id: Int
    var title: String
  }

  struct RowFeature: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable {}
      var _$fields = Observed(Fields())
      @Shared var row: Row
    }
    enum Action: Equatable, Sendable { case delete }
    let rows: Shared<IdentifiedArrayOf<Row>>
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      rows.withLock { _ = $0.remove(id: state.row.id) }
      return .none
    }
  }

  /// A change the state reaches only through a part that is gone (the removed row) is shown apart.
  @Test func aSharedChangeTheStateDoesNotShowIsShownApart() async throws {
    let rows = Shared(value: IdentifiedArrayOf<Row>(uniqueElements: [Row(id: 1, title: "Blob")]))
    let row = try #require(Shared(rows[id: 1]))
    let store = TestStore(initialState: RowFeature.State(row: row)) { RowFeature(rows: rows) }
    await withKnownIssue {
      await store.send(.delete)
    } matching: { issue in
      "\(issue)".contains("Shared value:") && "\(issue)".contains("Blob")
    }
  }

  /// The test sets a shared value itself between steps (as a TCA test may, to set up a scenario):
  /// the feature's next change is asserted from there.
  @Test func aChangeTheTestMakesBetweenStepsIsTheNextStepsStart() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.increment) { $0.$count.withLock { $0 = 1 } }
    store.state.$count.withLock { $0 = 10 }
    await store.send(.increment) { $0.$count.withLock { $0 = 11 } }
  }
}
