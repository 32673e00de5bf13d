import Foundation
import Testing
@testable import ValueStore

/// Every way to read a collection records what it reads (issue 12, defect 3: `rows.isEmpty` and
/// `rows.filter { … }.count` recorded nothing, so an append notified nobody). The read APIs are a
/// table, run on an identified array of observable rows, on a plain `[Row]` field, and on an
/// identified array of plain values, each read through a holder and on a bare value.
@Suite struct CollectionReadAPITests {
  struct Lists: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
      var plainRows: [Row] = [Row(id: 1), Row(id: 2)]
      var numbers = IdentifiedArray(uniqueElements: [1, 2], id: \Int.self)
    }
    var _$fields = Observed(Fields())
  }

  /// A read of a collection of rows, and whether it reads the rows' fields (`title`).
  struct Read: Sendable {
    let name: String
    let readsTitles: Bool
    let read: @Sendable (any RandomAccessCollection<Row>) -> Void
  }

  static let reads: [Read] = [
    Read(name: "count", readsTitles: false) { _ = $0.count },
    Read(name: "isEmpty", readsTitles: false) { _ = $0.isEmpty },
    Read(name: "first", readsTitles: false) { _ = $0.first?.id },
    Read(name: "last", readsTitles: false) { _ = $0.last?.id },
    Read(name: "endIndex", readsTitles: false) { _ = $0.endIndex },
    Read(name: "indices", readsTitles: false) { _ = $0.indices.count },
    Read(name: "underestimatedCount", readsTitles: false) { _ = $0.underestimatedCount },
    Read(name: "for-in", readsTitles: false) { for row in $0 { _ = row.id } },
    Read(name: "makeIterator().next()", readsTitles: false) { var iterator = $0.makeIterator(); _ = iterator.next() },
    Read(name: "filter", readsTitles: false) { _ = $0.filter { $0.count >= 0 }.count },
    Read(name: "map", readsTitles: false) { _ = $0.map(\.id) },
    Read(name: "compactMap", readsTitles: false) { _ = $0.compactMap { $0.count >= 0 ? $0.id : nil } },
    Read(name: "contains(where:)", readsTitles: false) { _ = $0.contains { $0.count > 5 } },
    Read(name: "allSatisfy", readsTitles: false) { _ = $0.allSatisfy { $0.count >= 0 } },
    Read(name: "reduce", readsTitles: false) { _ = $0.reduce(0) { $0 + $1.count } },
    Read(name: "firstIndex(where:)", readsTitles: false) { _ = $0.firstIndex { $0.count > 5 } },
    Read(name: "lastIndex(where:)", readsTitles: false) { _ = $0.lastIndex { $0.count > 5 } },
    Read(name: "prefix", readsTitles: false) { _ = $0.prefix(5).count },
    Read(name: "dropFirst", readsTitles: false) { _ = $0.dropFirst().count },
    Read(name: "suffix", readsTitles: false) { _ = $0.suffix(1).first?.id },
    Read(name: "Array(_:)", readsTitles: false) { _ = Array($0).count },
    Read(name: "sorted(by:)", readsTitles: false) { _ = $0.sorted { $0.count < $1.count }.count },
    Read(name: "enumerated", readsTitles: false) { enumerate($0) },
    Read(name: "lazy.map.last", readsTitles: false) { lazyLast($0) },
    Read(name: "reversed", readsTitles: false) { _ = $0.reversed().first?.id },
    Read(name: "min(by:)", readsTitles: false) { _ = $0.min { $0.count < $1.count }?.id },
    Read(name: "randomElement", readsTitles: false) { _ = $0.randomElement()?.id },
    Read(name: "withContiguousStorageIfAvailable", readsTitles: false) {
      _ = $0.withContiguousStorageIfAvailable { $0.count }
    },
    Read(name: "elementsEqual", readsTitles: true) { _ = $0.elementsEqual([Row(id: 1)]) },
    Read(name: "description", readsTitles: true) { _ = String(describing: Array($0)) },
  ]

  /// Changes of the rows: one that changes the structure, one that changes a title in place.
  static func append(_ lists: inout Lists) {
    lists.rows.append(Row(id: 3))
    lists.plainRows.append(Row(id: 3))
  }
  static func retitle(_ lists: inout Lists) {
    lists.rows[id: 2]?.title = "x"
    lists.plainRows[1].title = "x"
  }

  @Test(arguments: 0..<reads.count, [false, true])
  func anIdentifiedArrayReadThroughAHolder(_ index: Int, plain: Bool) {
    let read = Self.reads[index]
    let root = ObservedRoot(Lists())
    let fired = tracking { plain ? read.read(root.plainRows) : read.read(root.rows) }
    root.mutate(Self.retitle)
    if !read.readsTitles { #expect(fired.count == 0, "spurious: \(read.name)") }
    let before = fired.count
    root.mutate(Self.append)
    #expect(fired.count == before + (before == 0 ? 1 : 0), "lost: \(read.name)")
  }

  @Test(arguments: 0..<reads.count, [false, true])
  func anIdentifiedArrayReadOnABareValue(_ index: Int, plain: Bool) {
    let read = Self.reads[index]
    var lists = Lists()
    let fired = tracking { plain ? read.read(lists.plainRows) : read.read(lists.rows) }
    Self.retitle(&lists)
    if !read.readsTitles { #expect(fired.count == 0, "spurious: \(read.name)") }
    let before = fired.count
    Self.append(&lists)
    #expect(fired.count == before + (before == 0 ? 1 : 0), "lost: \(read.name)")
  }

  /// A row that is also `Hashable` and `Codable`.
  struct Note: ObservableState, Identifiable, Hashable, Codable, Sendable {
    struct Fields: Identifiable, Hashable, Codable, Sendable {
      var id: Int
      var text = ""
    }
    var _$fields: Observed<Fields>
  }
  struct Notes: ObservableState, Sendable {
    struct Fields: Sendable { var notes: IdentifiedArrayOf<Note> = [Note(id: 1), Note(id: 2)] }
    var _$fields = Observed(Fields())
  }

  /// Whole-value reads — `==` (of arrays of one size: otherwise only the counts are compared),
  /// hashing, encoding, `elements`, `description`, the array's own `filter` — read every field of
  /// every element.
  static let wholeReads: [(name: String, read: @Sendable (IdentifiedArrayOf<Note>) -> Void)] = [
    ("==", { _ = $0 == [Note(id: 1), Note(id: 2)] }),
    ("hashValue", { _ = $0.hashValue }),
    ("encode", { _ = try? JSONEncoder().encode($0) }),
    ("elements", { _ = $0.elements == [Note(id: 1), Note(id: 2)] }),
    ("filter (its own)", { _ = $0.filter { $0.text.isEmpty }.count }),
    ("description", { _ = $0.description }),
    ("debugDescription", { _ = $0.debugDescription }),
    ("Mirror", { _ = Mirror(reflecting: $0).children.map { "\($0.value)" } }),
    ("sorted (its own)", { _ = $0.sorted { $0.text < $1.text }.count }),
    ("IdentifiedArray(slice)", { _ = IdentifiedArray($0[...]).map(\.text) }),
  ]

  @Test(arguments: 0..<wholeReads.count)
  func aWholeReadHearsAnInPlaceChangeOfAnyElement(_ index: Int) {
    let (name, read) = Self.wholeReads[index]
    let root = ObservedRoot(Notes())
    let fired = tracking { read(root.notes) }
    root.mutate { $0.notes[id: 2]?.text = "x" }
    #expect(fired.count == 1, "lost: \(name)")
    let again = tracking { read(root.notes) }
    root.mutate { $0.notes.append(Note(id: 3)) }
    #expect(again.count == 1, "lost: \(name)")
  }

  @Test func anObservableValueComparedWholeHearsAnInPlaceChange() {
    let root = ObservedRoot(AppState())
    let fired = tracking { _ = root.child == Child() }
    root.mutate { $0.child.title = "x" }
    #expect(fired.count == 1)
  }

  /// An identified array of plain values: any element change may notify an element reader, a
  /// structure change notifies every reader.
  static let plainReads: [(name: String, read: @Sendable (IdentifiedArray<Int, Int>) -> Void)] = [
    ("isEmpty", { _ = $0.isEmpty }), ("count", { _ = $0.count }), ("first", { _ = $0.first }),
    ("filter", { _ = $0.filter { $0 > 1 }.count }), ("Array(_:)", { _ = Array($0) }),
    ("==", { _ = $0 == IdentifiedArray(uniqueElements: [1], id: \.self) }), ("sum", { _ = $0.reduce(0, +) }),
    ("contains(element)", { _ = $0.contains(3) }), ("debugDescription", { _ = $0.debugDescription }),
    ("sorted()", { _ = $0.sorted().count }), ("IdentifiedArray(slice)", { _ = IdentifiedArray($0[1...]).count }),
  ]

  @Test(arguments: 0..<plainReads.count)
  func anIdentifiedArrayOfPlainValues(_ index: Int) {
    let (name, read) = Self.plainReads[index]
    let root = ObservedRoot(Lists())
    let fired = tracking { read(root.numbers) }
    root.mutate { $0.numbers.append(3) }
    #expect(fired.count == 1, "lost: \(name)")
  }
}

// Members the existential cannot reach directly: opened through a generic function.
private func enumerate(_ rows: some RandomAccessCollection<Row>) { for (offset, _) in rows.enumerated() { _ = offset } }
private func lazyLast(_ rows: some RandomAccessCollection<Row>) { _ = rows.lazy.map(\.count).last }

extension CollectionReadAPITests.Note {
  init(id: Int) { _$fields = Observed(Fields(id: id)) }
}
