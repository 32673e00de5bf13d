import StoreTesting
import Testing
import ValueStore

/// A list of 10,000 rows: a matching send compares states with `==` (unchanged rows share their
/// storage, so each compares in O(1)), and only a failing one diffs them, folding the equal rows
/// without dumping them.
struct Sheet: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var rows = IdentifiedArrayOf<Row>()
    var selection: Int?
  }
  var _$fields = Observed(Fields())
}

struct Row: ObservableState, Equatable, Sendable, Identifiable {
  struct Fields: Equatable, Sendable, Identifiable {
    let id: Int
    var title: String
  }
  var _$fields: Observed<Fields>
}

struct SheetFeature: Reducer {
  enum Action: Equatable, Sendable {
    case select(Int)
    case rename(id: Int, title: String)
  }

  func reduce(into state: inout Sheet, action: Action) -> Effect<Action> {
    switch action {
    case let .select(id):
      state.selection = id
    case let .rename(id, title):
      state.rows[id: id]?.title = title
    }
    return .none
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreLargeStateTests {
  @Test func sendsOnTenThousandRowsAreCheckedExactly() async {
    let store = TestStore(initialState: Sheet(rowCount: 10_000)) { SheetFeature() }

    for id in [0, 5_000, 9_999] {
      await store.send(.select(id)) { $0.selection = id }
      await store.send(.rename(id: id, title: "Renamed")) { $0.rows[id: id]?.title = "Renamed" }
    }
    #expect(store.state.rows.filter { $0.title == "Renamed" }.map(\.id) == [0, 5_000, 9_999])
  }

  @Test func aWrongRowIsShownInAFoldedDiff() async {
    let line = #line + 3
    let issues = await recordIssues {
      let store = TestStore(initialState: Sheet(rowCount: 10_000)) { SheetFeature() }
      await store.send(.rename(id: 5_000, title: "Renamed")) { $0.rows[id: 5_001]?.title = "Renamed" }
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            State change does not match expectation:

                Sheet(
                  rows: IdentifiedArray([
                    … (5000 unchanged elements)
                    [id: 5000]: Row(
                      id: 5000,
              −       title: "Row 5000"
              +       title: "Renamed"
                    ),
                    [id: 5001]: Row(
                      id: 5001,
              −       title: "Renamed"
              +       title: "Row 5001"
                    ),
                    … (4998 unchanged elements)
                  ]),
                  selection: nil
                )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }
}

extension Sheet {
  init(rowCount: Int) {
    self.rows = IdentifiedArrayOf(uniqueElements: (0..<rowCount).map { Row(id: $0, title: "Row \($0)") })
  }
}

extension Row {
  init(id: Int, title: String) { _$fields = Observed(Fields(id: id, title: title)) }
}
