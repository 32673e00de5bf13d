import Observation
import ValueStore

/// Sending through exactly one hop of each kind of composition — `Scope`, `ifLet`, `forEach`,
/// `ifCaseLet` — to a counter child that does `count += 1`, next to the same send with no hop:
/// where a composed send's time goes, one hop kind at a time.
///
/// A hop's own cost is its row minus `send, 0 hops` (the store's send, transaction and the child's
/// `count += 1`, which every row pays once); the goal "a hop ≤ 50 ns" checks exactly that
/// difference (see ``Criterion/overhead(_:_:over:atMost:)``). Every parent is a `body` built anew
/// for each action, naming its child's action by its case (`Action.counter`), as a feature is
/// written. `ifLet`, `forEach` and `ifCaseLet` hang off a parent `Reduce` that does nothing; its
/// call is part of their hop.
enum HopScenarios {
  static let baseName = "send, 0 hops"
  static let scopeName = "send through 1 Scope"
  static let ifLetName = "send through 1 ifLet"
  static let forEachName = "send through 1 forEach, 1 row of \(rowCount)"
  static let ifCaseLetName = "send through 1 ifCaseLet"
  /// The rows of the `forEach` parent; each send changes one of them, in turn.
  static let rowCount = 100

  static var all: [Scenario] {
    [
      Scenario(
        name: baseName,
        note: """
          `store.send(.increment)` on a store whose root reducer is the counter (`count += 1`) / \
          `model.increment()` / `plain.count += 1`: what every hop row below also pays. A hop's \
          cost is its row minus this one.
          """,
        ours: Workload("ours.hop.none", setUp: { store(Counter(), CounterFeature()) }) { store, n in
          MainActor.assumeIsolated {
            for i in 0..<n {
              store.send(.increment)
              blackHole(i)
            }
          }
        },
        apple: Workload("apple.hop.none", setUp: { AppleCounterModel() }) { model, n in
          for i in 0..<n {
            model.increment()
            blackHole(i)
          }
        },
        plain: WriteScenarios.plainWrite
      ),
      Scenario(
        name: scopeName,
        note: """
          `send(.counter(.increment))`: a body of one `Scope(state: \\.counter, action: \
          Action.counter) { CounterFeature() }` on a child field / `model.counter.increment()` \
          / `plain.counter.count += 1`.
          """,
        ours: Workload("ours.hop.scope", setUp: { store(ScopeHop.State(), ScopeHop()) }) { store, n in
          MainActor.assumeIsolated {
            for i in 0..<n {
              store.send(.counter(.increment))
              blackHole(i)
            }
          }
        },
        apple: Workload("apple.hop.scope", setUp: { AppleHopParent() }) { model, n in
          for i in 0..<n {
            model.counter.increment()
            blackHole(i)
          }
        },
        plain: Workload("plain.hop.scope", setUp: { PlainHopParent() }) { plain, n in
          for i in 0..<n {
            plain.counter.count += 1
            blackHole(i)
          }
        }
      ),
      Scenario(
        name: ifLetName,
        note: """
          `send(.counter(.increment))`: `Reduce { _, _ in .none }.ifLet(\\.counter, action: \
          Action.counter) { CounterFeature() }` on a non-nil `Counter?` field / \
          `model.counter?.increment()` on an optional model / `plain.counter?.count += 1`.
          """,
        ours: Workload("ours.hop.ifLet", setUp: { store(IfLetHop.State(), IfLetHop()) }) { store, n in
          MainActor.assumeIsolated {
            for i in 0..<n {
              store.send(.counter(.increment))
              blackHole(i)
            }
          }
        },
        apple: Workload("apple.hop.ifLet", setUp: { AppleHopOptionalParent() }) { model, n in
          for i in 0..<n {
            model.counter?.increment()
            blackHole(i)
          }
        },
        plain: Workload("plain.hop.ifLet", setUp: { PlainHopOptionalParent() }) { plain, n in
          for i in 0..<n {
            plain.counter?.count += 1
            blackHole(i)
          }
        }
      ),
      Scenario(
        name: forEachName,
        note: """
          `send(.rows(.element(id: i % \(rowCount), action: .increment)))`: `Reduce { _, _ in .none \
          }.forEach(\\.rows, action: Action.rows) { RowCounter() }` over an `IdentifiedArrayOf<Row>` \
          of \(rowCount) / `model.rows[id]?.increment()` on a dictionary of \(rowCount) @Observable \
          models by id / `plain.rows[plain.offsets[id]!].count += 1` (an array and an id → offset \
          dictionary, as IdentifiedArray). One row changes per send, the next one each time.
          """,
        ours: Workload("ours.hop.forEach", setUp: { store(RowsState(count: rowCount), ForEachHop()) }) { store, n in
          MainActor.assumeIsolated {
            for i in 0..<n {
              store.send(.rows(.element(id: i % rowCount, action: .increment)))
              blackHole(i)
            }
          }
        },
        apple: Workload("apple.hop.forEach", setUp: { AppleHopRows(count: rowCount) }) { model, n in
          for i in 0..<n {
            model.rows[i % rowCount]?.increment()
            blackHole(i)
          }
        },
        plain: Workload("plain.hop.forEach", setUp: { PlainRows(count: rowCount) }) { plain, n in
          for i in 0..<n {
            plain.rows[plain.offsets[i % rowCount]!].count += 1
            blackHole(i)
          }
        }
      ),
      Scenario(
        name: ifCaseLetName,
        note: """
          `send(.counter(.increment))` on a store whose state is `enum State: CasePathable { case \
          counter(Counter), other }`: `Reduce { _, _ in .none }.ifCaseLet(State.counter, action: \
          Action.counter) { CounterFeature() }` / `if case let .counter(model) = state { \
          model.increment() }` on an enum holding a model / the same `if case var`, `count += 1` \
          and re-embedding on a plain enum.
          """,
        ours: Workload("ours.hop.ifCaseLet", setUp: { store(IfCaseLetHop.State.counter(Counter()), IfCaseLetHop()) }) {
          store, n in
          MainActor.assumeIsolated {
            for i in 0..<n {
              store.send(.counter(.increment))
              blackHole(i)
            }
          }
        },
        apple: Workload("apple.hop.ifCaseLet", setUp: { AppleHopCase.counter(AppleCounterModel()) }) { state, n in
          for i in 0..<n {
            if case let .counter(model) = state { model.increment() }
            blackHole(i)
          }
        },
        plain: Workload("plain.hop.ifCaseLet", setUp: { PlainHopCase.counter(PlainCounter()) }) { state, n in
          for i in 0..<n {
            if case var .counter(counter) = state {
              counter.count += 1
              state = .counter(counter)
            }
            blackHole(i)
          }
        }
      ),
    ]
  }

