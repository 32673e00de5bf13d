import Testing
@testable import ValueStore

/// A copy of a value *below a field* of a bare value (outside any holder), edited deeper down and
/// written back into that field: the bare readers of what the copy changed below the field hear
/// it, at least as a holder's readers do (Design.md §3: nothing lost). The shape B34 found for a
/// collection's elements, for every kind of step below the field: a child's field, an element, an
/// optional child, an enum's payload — each edited in place or replaced, each read in each way.
@Suite struct BareWriteBackTests {
  /// A value two fields deep: `nest.state.child.count` is three steps below the variable.
  struct Nest: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var state = RelState()
    }
    var _$fields = Observed(Fields())
  }

  static func seed(_ nest: inout Nest) {
    nest.state.rows.append(Row(id: 2))
    nest.state.optional = Child()
    nest.state.mode = .editing(Child())
  }

  static let edits: [(name: String, edit: @Sendable (inout RelState) -> Void)] = [
    ("child edited", { $0.child.count += 1 }),
    ("child replaced", { $0.child = Child() }),
    ("element edited", { $0.rows[id: 2]?.count += 1 }),
    ("element replaced", { $0.rows[id: 2] = Row(id: 2) }),
    ("element removed", { _ = $0.rows.remove(id: 2) }),
    ("optional edited", { $0.optional?.count += 1 }),
    ("optional set to nil", { $0.optional = nil }),
    ("payload edited", { $0.mode.modifyEditing { $0.count += 1 } }),
  ]
  static let reads: [(name: String, read: @Sendable (Nest) -> Void)] = [
    ("state.child.count", { _ = $0.state.child.count }),
    ("state.rows[id: 2]?.count", { _ = $0.state.rows[id: 2]?.count }),
    ("state.rows.map(\\.count)", { _ = $0.state.rows.map(\.count) }),
    ("state.optional?.count", { _ = $0.state.optional?.count }),
    ("state.mode.payload?.count", { _ = $0.state.mode.payload?.count }),
    ("state == state", { _ = $0.state == $0.state }),
  ]

  /// `snapshot`: whether a snapshot of the bare value is alive (its root forks on the write-back,
  /// and records it) or not.
  @Test(arguments: 0..<edits.count, 0..<reads.count)
  func aCopyEditedBelowAFieldWrittenBackIntoABareValueTellsItsReaders(_ edit: Int, _ read: Int) {
    let (editName, change) = Self.edits[edit]
    let (readName, readNest) = Self.reads[read]
    for snapshotAlive in [false, true] {
      var nest = Nest()
      Self.seed(&nest)
      let snapshot = snapshotAlive ? nest : Nest()
      var copy = nest.state
      change(&copy)
      let bare = tracking { readNest(nest) }
      nest.state = copy

      let root = ObservedRoot(Nest())
      root.mutate { Self.seed(&$0) }
      let rootSnapshot = root.currentValue
      var rootCopy = root.currentValue.state
      change(&rootCopy)
      let held = tracking { root.read { readNest($0) } }
      root.mutate { $0.state = rootCopy }

      withExtendedLifetime((snapshot, rootSnapshot, copy, rootCopy)) {}
      #expect(
        bare.count >= held.count,
        "lost: \(editName), \(readName), snapshot \(snapshotAlive): bare \(bare.count), holder \(held.count)")
      #expect(held.count <= 1)
    }
  }

  /// The readers who heard nothing follow the value written back: a later change of what they
  /// read reaches them.
  @Test func theReadersBelowFollowTheValueWrittenBack() {
    var nest = Nest()
    Self.seed(&nest)
    let snapshot = nest
    var copy = nest.state
    copy.rows[id: 2]?.count += 1
    let title = tracking { _ = nest.state.rows[id: 2]?.title }
    nest.state = copy
    #expect(title.count == 0)
    nest.state.rows[id: 2]?.title = "x"
    #expect(title.count == 1)
    withExtendedLifetime(snapshot) {}
  }
}
