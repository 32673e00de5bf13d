import Testing
import ValueStore

/// TCA's shorthand type names, each used where a TCA feature uses it (a test here fails to compile
/// if its spelling breaks), and recursive actions that leave their `Sendable` conformance implicit.
@MainActor
@Suite struct TCASpellingsTests {
  /// `requires(T.self)` compiles only if `T` is `Sendable`.
  func requiresSendable<T: Sendable>(_: T.Type) {}

  // MARK: - ReducerOf

  struct Counter: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable { var count = 0 }
      var _$fields = Observed(Fields())
    }
    enum Action: Equatable { case increment }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }

  @Test func reducerOfSelfSpellsABody() {
    var state = Counter.State()
    _ = Counter().reduce(into: &state, action: .increment)
    #expect(state.count == 1)
    let erased: any ReducerOf<Counter> = Counter()
    _ = erased.reduce(into: &state, action: .increment)
    #expect(state.count == 2)
  }

  // MARK: - IdentifiedActionOf and StackActionOf

  struct Row: Reducer {
    struct State: ObservableState, Equatable, Identifiable {
      struct Fields: Equatable, Identifiable { let id: Int; var count = 0 }
      var _$fields: Observed<Fields>
    }
    enum Action: Equatable { case increment }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  struct List: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable {
        var rows: IdentifiedArrayOf<Row.State> = [Row.State(.init(id: 1)), Row.State(.init(id: 2))]
        var path = StackState<Row.State>()
      }
      var _$fields = Observed(Fields())
    }
    enum Action: Equatable {
      case rows(IdentifiedActionOf<Row>)
      case path(StackActionOf<Row>)
    }
    var body: some ReducerOf<Self> {
      EmptyReducer()
        .forEach(\.rows, action: Action.rows) { Row() }
        .forEach(\.path, action: Action.path) { Row() }
    }
  }

  @Test func identifiedActionOfIsTheElementsIdentifiedAction() {
    #expect(IdentifiedActionOf<Row>.self == IdentifiedAction<Int, Row.Action>.self)
    var state = List.State()
    _ = List().reduce(into: &state, action: .rows(.element(id: 2, action: .increment)))
    #expect(state.rows.map(\.count) == [0, 1])
  }

  @Test func stackActionOfIsTheStacksAction() {
    #expect(StackActionOf<Row>.self == StackAction<Row.State, Row.Action>.self)
    var state = List.State()
    state.path.append(Row.State(.init(id: 7)))
    let id = state.path.ids[0]
    _ = List().reduce(into: &state, action: .path(.element(id: id, action: .increment)))
    #expect(state.path[id: id]?.count == 1)
  }

  // MARK: - Recursive actions
  //
  // An `indirect enum Action` that contains itself through a child's action must compile without
  // spelling `Sendable`: the conformance is inferred, as for any internal enum. It failed with
  // "circular reference" while `IdentifiedAction` required `Action: Sendable` of its parameter
  // (checking the requirement needed the conformance being inferred); it is now `Sendable` when
  // its action is, as in TCA. `PresentationAction` and `StackAction` were never affected.

  /// A tree of counters: each node's action reaches its children's through `IdentifiedAction`,
  /// spelled out (through `IdentifiedActionOf<Tree>` the old requirement did not cycle).
  struct Tree: Reducer {
    struct State: ObservableState, Equatable, Identifiable {
      struct Fields: Equatable, Identifiable {
        let id: Int
        var count = 0
        var children: IdentifiedArrayOf<Tree.State> = []
      }
      var _$fields: Observed<Fields>
    }
    indirect enum Action: Equatable {
      case children(IdentifiedAction<Int, Action>)
      case increment
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        if case .increment = action { state.count += 1 }
        return .none
      }
      .forEach(\.children, action: Action.children) { Tree() }
    }
  }

  @Test func aRecursiveActionThroughIdentifiedActionNeedsNoExplicitSendable() {
    requiresSendable(Tree.Action.self)
    let leaf = Tree.State(.init(id: 3))
    let store = Store(initialState: Tree.State(.init(id: 1, children: [Tree.State(.init(id: 2, children: [leaf]))]))) {
      Tree()
    }
    store.send(.children(.element(id: 2, action: .children(.element(id: 3, action: .increment)))))
    #expect(store.children[id: 2]?.children[id: 3]?.count == 1)
    #expect(store.children[id: 2]?.count == 0)
  }

  /// A thread of comments: each one's replies are a stack of comments.
  struct Thread: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable { var likes = 0; var replies = StackState<Thread.State>() }
      var _$fields = Observed(Fields())
    }
    indirect enum Action: Equatable {
      case replies(StackActionOf<Thread>)
      case like
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        if case .like = action { state.likes += 1 }
        return .none
      }
      .forEach(\.replies, action: Action.replies) { Thread() }
    }
  }

  @Test func aRecursiveActionThroughStackActionNeedsNoExplicitSendable() {
    requiresSendable(Thread.Action.self)
    var state = Thread.State()
    state.replies.append(Thread.State())
    let id = state.replies.ids[0]
    _ = Thread().reduce(into: &state, action: .replies(.element(id: id, action: .like)))
    #expect(state.replies[id: id]?.likes == 1)
    #expect(state.likes == 0)
  }

  /// An action that presents another of its own kind (the state's shape does not matter here).
  enum Screen {
    indirect enum Action: Equatable {
      case child(PresentationAction<Action>)
      case tap
    }
  }

  @Test func aRecursiveActionThroughPresentationActionNeedsNoExplicitSendable() {
    requiresSendable(Screen.Action.self)
    let action = Screen.Action.child(.presented(.child(.dismiss)))
    guard case .child(.presented(.child(.dismiss))) = action else {
      Issue.record("\(action)")
      return
    }
  }
}
