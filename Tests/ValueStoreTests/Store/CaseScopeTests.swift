import Testing
@testable import ValueStore

/// Reducers and stores scoped by a case: `Scope` onto a case of an enum state, `ifCaseLet`, and
/// every scoping API given the action's case directly (`action: Action.child`).
@MainActor @Suite(.timeLimit(.minutes(1))) struct CaseScopeTests {
  struct Counting: Reducer {
    enum Action: Equatable, Sendable { case increment, echo }
    func reduce(into state: inout Child, action: Action) -> Effect<Action> {
      switch action {
      case .increment: state.count += 1; return .none
      case .echo: return .send(.increment)
      }
    }
  }

  enum Destination: Equatable, Sendable, ObservationIdentifiable, CasePathable {
    case counter(Child), note(String)
    var observationIdentity: ObservationIdentity {
      switch self {
      case let .counter(child): ObservationIdentity(caseOf: self, child)
      case .note: ObservationIdentity(caseOf: self)
      }
    }
    mutating func _detach() { modify(Destination.counter) { $0._detach() } }
  }
  enum DestinationAction: Equatable, Sendable { case counter(Counting.Action), setNote(String) }

  /// The destination's own logic (`setNote`) runs after the child's.
  struct DestinationFeature: Reducer {
    var body: some Reducer<Destination, DestinationAction> {
      Reduce<Destination, DestinationAction> { state, action in
        if case let .setNote(note) = action { state = .note(note) }
        return .none
      }
      .ifCaseLet(Destination.counter, action: DestinationAction.counter) { Counting() }
    }
  }

  @Test func aScopeOnACaseRunsTheChildWhileTheStateIsInIt() {
    let store = Store(initialState: Destination.counter(Child())) {
      Scope(state: Destination.counter, action: DestinationAction.counter) { Counting() }
    }
    let count = tracking { store.withState { $0[case: Destination.counter]?.count } }
    store.send(.counter(.increment))
    #expect(store.withState { $0[case: Destination.counter]?.count } == 1)
    #expect(count.count == 1)
    store.send(.counter(.echo))  // the child's effect comes back through the case
    #expect(store.withState { $0[case: Destination.counter]?.count } == 2)
  }

  @Test func aChildActionInAnotherCaseIsIgnoredWithAWarning() {
    let warnings = Warnings()
    let store = Store(initialState: Destination.note("n")) {
      Scope(state: CasePath(Destination.counter), action: CasePath(DestinationAction.counter)) { Counting() }
    }
    RuntimeWarning.withHandler({ warnings.append($0) }) {
      store.send(.counter(.increment))
    }
    #expect(store.withState { $0 } == .note("n"))
    #expect(warnings.all.count == 1)
    #expect(warnings.all.first?.contains("while its state is in .note, not in the case of its Child") == true, "\(warnings.all)")
  }

  @Test func ifCaseLetRunsTheChildThenTheParent() {
    let store = Store(initialState: Destination.counter(Child())) { DestinationFeature() }
    store.send(.counter(.increment))
    #expect(store.withState { $0[case: Destination.counter]?.count } == 1)
    store.send(.setNote("done"))
    #expect(store.withState { $0 } == .note("done"))
  }

  /// A parent holding an optional destination: `ifLet` then the case's `Scope`, all by case.
  struct Parent: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var destination: Destination?
      var child = Child()
      var rows: IdentifiedArrayOf<Row> = []
    }
    var _$fields = Observed(Fields())
  }
  struct ParentFeature: Reducer {
    enum Action: Equatable, Sendable {
      case destination(DestinationAction), child(Counting.Action)
      case rows(IdentifiedAction<Int, Counting.Action>), present
    }
    var body: some Reducer<Parent, Action> {
      Scope(state: \.child, action: Action.child) { Counting() }
      Reduce { state, action in
        if case .present = action { state.destination = .counter(Child()) }
        return .none
      }
      .ifLet(\.destination, action: Action.destination) { DestinationFeature() }
      .forEach(\.rows, action: Action.rows) {
        Reduce<Row, Counting.Action> { row, action in
          if case .increment = action { row.count += 1 }
          return .none
        }
      }
    }
  }

  @Test func everyScopingAPITakesTheActionsCase() {
    var initial = Parent()
    initial.rows = [Row(id: 1), Row(id: 2)]
    let store = Store(initialState: initial) { ParentFeature() }
    store.send(.child(.increment))
    store.send(.present)
    store.send(.destination(.counter(.increment)))
    store.send(CasePath(ParentFeature.Action.rows)[id: 2], .increment)
    store.withState { state in
      #expect(state.child.count == 1)
      #expect(state.destination?[case: Destination.counter]?.count == 1)
      #expect(state.rows[id: 2]?.count == 1)
      #expect(state.rows[id: 1]?.count == 0)
    }

    let child = store.scope(state: \.child, action: ParentFeature.Action.child)
    #expect(child === store.scope(state: \.child, action: ParentFeature.Action.child))
    child.send(.increment)
    #expect(store.child.count == 2)
    let destination = store.scope(state: \.destination, action: ParentFeature.Action.destination)
    destination?.send(.counter(.increment))
    #expect(store.withState { $0.destination?[case: Destination.counter]?.count } == 2)
    let rows = store.scope(state: \.rows, action: ParentFeature.Action.rows)
    rows[id: 1]?.send(.increment)
    #expect(store.withState { $0.rows[id: 1]?.count } == 1)
  }
}
