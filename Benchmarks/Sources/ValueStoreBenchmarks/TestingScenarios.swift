import StoreTesting
import ValueStore

/// What a test pays: a `TestStore` send with its exhaustive state check, and dumping and diffing
/// large states (what every failing assertion does).
///
/// The plain column runs the same function on the same data held in plain structs and a plain
/// array: what observability (``Observed``, ``IdentifiedArray``) adds to a dump.
enum TestingScenarios {
  static let dumpedRows = 10_000

  /// Names of the `TestStore` rows, which the Goals section looks up.
  static let testStoreCounterName = "TestStore send + check, counter"
  static let testStoreRowsName = "TestStore send + check, 1 row of 10k"
  static let diffName = "diff, 10k rows, 1 changed"

  static var all: [Scenario] {
    [
      Scenario(
        name: testStoreCounterName,
        note: """
          `await store.send(.increment) { $0.count = k }` on a TestStore: the send through the \
          inner store, the action log, the expected-state closure and the exhaustive `==` \
          checks. No effects, so nothing suspends and everything runs on the main actor \
          (measured as an async workload, see Scenario.swift). Outside a test a failed check \
          reports nowhere; the expectations mirror the reducer, and a failing one would show \
          as milliseconds (it dumps and diffs). TCA ≈ 28.6 µs.
          """,
        ours: Workload(
          "ours.testStore.counter",
          setUp: { TestStore(initialState: Counter(), reducer: CounterFeature()) },
          asyncBody: { store, n in
            for i in 0..<n { await store.send(.increment) { $0.count = i + 1 } }
            // Outside a test a failed check reports nowhere: at least make sure every send ran.
            precondition(store.state.count == n, "ours.testStore.counter: sends were lost")
          })
      ),
      Scenario(
        name: testStoreRowsName,
        note: """
          As above on a state of 10,000 rows: `await store.send(.increment(id: id)) { \
          $0.rows[id: id]?.count = k }`, cycling through the rows.
          """,
        ours: Workload(
          "ours.testStore.rows.10000",
          setUp: { TestStore(initialState: RowsState(count: dumpedRows), reducer: RowsFeature()) },
          asyncBody: { store, n in
            for i in 0..<n {
              let (id, count) = (i % dumpedRows, i / dumpedRows + 1)
              await store.send(.increment(id: id)) { $0.rows[id: id]?.count = count }
            }
            precondition(store.state.rows[id: 0]?.count == (n + dumpedRows - 1) / dumpedRows)
          })
      ),
      Scenario(
        name: diffName,
        note: """
          `diff(a, b)` of two states with 10,000 rows that differ in one row's count (a copy with \
          the row changed): the walk of both states, which skips runs of equal rows unprinted \
          (compared by `==`, O(1) for a row whose storage the copy still shares), the dump of the \
          changed row, the line diff and its text. The plain column's rows are not `Equatable`: \
          it compares them by their dumps, so it dumps all of them.
          """,
        ours: Workload("ours.diff.10000", setUp: { twoStates(differingIn: 5_000) }) { states, n in
          for _ in 0..<n { blackHole(diff(states.0, states.1)) }
        },
        plain: Workload("plain.diff.10000", setUp: { twoPlainStates(differingIn: 5_000) }) { states, n in
          for _ in 0..<n { blackHole(diff(states.0, states.1)) }
        }
      ),
      Scenario(
        name: "dump, 10k rows",
        note: "`String(customDumping: state)` of a state with 10,000 rows.",
        ours: Workload("ours.dump.10000", setUp: { RowsState(count: dumpedRows) }) { state, n in
          for _ in 0..<n { blackHole(String(customDumping: state)) }
        },
        plain: Workload("plain.dump.10000", setUp: { PlainRowsState(count: dumpedRows) }) { state, n in
          for _ in 0..<n { blackHole(String(customDumping: state)) }
        }
      ),
    ]
  }

  private static func twoStates(differingIn id: Int) -> (RowsState, RowsState) {
    let first = RowsState(count: dumpedRows)
    var second = first
    second.rows[id: id]?.count += 1
    return (first, second)
  }

  private static func twoPlainStates(differingIn id: Int) -> (PlainRowsState, PlainRowsState) {
    let first = PlainRowsState(count: dumpedRows)
    var second = first
    second.rows[id].count += 1
    return (first, second)
  }
}

/// ``RowsState`` without observation: the floor for dumps and diffs.
struct PlainRowsState {
  var rows: [AppleRow]

  init(count: Int) { rows = (0..<count).map { AppleRow(id: $0) } }
}
