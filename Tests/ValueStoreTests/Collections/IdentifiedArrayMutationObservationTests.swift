import Foundation
import Testing

@testable import ValueStore

/// The observation contract (Design.md §3; Documentation/Store.md, "Collections") for each mutation swift-identified-collections has
/// and this array lacked until issue 32: a structural change notifies the structure's readers; a
/// replaced or removed element, its readers; an element that only moves, nobody. One table, run
/// on rows 1, 2, 3 inside a holder and on a bare value.
@Suite struct IdentifiedArrayMutationObservationTests {
  struct Mutation: CustomTestStringConvertible, Sendable {
    let name: String
    /// Whether the ids, their order or the count change.
    let structure: Bool
    /// The rows (of 1, 2, 3) replaced by another value or removed.
    let rows: Set<Int>
    let apply: @Sendable (inout IdentifiedArrayOf<Row>) -> Void
    var testDescription: String { name }
  }

  static let mutations: [Mutation] = [
    Mutation(name: "remove(element)", structure: true, rows: [2]) { $0.remove(Row(id: 2, title: "other")) },
    Mutation(name: "remove(absent element)", structure: false, rows: []) { $0.remove(Row(id: 9)) },
    Mutation(name: "append(contentsOf: present, new)", structure: true, rows: []) {
      $0.append(contentsOf: [Row(id: 1, title: "ignored"), Row(id: 4)])
    },
    Mutation(name: "append(contentsOf: present)", structure: false, rows: []) { $0.append(contentsOf: [Row(id: 1)]) },
    Mutation(name: "update(_:at:)", structure: false, rows: [2]) { $0.update(Row(id: 2, count: 5), at: 1) },
    Mutation(name: "update(_:at:) with itself", structure: false, rows: []) { $0.update($0[1], at: 1) },
    Mutation(name: "updateOrAppend(present)", structure: false, rows: [2]) { $0.updateOrAppend(Row(id: 2)) },
    Mutation(name: "updateOrAppend(new)", structure: true, rows: []) { $0.updateOrAppend(Row(id: 4)) },
    Mutation(name: "updateOrInsert(present)", structure: false, rows: [3]) { $0.updateOrInsert(Row(id: 3), at: 0) },
    Mutation(name: "updateOrInsert(new)", structure: true, rows: []) { $0.updateOrInsert(Row(id: 4), at: 0) },
    Mutation(name: "removeFirst()", structure: true, rows: [1]) { $0.removeFirst() },
    Mutation(name: "removeLast()", structure: true, rows: [3]) { $0.removeLast() },
    Mutation(name: "removeFirst(2)", structure: true, rows: [1, 2]) { $0.removeFirst(2) },
    Mutation(name: "removeLast(2)", structure: true, rows: [2, 3]) { $0.removeLast(2) },
    Mutation(name: "removeFirst(0)", structure: false, rows: []) { $0.removeFirst(0) },
    Mutation(name: "removeSubrange(1..<2)", structure: true, rows: [2]) { $0.removeSubrange(1..<2) },
    Mutation(name: "removeSubrange(1...)", structure: true, rows: [2, 3]) { $0.removeSubrange(1...) },
    Mutation(name: "popLast()", structure: true, rows: [3]) { _ = $0.popLast() },
    Mutation(name: "replaceSubrange: one removed, one stored again, one new", structure: true, rows: [1, 2]) {
      $0.replaceSubrange(0..<2, with: [Row(id: 2), Row(id: 4)])
    },
    Mutation(name: "replaceSubrange: one outside the range", structure: true, rows: [1, 3]) {
      $0.replaceSubrange(0..<1, with: [Row(id: 3)])
    },
    Mutation(name: "replaceSubrange: the same elements", structure: false, rows: []) {
      $0.replaceSubrange(0..<2, with: Array($0[0..<2]))
    },
    Mutation(name: "insert(contentsOf:at:)", structure: true, rows: []) { $0.insert(contentsOf: [Row(id: 4)], at: 1) },
    Mutation(name: "+=", structure: true, rows: []) { $0 += [Row(id: 4)] },
    Mutation(name: "self[0] = row with another present id", structure: true, rows: [3]) { $0[0] = Row(id: 3) },
    Mutation(name: "self[0] = that row itself", structure: true, rows: []) { $0[0] = $0[2] },
    Mutation(name: "self[0] = row with a new id", structure: true, rows: [1]) { $0[0] = Row(id: 4) },
    Mutation(name: "sort(using:)", structure: true, rows: []) { $0.sort(using: KeyPathComparator(\.id, order: .reverse)) },
    Mutation(name: "sort(using:), order kept", structure: false, rows: []) { $0.sort(using: KeyPathComparator(\.id)) },
    Mutation(name: "MutableCollection.sort (generic)", structure: true, rows: []) { sortGenerically(&$0) },
    Mutation(name: "slice reverse()", structure: true, rows: []) { $0[0..<2].reverse() },
  ]

  /// Readers of the structure and of each row's `count`, then the mutation: each reader must have
  /// heard it exactly when the table says.
  @Test(arguments: mutations)
  func throughAHolder(_ mutation: Mutation) throws {
    let root = ObservedRoot(ListState(rows: 3))
    let structure = tracking { _ = root.rows.count }
    let rows = (1...3).map { id in tracking { _ = root.rows[id: id]?.count } }
    root.mutate { mutation.apply(&$0.rows) }
    #expect(structure.count == (mutation.structure ? 1 : 0), "structure readers")
    for (offset, recorder) in rows.enumerated() {
      #expect(recorder.count == (mutation.rows.contains(offset + 1) ? 1 : 0), "readers of row \(offset + 1)")
    }
    try root.read { try $0.rows._checkInvariants() }
  }

  @Test(arguments: mutations)
  func onABareValue(_ mutation: Mutation) throws {
    var state = ListState(rows: 3)
    let structure = tracking { _ = state.rows.count }
    let rows = (1...3).map { id in tracking { _ = state.rows[id: id]?.count } }
    mutation.apply(&state.rows)
    #expect(structure.count == (mutation.structure ? 1 : 0), "structure readers")
    for (offset, recorder) in rows.enumerated() {
      #expect(recorder.count == (mutation.rows.contains(offset + 1) ? 1 : 0), "readers of row \(offset + 1)")
    }
    try state.rows._checkInvariants()
  }
}

/// The standard library's `sort()` of a `MutableCollection` that has no contiguous storage: it
/// sorts a copy and writes every element back by position.
private func sortGenerically<C: MutableCollection & RandomAccessCollection>(_ collection: inout C)
where C.Element == Row {
  collection.sort { $0.id > $1.id }
}
