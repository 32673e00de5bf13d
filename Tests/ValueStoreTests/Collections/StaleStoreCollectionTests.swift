import Testing
@testable import ValueStore

/// A collection of element stores made before a change and indexed after it — what SwiftUI's
/// `ForEach` does with the collection of its last render — never crashes: each shape of removal ×
/// whether the element's store was made before × how the collection is indexed.
@MainActor
@Suite struct StaleStoreCollectionTests {
  enum Removal: CaseIterable, Sendable {
    case byID, allRows, replacedArray, removedThenAddedBack
  }
  enum Access: CaseIterable, Sendable {
    case position, iteration, map
  }

  @Test(arguments: Removal.allCases, [false, true])
  func aStaleCollectionIndexedAfterARemovalReturnsTheLastKnownState(removal: Removal, madeBefore: Bool) {
    for access in Access.allCases {
      let store = listStore()
      store.send(.rows(.element(id: 2, action: .increment)))
      let rows = store.scope(state: \.rows, action: CasePath(ListAction.rows))
      if madeBefore { _ = rows[1] }
      switch removal {
      case .byID: store.send(.remove(2))
      case .allRows: for id in 1...3 { store.send(.remove(id)) }
      case .replacedArray: store.send(.setRows([Row(id: 7)]))
      case .removedThenAddedBack: store.send(.remove(2)); store.send(.append(2))
      }
      let stale: Store<Row, RowAction>
      switch access {
      case .position: stale = rows[1]
      case .iteration: stale = Array(rows)[1]
      case .map: stale = rows.map { $0 }[1]
      }
      #expect(stale.id == 2)
      if removal == .removedThenAddedBack {
        #expect(stale.count == 0, "the element now in the array")
        continue
      }
      #expect(stale.count == 1, "the state it had when last seen")
      let warnings = Warnings()
      let before = store.currentState
      RuntimeWarning.withHandler({ warnings.append($0) }) { stale.send(.increment) }
      #expect(store.currentState == before)
      #expect(warnings.all.count == 1)
      #expect(rows[id: 2] == nil, "by id, a gone element has no store")
    }
  }

  @Test func aGoneElementsStoreIsNotKeptByTheCache() {
    let store = listStore()
    let rows = store.scope(state: \.rows, action: CasePath(ListAction.rows))
    store.send(.remove(2))
    weak let stale = rows[1]
    #expect(stale == nil)
    store.send(.append(2))
    #expect(store.scope(state: \.rows, action: CasePath(ListAction.rows))[id: 2]?.count == 0)
  }

  @Test func aStaleStackCollectionIndexedAfterAPop() {
    let store = Store(initialState: StackHost()) {
      Reduce<StackHost, StackHostAction> { state, action in
        if case .pop = action { _ = state.path.popLast() }
        return .none
      }
    }
    let path = store.scope(state: \StackHost.path, action: StackHostAction.path)
    #expect(path.count == 2)
    store.send(.pop)
    #expect(path[1].withState { $0 } == 2)
    #expect(path[0].withState { $0 } == 1)
  }
}

struct StackHost: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var path = StackState<Int>([1, 2])
  }
  var _$fields = Observed(Fields())
}

enum StackHostAction: Sendable {
  case path(StackAction<Int, Never>)
  case pop
}
