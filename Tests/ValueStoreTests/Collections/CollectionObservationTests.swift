import Testing
@testable import ValueStore

/// Rows T1–T11 of the collections contract, inside a root holder.
@Suite struct CollectionObservationTests {
  @Test func t1_structureObserversSeeAppendRemoveMoveAndReorderingSort() {
    let root = ObservedRoot(ListState(rows: 3))
    let operations: [(inout ListState) -> Void] = [
      { $0.rows.append(Row(id: 10)) },
      { $0.rows.remove(id: 10) },
      { $0.rows.move(fromOffsets: [0], toOffset: 3) },
      { $0.rows.sort { $0.id < $1.id } },
    ]
    for operation in operations {
      let count = tracking { root.rows.count }
      let ids = tracking { Array(root.rows.ids) }
      root.mutate(operation)
      #expect(count.count == 1)
      #expect(ids.count == 1)
    }
  }

  @Test func t2_elementFieldObserverSeesItsChange() {
    let root = ObservedRoot(ListState(rows: 3))
    let recorder = tracking { root.rows[id: 1]?.count }
    root.mutate { $0.rows[id: 1]?.count += 1 }
    #expect(recorder.count == 1)
    #expect(recorder.last?.contains(\Row.Fields.count) == true)
  }

  @Test func t3_otherRowsAndStructureAreNotNotified() {
    let root = ObservedRoot(ListState(rows: 3))
    let count = tracking { root.rows.count }
    let other = tracking { root.rows[id: 2]?.count }
    root.mutate { $0.rows[id: 1]?.count += 1 }
    #expect(count.count == 0)
    #expect(other.count == 0)
  }

  @Test func t4_oneRowOfAThousandNotifiesExactlyOneObserver() {
    let root = ObservedRoot(ListState(rows: 1_000))
    let recorders = (1...1_000).map { id in tracking { root.rows[id: id]?.count } }
    root.mutate { $0.rows[id: 500]?.count += 1 }
    #expect(recorders.map(\.count).reduce(0, +) == 1)
    #expect(recorders[499].count == 1)
  }

  @Test func t5_appendNotifiesStructureObserversOnly() {
    let root = ObservedRoot(ListState(rows: 100))
    let rows = (1...100).map { id in tracking { root.rows[id: id]?.count } }
    let structure = tracking { root.rows.count }
    root.mutate { $0.rows.append(Row(id: 101)) }
    #expect(rows.allSatisfy { $0.count == 0 })
    #expect(structure.count == 1)
  }

  @Test func t6_replacingARowWithADifferentValueNotifiesItsReaders() {
    let root = ObservedRoot(ListState(rows: 3))
    let recorder = tracking { root.rows[id: 1]?.title }
    root.mutate { $0.rows[id: 1] = Row(id: 1, title: "new") }
    #expect(recorder.count == 1)
  }

  @Test func t7_removingARowNotifiesItsReaders() {
    let root = ObservedRoot(ListState(rows: 3))
    let recorder = tracking { root.rows[id: 1]?.count }
    root.mutate { $0.rows.remove(id: 1) }
    #expect(recorder.count == 1)
  }

  @Test func t8_rowCopiedOutMutatedAndWrittenBackNotifiesExactlyItsChanges() {
    let root = ObservedRoot(ListState(rows: 3))
    var copy = root.rows[id: 1]!
    copy.count = 7
    let count = tracking { root.rows[id: 1]?.count }
    let title = tracking { root.rows[id: 1]?.title }
    let other = tracking { root.rows[id: 2]?.count }
    let structure = tracking { root.rows.count }
    root.mutate { $0.rows[id: 1] = copy }
    #expect(count.count == 1)
    #expect(title.count == 0)
    #expect(other.count == 0)
    #expect(structure.count == 0)
    #expect(root.rows[id: 1]?.count == 7)
  }

  @Test func t9_mutatingARowWhileASnapshotIsAliveNotifiesOnlyThatRow() {
    let root = ObservedRoot(ListState(rows: 3))
    let count = tracking { root.rows[id: 1]?.count }
    let title = tracking { root.rows[id: 1]?.title }
    let other = tracking { root.rows[id: 2]?.count }
    let structure = tracking { root.rows.count }
    let snapshot = root.currentValue
    root.mutate { $0.rows[id: 1]?.count += 1 }
    #expect(count.count == 1)
    #expect(title.count == 0)
    #expect(other.count == 0)
    #expect(structure.count == 0)
    #expect(snapshot.rows[id: 1]?.count == 0)
    let again = tracking { root.rows[id: 1]?.count }
    root.mutate { $0.rows[id: 1]?.count += 1 }
    #expect(again.count == 1)
  }

  @Test func t10_sortThatKeepsTheOrderNotifiesNobody() {
    let root = ObservedRoot(ListState(rows: 3))
    let recorder = tracking { root.rows.count }
    root.mutate { $0.rows.sort { $0.id < $1.id } }
    #expect(recorder.count == 0)
  }

  @Test func t11_plainArrayOfObservableElements() {
    let root = ObservedRoot(ListState(rows: 3))
    let array = tracking { _ = root.plain }
    let element = tracking { root.plain[0].count }
    root.mutate { $0.plain[0].count += 1 }
    #expect(array.count == 0)
    #expect(element.count == 1)

    let appended = tracking { _ = root.plain }
    root.mutate { $0.plain.append(Row(id: 9)) }
    #expect(appended.count == 1)

    // With a snapshot alive the element forks; the array's slot adopts it.
    let snapshotArray = tracking { _ = root.plain }
    let snapshotElement = tracking { root.plain[1].count }
    let snapshot = root.currentValue
    root.mutate { $0.plain[1].count += 1 }
    #expect(snapshotArray.count == 0)
    #expect(snapshotElement.count == 1)
    #expect(snapshot.plain[1].count == 0)
  }

  @Test func elementMutationByIDDoesNotCopyStorageEvenWhenObserved() {
    var state = ListState(rows: 100_000)
    let recorders = (1...1_000).map { id in tracking { state.rows[id: id * 100]?.count } }
    let before = state.rows._elements._storageAddresses
    state.rows[id: 50_000]?.count += 1
    state.rows[id: 777]?.count += 1
    #expect(state.rows._elements._storageAddresses == before)
    #expect(recorders[499].count == 1)
    #expect(recorders.map(\.count).reduce(0, +) == 1)
  }
}
