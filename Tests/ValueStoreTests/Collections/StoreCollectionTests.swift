import Testing
@testable import ValueStore

enum RowAction: Equatable, Sendable { case increment, rename(String) }
enum ListAction: Equatable, Sendable {
  case rows(IdentifiedAction<Int, RowAction>)
  case append(Int)
  case remove(Int)
  case replace(Row)
  case setRows([Row])
}

@MainActor
func listStore(rows: Int = 3) -> Store<ListState, ListAction> {
  Store(initialState: ListState(rows: rows)) {
    Reduce<ListState, ListAction> { state, action in
      switch action {
      case .rows: break
      case let .append(id): state.rows.append(Row(id: id))
      case let .remove(id): state.rows.remove(id: id)
      case let .replace(row): state.rows[id: row.id] = row
      case let .setRows(rows): state.rows = IdentifiedArray(uniqueElements: rows)
      }
      return .none
    }
    .forEach(\.rows, action: CasePath(ListAction.rows)) {
      Reduce<Row, RowAction> { row, action in
        switch action {
        case .increment: row.count += 1
        case let .rename(title): row.title = title
        }
        return .none
      }
    }
  }
}

@MainActor
@Suite struct StoreCollectionTests {
  @Test func forEachRunsTheElementReducerOnTheNamedElement() {
    let store = listStore()
    store.send(.rows(.element(id: 2, action: .increment)))
    #expect(store.rows[id: 2]?.count == 1)
    #expect(store.rows[id: 1]?.count == 0)
  }

  @Test func forEachMutatesTheElementInPlace() {
    let store = listStore(rows: 10_000)
    func buffer() -> [UnsafeRawPointer?] { store.withState { $0.rows._elements._storageAddresses } }
    let before = buffer()
    store.send(.rows(.element(id: 5_000, action: .increment)))
    #expect(buffer() == before)
    #expect(store.rows[id: 5_000]?.count == 1)
  }

  @Test func forEachReportsAnActionForAMissingElement() {
    let warnings = Warnings()
    let store = listStore()
    let before = store.currentState
    RuntimeWarning.withHandler({ warnings.append($0) }) {
      store.send(.rows(.element(id: 99, action: .increment)))
    }
    #expect(store.currentState == before)
    #expect(warnings.all == ["forEach received increment for element 99, which is not in the array; ignored."])
  }

  @Test func elementStoresAreStablePerIDAndGoAwayOnRemoval() {
    let store = listStore()
    let rows = store.scope(state: \.rows, action: CasePath(ListAction.rows))
    #expect(rows.count == 3)
    let second = rows[1]
    #expect(second === rows[id: 2])
    #expect(second === store.scope(state: \.rows, action: CasePath(ListAction.rows))[1])
    second.send(.increment)
    #expect(second.count == 1)
    #expect(store.rows[id: 2]?.count == 1)

    weak let removed = second
    store.send(.remove(2))
    #expect(store.scope(state: \.rows, action: CasePath(ListAction.rows))[id: 2] == nil)
    #expect(removed == nil || removed?.hasState == false)
  }

  @Test func droppedElementStoresAreReleased() {
    let store = listStore()
    weak var weakRow: Store<Row, RowAction>?
    do {
      weakRow = store.scope(state: \.rows, action: CasePath(ListAction.rows))[id: 3]
      #expect(weakRow != nil)
    }
    store.send(.remove(3))
    #expect(weakRow == nil)
  }

  /// The cache's watch of the ids lives on the store's own state: it holds the store and its core
  /// weakly, and still prunes while they live.
  @Test func aStoreWithScopedRowsIsReleasedAndPrunesWhileItLives() {
    weak var weakStore: Store<ListState, ListAction>?
    weak var weakCore: AnyObject?
    weak var weakRow: Store<Row, RowAction>?
    do {
      let store = listStore()
      weakStore = store
      weakCore = store.core
      weakRow = store.scope(state: \.rows, action: CasePath(ListAction.rows))[id: 2]
      store.send(.append(4))
      #expect(weakRow != nil)
      store.send(.remove(2))
      #expect(weakRow == nil)
      // A cached element store, made last, keeps neither the store nor its core alive either.
      _ = store.scope(state: \.rows, action: CasePath(ListAction.rows))[id: 4]
    }
    #expect(weakStore == nil)
    #expect(weakCore == nil)
  }

  @Test func anElementStoreFollowsItsID() {
    // As SwiftUI's `ForEach` identifies rows: the store of id 1 is the store of whatever row has
    // id 1 — replaced, removed and added back — and ignores sends while there is none.
    let warnings = Warnings()
    let store = listStore()
    let row = store.scope(state: \.rows, action: CasePath(ListAction.rows))[id: 1]!
    store.send(.replace(Row(id: 1, count: 5)))
    row.send(.increment)
    #expect(store.rows[id: 1]?.count == 6)
    store.send(.remove(1))
    RuntimeWarning.withHandler({ warnings.append($0) }) { row.send(.increment) }
    #expect(warnings.all.count == 1)
    store.send(.append(1))
    row.send(.increment)
    #expect(store.rows[id: 1]?.count == 1)
  }

  @Test func sendingToARemovedElementsStoreIsReportedAndChangesNothing() {
    let warnings = Warnings()
    let store = listStore()
    let row = store.scope(state: \.rows, action: CasePath(ListAction.rows))[id: 1]!
    store.send(.remove(1))
    let before = store.currentState
    RuntimeWarning.withHandler({ warnings.append($0) }) { row.send(.increment) }
    #expect(store.currentState == before)
    #expect(warnings.all == ["increment was sent to a store of ListState → Row[id: 1], whose state no longer exists; the action was ignored."])
    #expect(row.id == 1)  // reads return the last state seen
  }

  @Test func t4_oneRowOfAThousandThroughTheStore() {
    let store = listStore(rows: 1_000)
    let rows = store.scope(state: \.rows, action: CasePath(ListAction.rows))
    let recorders = rows.map { row in tracking { row.count } }
    store.send(.rows(.element(id: 500, action: .increment)))
    #expect(recorders.map(\.count).reduce(0, +) == 1)
    #expect(recorders[499].count == 1)
  }

  @Test func t8_rowWrittenBackThroughTheStoreNotifiesExactlyItsChanges() {
    let store = listStore()
    var copy = store.rows[id: 1]!
    copy.count = 5
    let row = store.scope(state: \.rows, action: CasePath(ListAction.rows))[id: 1]!
    let count = tracking { row.count }
    let title = tracking { row.title }
    let other = tracking { store.rows[id: 2]?.count }
    store.send(.replace(copy))
    #expect(count.count == 1)
    #expect(title.count == 0)
    #expect(other.count == 0)
  }

  @Test func t9_snapshotHeldWhileARowChangesThroughTheStore() {
    let store = listStore()
    let count = tracking { store.rows[id: 1]?.count }
    let other = tracking { store.rows[id: 2]?.count }
    let structure = tracking { store.rows.count }
    let snapshot = store.currentState
    store.send(.rows(.element(id: 1, action: .increment)))
    #expect(count.count == 1)
    #expect(other.count == 0)
    #expect(structure.count == 0)
    #expect(snapshot.rows[id: 1]?.count == 0)
  }
}
