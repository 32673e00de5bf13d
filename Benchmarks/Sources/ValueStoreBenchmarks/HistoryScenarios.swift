import ValueStore

/// A send after `StateHistory.record()` on a list screen whose every row is observed through its
/// element store (issue 33, item 5b). The snapshot the history keeps makes the send fork what it
/// writes; that must cost O(what the send changes) — one row — not O(the registrations on the
/// values it forks): adoption moved every row observer's registration of the root at each such
/// send (148 µs at 1k rows, 2.6 ms at 16k when measured for the issue; the demo's 20,000 piped
/// adds took 120 s in release).
///
/// The send itself is O(rows) whatever the design: after a snapshot it copies the rows array (the
/// plain column, a plain struct's rows with a history of copies, one row changed, grows ≈ 23× from
/// 1k to 16k). So each size has a baseline row, the same store, rows, record() and send with no
/// element store scoped or observed, and the goal compares the observed row with it at 16k:
/// observation's share of the send, which must not grow with the observers.
enum HistoryScenarios {
  static let sizes = [1_000, 16_000]
  /// The history's length: `StateHistory`'s default.
  static let limit = 100

  static func name(stores: Int) -> String {
    "record + send, \(StoreScenarios.rowsLabel(stores)) observed element stores"
  }

  /// The baseline of ``name(stores:)``: the same rows, nothing observed.
  static func unobservedName(rows: Int) -> String {
    "record + send, \(StoreScenarios.rowsLabel(rows)) unobserved rows"
  }

  static func firesKey(stores: Int) -> String { "ours.history.recordSend.\(stores).fires" }

  static var all: [Scenario] {
    sizes.flatMap { stores in [observed(stores: stores), unobserved(rows: stores)] }
  }

  private static func plain(rows: Int) -> Workload {
    Workload("plain.history.recordSend.\(rows)", setUp: { PlainHistory(rows: rows) }) { plain, n in
      for i in 0..<n { plain.recordAndChange(i) }
    }
  }

  private static func observed(stores: Int) -> Scenario {
    Scenario(
      name: name(stores: stores),
      note: """
        \(stores) rows, each watched through its element store (`rows[i].observe { row.count }`, \
        `rows = store.scope(state: \\.rows, action:)`), a `StateHistory(store)` (limit \(limit)); \
        one operation is `history.record()` then `store.send(.rows(.element(id:, action: \
        .increment)))` through `.forEach`, cycling through the rows: the snapshot, the fork of the \
        root and of one row, the row's observer (counted: exactly 1 fires per send, see Goals). \
        One record + send is made in the set-up (the first send after the watchers registered \
        indexes their registrations). Plain: a struct's rows kept in a list of \(limit) copies, \
        one row's `count += 1`: the copy of the array a snapshot forces, the floor of this row.
        """,
      ours: Workload("ours.history.recordSend.\(stores)", setUp: { HistoryScreen(rows: stores) }) { screen, n in
        MainActor.assumeIsolated {
          for i in 0..<n { screen.recordAndSend(i) }
        }
        screen.fired.record(firesKey(stores: stores), operations: n, initial: screen.initialFires)
      },
      plain: plain(rows: stores))
  }

  private static func unobserved(rows: Int) -> Scenario {
    Scenario(
      name: unobservedName(rows: rows),
      note: """
        The baseline of "\(name(stores: rows))": the same store of \(rows) rows, the same \
        `StateHistory(store)` (limit \(limit)), the same set-up send and the same operation \
        (`history.record()` then one row's `.increment` through `.forEach`, cycling through the \
        rows), but no element store scoped and nothing observed. The observed row ÷ this one is \
        observation's share of the send (see Goals). Plain: as in the observed row.
        """,
      ours: Workload(
        "ours.history.recordSend.unobserved.\(rows)", setUp: { HistoryScreen(rows: rows, observed: false) }
      ) { screen, n in
        MainActor.assumeIsolated {
          for i in 0..<n { screen.recordAndSend(i) }
        }
      },
      plain: plain(rows: rows))
  }
}

/// The list screen with an undo history: a store, one watcher per element store (unless
/// `observed` is false: then no element store at all), the history.
@MainActor
final class HistoryScreen {
  let store: Store<RowsState, RowsListAction>
  let history: StateHistory<RowsState, RowsListAction>
  nonisolated let fired = FireCounter()
  /// The watchers' calls before the timed sends: their first runs and the set-up's send.
  nonisolated let initialFires: Int
  private let rows: Int
  private var tokens: [ObservationToken] = []

  nonisolated init(rows: Int, observed: Bool = true) {
    self.rows = rows
    (store, history) = MainActor.assumeIsolated {
      let store = rowsForEachStore(count: rows)
      return (store, StateHistory(store, limit: HistoryScenarios.limit))
    }
    initialFires = observed ? rows + 1 : 0
    MainActor.assumeIsolated {
      if observed {
        let (elements, fired) = (store.scope(state: \.rows, action: RowsListAction.rowsPath), fired)
        tokens = elements.map { row in
          row.observe {
            blackHole(row.count)
            fired.fire()
          }
        }
      }
      // Warm-up, untimed: see the scenario's note. The timed sends cycle from row 0.
      recordAndSend(rows - 1)
    }
    precondition(fired.count == initialFires, "record + send set-up: \(fired.count) fires, expected \(initialFires)")
  }

  func recordAndSend(_ i: Int) {
    history.record()
    store.send(.incrementRow(i % rows))
  }
}

/// The floor: a plain struct's rows and a list of copies of them.
struct PlainHistory {
  var rows: PlainRows
  var past: [PlainRows] = []

  init(rows: Int) { self.rows = PlainRows(count: rows) }

  mutating func recordAndChange(_ i: Int) {
    past.append(rows)
    if past.count > HistoryScenarios.limit { past.removeFirst(past.count - HistoryScenarios.limit) }
    rows.rows[rows.offsets[i % rows.rows.count]!].count += 1
  }
}
