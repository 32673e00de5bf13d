import ValueStore

/// Adding an observed row to a list screen that already has n of them, as the demo's `add` does:
/// the reducer appends a row and updates a sibling field (`total`); one observer per row watches
/// its element store's count (as a list row view does), one watches the list's ids. If the time
/// per add grows with n, adding n rows costs O(n²) (it did: each add scanned every row
/// observer's registration). The goal compares the time per add at 10k rows with 1k.
enum ListGrowthScenarios {
  static let sizes = [1_000, 10_000]

  static func name(rows: Int) -> String { "add an observed row, \(StoreScenarios.rowsLabel(rows)) rows" }

  static var all: [Scenario] {
    sizes.map { rows in
      Scenario(
        name: name(rows: rows),
        note: """
          `store.send(.add)` on a list of \(rows) rows, each watched through its element store \
          (`store.observe { row.count }`), plus a watcher of the ids (which starts the new row's \
          watcher): the append, the sibling field's write, the ids' observer, one new observer. \
          One add is made in the set-up: the first after the watchers registered pays once for \
          indexing their registrations (≈ 2 ms at 10k), which, timed with the few adds a sample \
          makes, swung this row between 20 and 350 µs from run to run.
          """,
        ours: Workload("ours.list.add.\(rows)", setUp: { warmedUp(ListScreen(rows: rows)) }) { screen, n in
          MainActor.assumeIsolated {
            for _ in 0..<n { screen.add() }
          }
        })
    }
  }
}

/// `screen` after one add (see the scenario's note).
private func warmedUp(_ screen: ListScreen) -> ListScreen {
  MainActor.assumeIsolated { screen.add() }
  return screen
}

/// The list screen: a store, its row watchers and its ids watcher.
@MainActor
final class ListScreen {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var rows: IdentifiedArrayOf<Row> = []
      var total = 0
    }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable { case add, rows(IdentifiedAction<Int, RowAction>) }

  let store: Store<State, Action>
  private var tokens: [ObservationToken] = []
  private var watched = 0

  nonisolated init(rows: Int) {
    store = MainActor.assumeIsolated {
      Store(initialState: State(.init(rows: IdentifiedArray(uniqueElements: (0..<rows).lazy.map(Row.init(id:)))))) {
        Reduce<State, Action> { state, action in
          if case .add = action {
            state.rows.append(Row(id: state.rows.count))
            state.total += 1
          }
          return .none
        }
      }
    }
    MainActor.assumeIsolated {
      tokens.append(
        store.observe { [unowned self] in
          let rows = store.scope(state: \.rows, action: Action.rows)
          untracked { self.watchNewRows(rows) }
        })
    }
  }

  func add() { store.send(.add) }

  private func watchNewRows(_ rows: StoreCollection<Int, Row, RowAction>) {
    while watched < rows.ids.count {
      let row = rows[watched]
      tokens.append(row.observe { blackHole(row.count) })
      watched += 1
    }
  }
}