  /// The hop rows whose cost over ``baseName`` the goal checks, labelled by hop kind.
  static let hops = [
    ("Scope", scopeName), ("ifLet", ifLetName), ("forEach", forEachName), ("ifCaseLet", ifCaseLetName),
  ]

  static func store<R: Reducer>(_ state: R.State, _ reducer: R) -> Store<R.State, R.Action>
  where R: Sendable, R.State: ObservationIdentifiable & Sendable, R.Action: Sendable {
    MainActor.assumeIsolated { Store(initialState: state, reducer: reducer) }
  }
}

// MARK: - ValueStore: one parent per hop kind, each over the counter

/// One `Scope` to a child field.
struct ScopeHop: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var counter = Counter() }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable { case counter(CounterFeature.Action) }

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: Action.counter) { CounterFeature() }
  }
}

/// One `ifLet` to an optional child field, non-nil throughout.
struct IfLetHop: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var counter: Counter? = Counter() }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable { case counter(CounterFeature.Action) }

  var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
      .ifLet(\.counter, action: Action.counter) { CounterFeature() }
  }
}

/// One `forEach` over the rows of ``RowsState``.
struct ForEachHop: Reducer {
  enum Action: Equatable, Sendable { case rows(IdentifiedAction<Int, CounterFeature.Action>) }

  var body: some Reducer<RowsState, Action> {
    Reduce { _, _ in .none }
      .forEach(\.rows, action: Action.rows) { RowCounter() }
  }
}

/// ``CounterFeature`` on a ``Row``: `.increment` adds one to its `count`.
struct RowCounter: Reducer {
  func reduce(into state: inout Row, action: CounterFeature.Action) -> Effect<CounterFeature.Action> {
    switch action {
    case .increment: state.count += 1
    }
    return .none
  }
}

/// One `ifCaseLet` to a case of an enum state, in that case throughout.
struct IfCaseLetHop: Reducer {
  enum State: Equatable, Sendable, CasePathable { case counter(Counter), other }
  enum Action: Equatable, Sendable { case counter(CounterFeature.Action) }

  var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
      .ifCaseLet(State.counter, action: Action.counter) { CounterFeature() }
  }
}

// MARK: - Apple's Observation and plain structs: the same hops as direct calls

@Observable
final class AppleHopParent: @unchecked Sendable {
  var counter = AppleCounterModel()
}

@Observable
final class AppleHopOptionalParent: @unchecked Sendable {
  var counter: AppleCounterModel? = AppleCounterModel()
}

/// Row models found by id, as ours are.
@Observable
final class AppleHopRows: @unchecked Sendable {
  var rows: [Int: AppleCounterModel]

  init(count: Int) { rows = Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, AppleCounterModel()) }) }
}

enum AppleHopCase { case counter(AppleCounterModel), other }

struct PlainHopParent { var counter = PlainCounter() }

struct PlainHopOptionalParent { var counter: PlainCounter? = PlainCounter() }

enum PlainHopCase { case counter(PlainCounter), other }
