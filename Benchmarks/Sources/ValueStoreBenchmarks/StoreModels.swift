import Observation
import ValueStore

// Features and list state for the store, collection and testing scenarios, each with its
// @Observable counterpart. Rows carry a short title (stored inline, no allocation) so that,
// as in real state, a row is more than its counter.

// MARK: - Counter feature

/// The trivial reducer: `.increment` adds one to ``Counter``'s `count`.
struct CounterFeature: Reducer {
  enum Action: Equatable, Sendable { case increment }

  func reduce(into state: inout Counter, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    }
    return .none
  }
}

/// Apple's side of a counter feature: the model owns its logic as a method.
@Observable
final class AppleCounterModel: @unchecked Sendable {
  var count = 0

  func increment() { count += 1 }
}

// MARK: - Rows

/// One row of a list, observed field by field.
struct Row: ObservableState, Identifiable, Equatable, Sendable {
  struct Fields: Identifiable, Equatable, Sendable {
    let id: Int
    var count = 0
    var title = "row"
  }
  var _$fields: Observed<Fields>
}

/// A list screen's state: one identified array of rows.
struct RowsState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row> = []
  }
  var _$fields = Observed(Fields())
}

/// Changes one row, found by id, in the reducer itself.
struct RowsFeature: Reducer {
  enum Action: Equatable, Sendable { case increment(id: Int) }

  func reduce(into state: inout RowsState, action: Action) -> Effect<Action> {
    switch action {
    case let .increment(id): state.rows[id: id]?.count += 1
    }
    return .none
  }
}

/// The same change composed the library's way: a row reducer run by `.forEach`.
enum RowsListAction: Equatable, Sendable {
  case rows(IdentifiedAction<Int, RowAction>)
}

enum RowAction: Equatable, Sendable { case increment }

extension RowsListAction {
  /// An explicit extraction: the reflecting `CasePath(RowsListAction.rows)` costs ≈1 µs per send.
  static let rowsPath = CasePath<RowsListAction, IdentifiedAction<Int, RowAction>>(
    embed: RowsListAction.rows,
    extract: { action in
      switch action {
      case let .rows(rowAction): rowAction
      }
    })

  static func incrementRow(_ id: Int) -> Self { .rows(.element(id: id, action: .increment)) }
}

@MainActor
func rowsForEachStore(count: Int) -> Store<RowsState, RowsListAction> {
  Store(initialState: RowsState(count: count)) {
    Reduce<RowsState, RowsListAction> { _, _ in .none }
      .forEach(\.rows, action: RowsListAction.rowsPath) {
        Reduce<Row, RowAction> { row, _ in
          row.count += 1
          return .none
        }
      }
  }
}

/// A row as Apple's Observation sees it: a struct inside an observable array property.
struct AppleRow {
  let id: Int
  var count = 0
  var title = "row"
}

@Observable
final class AppleRows: @unchecked Sendable {
  var rows: [AppleRow]

  init(count: Int) { rows = (0..<count).map { AppleRow(id: $0) } }
}

/// The floor for rows: a plain struct, found by id through a dictionary as IdentifiedArray does.
struct PlainRows {
  var rows: ContiguousArray<AppleRow>
  var offsets: [Int: Int]

  init(count: Int) {
    rows = ContiguousArray((0..<count).map { AppleRow(id: $0) })
    offsets = Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, $0) })
  }
}

extension Row {
  init(id: Int) { _$fields = Observed(Fields(id: id)) }
}

extension RowsState {
  init(count: Int) {
    _$fields = Observed(Fields(rows: IdentifiedArray(uniqueElements: (0..<count).lazy.map(Row.init(id:)))))
  }
}
