import Testing
@testable import ValueStore

/// `body` and its builder: every construct a body can contain (a list, `if`, `if`/`else`, `switch`,
/// `for`, nothing), every composition operator on both key-path spellings, and the reducer shapes
/// TCA users write (nested `State`/`Action`, a `typealias State`, `.run` capturing `self`).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ReducerBodyTests {
  /// Appends its name to `log` on every action: the order reducers ran in.
  struct Mark: Reducer {
    let name: String
    func reduce(into state: inout Trail, action: Step) -> Effect<Step> {
      state.log.append(name)
      return .none
    }
  }

  struct Trail: ObservableState, Equatable {
    struct Fields: Equatable { var log: [String] = []; var flag = false; var count = 0 }
    var _$fields = Observed(Fields())
  }

  enum Step: Equatable, Sendable { case go }

  struct Branches: Reducer {
    let flag: Bool
    let names: [String]
    var body: some Reducer<Trail, Step> {
      Mark(name: "first")
      if flag { Mark(name: "if") }
      if flag { Mark(name: "then") } else { Mark(name: "else") }
      switch names.count {
      case 0: Mark(name: "none")
      case 1: Mark(name: "one")
      default: Mark(name: "many")
      }
      for name in names { Mark(name: name) }
      Reduce { state, _ in
        state.log.append("last")
        return .none
      }
    }
  }

  @Test func aBodyRunsItsReducersInOrderThroughEveryBuilderConstruct() {
    var state = Trail()
    _ = Branches(flag: true, names: ["a", "b"]).reduce(into: &state, action: .go)
    #expect(state.log == ["first", "if", "then", "many", "a", "b", "last"])
    state = Trail()
    _ = Branches(flag: false, names: []).reduce(into: &state, action: .go)
    #expect(state.log == ["first", "else", "none", "last"])
  }

  struct Nothing: Reducer {
    var body: some Reducer<Trail, Step> {}
  }

  @Test func anEmptyBodyAndEmptyReducerDoNothing() {
    var state = Trail()
    #expect(Nothing().reduce(into: &state, action: .go).isNone)
    #expect(EmptyReducer<Trail, Step>().reduce(into: &state, action: .go).isNone)
    #expect(state == Trail())
  }

  // MARK: - Composition

  /// TCA's shape: nested `State` and `Action`, a `body` of `Scope`, `ifLet`, `forEach`.
  struct Parent: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable {
        var child = Child()
        var optional: Child?
        var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
        var log: [String] = []
      }
      var _$fields = Observed(Fields())
    }
    enum Action: Equatable, Sendable {
      case child(ChildFeature.Action)
      case optional(ChildFeature.Action)
      case rows(IdentifiedAction<Int, RowFeature.Action>)
      case show
    }

    var body: some Reducer<State, Action> {
      Scope(state: \.child, action: CasePath(Action.child)) { ChildFeature() }
      Reduce { state, action in
        state.log.append("parent")
        if case .show = action { state.optional = Child() }
        return .none
      }
      .ifLet(\.optional, action: CasePath(Action.optional)) { ChildFeature() }
      .forEach(\.rows, action: CasePath(Action.rows)) { RowFeature() }
    }
  }

  struct ChildFeature: Reducer {
    enum Action: Equatable, Sendable { case increment }
    func reduce(into state: inout Child, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  struct RowFeature: Reducer {
    typealias State = Row
    enum Action: Equatable, Sendable { case rename(String) }
    var body: some Reducer<Row, Action> {
      Reduce { state, action in
        if case let .rename(title) = action { state.title = title }
        return .none
      }
    }
  }

  @Test func scopeIfLetAndForEachRouteChildActionsInPlace() {
    var state = Parent.State()
    let child = state.child.observationIdentity
    _ = Parent().reduce(into: &state, action: .child(.increment))
    #expect(state.child.count == 1)
    // In place: the child kept its identity (it was not copied out, forked and written back).
    #expect(state.child.observationIdentity == child)

    let warnings = Warnings()
    RuntimeWarning.withHandler({ warnings.append($0) }) {
      _ = Parent().reduce(into: &state, action: .optional(.increment))  // nil: ignored, warned
    }
    #expect(warnings.all.count == 1)
    _ = Parent().reduce(into: &state, action: .show)
    _ = Parent().reduce(into: &state, action: .optional(.increment))
    #expect(state.optional?.count == 1)

    let row = state.rows[id: 2]!.observationIdentity
    _ = Parent().reduce(into: &state, action: .rows(.element(id: 2, action: .rename("two"))))
    #expect(state.rows[id: 2]?.title == "two")
    #expect(state.rows[id: 2]?.observationIdentity == row)
    #expect(state.log.count == 5)  // the parent ran for every action, after its children
  }

  @Test func aStoreRunsABodyAndNotifiesOnlyTheFieldsItChanged() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let rowTitle = Recorder()
    let childCount = Recorder()
    let tokens = [
      store.observe { _ = store.rows[id: 1]?.title; rowTitle.record(ObservationChange(keyPaths: [])) },
      store.observe { _ = store.child.count; childCount.record(ObservationChange(keyPaths: [])) },
    ]
    store.send(.rows(.element(id: 2, action: .rename("x"))))
    store.send(.child(.increment))
    #expect(rowTitle.count == 1)
    #expect(childCount.count == 2)
    withExtendedLifetime(tokens) {}  // `_ = tokens` does not keep it alive in an optimized build
  }

  /// Key paths into the state itself (not its `Fields`) work too: a plain-struct parent.
  struct PlainParent: Reducer {
    struct State: Equatable, ObservationIdentifiable {
      var child = Child()
      var observationIdentity: ObservationIdentity { child.observationIdentity }
      mutating func _detach() { child._detach() }
    }
    var body: some Reducer<State, Parent.Action> {
      Scope(state: \State.child, action: CasePath(Parent.Action.child)) { ChildFeature() }
    }
  }

  @Test func scopeOnAPlainParentUsesItsKeyPath() {
    var state = PlainParent.State()
    _ = PlainParent().reduce(into: &state, action: .child(.increment))
    #expect(state.child.count == 1)
  }

  // MARK: - Effects capturing the reducer

  /// A reducer is a `Sendable` value, so `.run` can use its properties.
  struct Multiplier: Reducer {
    let factor: Int
    enum Action: Equatable, Sendable { case start, result(Int) }
    var body: some Reducer<Child, Action> {
      Reduce { state, action in
        switch action {
        case .start:
          let count = state.count
          return .run { send in await send(.result(count * self.factor)) }
        case let .result(value):
          state.count = value
          return .none
        }
      }
    }
  }

  @Test func runCapturesTheReducer() async {
    let store = Store(initialState: Child(count: 2)) { Multiplier(factor: 21) }
    await store.send(.start).finish()
    #expect(store.count == 42)
  }
}
