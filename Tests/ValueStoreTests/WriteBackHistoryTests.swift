import Testing
@testable import ValueStore

/// A value keeps its history wherever it is placed: written where a value it descends from is (or a
/// value equal to it by history: placed from the same source, not written since), it is a
/// write-back, and only the readers of what was written since hear it (Design.md §3, B6).
@Suite struct WriteBackHistoryTests {
  @Test func theSameCopyWrittenBackTwiceNotifiesNobody() {
    let root = ObservedRoot(RelState())
    let title = tracking { root.read { $0.child.title } }
    let copy = root.currentValue.child
    root.mutate { $0.child = copy }
    root.mutate { $0.child = copy }
    #expect(title.count == 0)
  }

  @Test func aCollectionCopyWrittenBackTwiceAroundAnUnchangedSortNotifiesNobody() {
    let root = ObservedRoot(RelState())
    var copy = root.currentValue.rows
    copy[id: 3] = Row(id: 3, count: 0)
    root.mutate { $0.rows = copy }
    let count = tracking { root.read { $0.rows.count } }
    root.mutate { $0.rows.sort { $0.count < $1.count } }
    root.mutate { $0.rows = copy }
    #expect(count.count == 0)
  }

  @Test func theSameCopyWrittenBackBeforeAndAfterAReadNotifiesNobody() {
    let root = ObservedRoot(RelState())
    let copy = root.currentValue.child
    root.mutate { $0.child = copy }
    let child = tracking { root.read { $0.child } }
    root.mutate { $0.child = copy }
    #expect(child.count == 0)
  }
}
