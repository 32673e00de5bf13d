import Foundation
import Observation
import Testing
@testable import ValueStore

// A write is not a read. Every way a value is changed or made — each mutating API, initializer
// and literal of the library's types, a field set through every kind of location — run inside
// a tracking closure, must subscribe that closure to nothing: later changes of the value, of any
// kind, call no `onChange`. (Found: `IdentifiedArray`'s literal read its own `count`, and a
// view building a local list re-fired for ever; `StackState`'s pops read the stack's structure.)

struct WriteState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var count = 0
    var child = Child()
    var outer = BridgeState.Outer()
    var optional: Child? = Child()
    var mode = Mode.editing(Child())
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2), Row(id: 3)]
    var plain = [Child(), Child()]
    var stack = StackState([Row(id: 1), Row(id: 2), Row(id: 3)])
  }
  var _$fields = Observed(Fields())
}

/// One way of writing a value.
struct Write: CustomTestStringConvertible, Sendable {
  let name: String
  let apply: @Sendable (inout WriteState) -> Void
  var testDescription: String { name }
  init(_ name: String, _ apply: @escaping @Sendable (inout WriteState) -> Void) {
    self.name = name
    self.apply = apply
  }
}

extension Write {
  static let all: [Write] = fields + rows + stack + made

  static let fields: [Write] = [
    Write("count += 1") { $0.count += 1 },
    Write("count = 7") { $0.count = 7 },
    Write("child.count += 1") { $0.child.count += 1 },
    Write("child = Child()") { $0.child = Child() },
    Write("child.reset()") { $0.child.reset() },
    Write("outer.middle.child.count += 1") { $0.outer.middle.child.count += 1 },
    Write("optional?.count += 1") { $0.optional?.count += 1 },
    Write("optional = nil") { $0.optional = nil },
    Write("optional = Child()") { $0.optional = Child() },
    Write("mode = .idle") { $0.mode = .idle },
    Write("mode = .note") { $0.mode = .note("n") },
    Write("mode = .editing(Child())") { $0.mode = .editing(Child()) },
    Write("plain.append") { $0.plain.append(Child()) },
    Write("plain[0].count += 1") { $0.plain[0].count += 1 },
    Write("plain.removeAll()") { $0.plain.removeAll() },
    Write("plain.remove(at: 0)") { $0.plain.remove(at: 0) },
    Write("plain = []") { $0.plain = [] },
  ]

  static let rows: [Write] = [
    Write("rows.append(new)") { $0.rows.append(Row(id: 9)) },
    Write("rows.append(present)") { $0.rows.append(Row(id: 1)) },
    Write("rows.insert(at: 0)") { $0.rows.insert(Row(id: 9), at: 0) },
    Write("rows.insert(at: end)") { $0.rows.insert(Row(id: 9), at: 3) },
    Write("rows.insert(present)") { $0.rows.insert(Row(id: 2), at: 0) },
    Write("rows.remove(id:)") { $0.rows.remove(id: 2) },
    Write("rows.remove(id: absent)") { $0.rows.remove(id: 42) },
    Write("rows.remove(at:)") { $0.rows.remove(at: 1) },
    Write("rows.removeAll()") { $0.rows.removeAll() },
    Write("rows.removeAll(keepingCapacity:)") { $0.rows.removeAll(keepingCapacity: true) },
    Write("rows.removeAll(where: all)") { $0.rows.removeAll { _ in true } },
    Write("rows.removeAll(where: none)") { $0.rows.removeAll { _ in false } },
    Write("rows.remove(atOffsets:)") { $0.rows.remove(atOffsets: IndexSet([0, 2])) },
    Write("rows.move") { $0.rows.move(fromOffsets: IndexSet(integer: 0), toOffset: 3) },
    Write("rows.sort(by:)") { $0.rows.sort { _, _ in false } },
    Write("rows.swapAt") { $0.rows.swapAt(0, 2) },
    Write("rows.reverse()") { $0.rows.reverse() },
    Write("rows.shuffle()") { $0.rows.shuffle() },
    Write("rows.shuffle(using:)") { state in
      var generator = SystemRandomNumberGenerator()
      state.rows.shuffle(using: &generator)
    },
    Write("rows.partition(by:)") { $0.rows.partition { _ in true } },
    Write("rows.reserveCapacity") { $0.rows.reserveCapacity(100) },
    Write("rows[id:]?.count += 1") { $0.rows[id: 2]?.count += 1 },
    Write("rows[id:] = row") { $0.rows[id: 2] = Row(id: 2, count: 5) },
    Write("rows[id: absent] = row") { $0.rows[id: 9] = Row(id: 9) },
    Write("rows[id:] = nil") { $0.rows[id: 2] = nil },
    Write("rows[id: absent] = nil") { $0.rows[id: 42] = nil },
    Write("rows[0].count += 1") { $0.rows[0].count += 1 },
    Write("rows[0] = row") { $0.rows[0] = Row(id: 1, title: "t") },
    Write("rows = []") { $0.rows = [] },
    Write("rows = literal") { $0.rows = [Row(id: 7), Row(id: 8)] },
    Write("rows = uniqueElements") { $0.rows = IdentifiedArray(uniqueElements: [Row(id: 7)]) },
    Write("rows = uniqueElements, id:") { $0.rows = IdentifiedArray(uniqueElements: [Row(id: 7)], id: \.id) },
    Write("rows = IdentifiedArrayOf()") { $0.rows = IdentifiedArrayOf<Row>() },
    Write("rows = [] then appends") { state in
      state.rows = []
      for id in 1...3 { state.rows.append(Row(id: id)) }
    },
    // The API of swift-identified-collections (issue 32).
    Write("rows.remove(element)") { $0.rows.remove(Row(id: 2)) },
    Write("rows.append(contentsOf:)") { $0.rows.append(contentsOf: [Row(id: 1), Row(id: 9)]) },
    Write("rows += rows") { $0.rows += [Row(id: 9)] },
    Write("rows.append via RangeReplaceableCollection") { appendGenerically(&$0.rows, Row(id: 9)) },
    Write("rows.insert(contentsOf:at:)") { $0.rows.insert(contentsOf: [Row(id: 9)], at: 1) },
    Write("rows.update(_:at:)") { $0.rows.update(Row(id: 1, count: 5), at: 0) },
    Write("rows.updateOrAppend(present)") { $0.rows.updateOrAppend(Row(id: 2, count: 5)) },
    Write("rows.updateOrAppend(new)") { $0.rows.updateOrAppend(Row(id: 9)) },
    Write("rows.updateOrInsert(present)") { $0.rows.updateOrInsert(Row(id: 2, count: 5), at: 0) },
    Write("rows.updateOrInsert(new)") { $0.rows.updateOrInsert(Row(id: 9), at: 0) },
    Write("rows.removeFirst()") { $0.rows.removeFirst() },
    Write("rows.removeLast()") { $0.rows.removeLast() },
    Write("rows.removeFirst(2)") { $0.rows.removeFirst(2) },
    Write("rows.removeLast(2)") { $0.rows.removeLast(2) },
    Write("rows.removeSubrange(0..<2)") { $0.rows.removeSubrange(0..<2) },
    Write("rows.removeSubrange(1...)") { $0.rows.removeSubrange(1...) },
    Write("rows.popLast()") { _ = $0.rows.popLast() },
    Write("rows.replaceSubrange") { $0.rows.replaceSubrange(0..<2, with: [Row(id: 3), Row(id: 9)]) },
    Write("rows[0] = row with another present id") { $0.rows[0] = Row(id: 3) },
    Write("rows[0] = row with a new id") { $0.rows[0] = Row(id: 9) },
    Write("rows.sort(using:)") { $0.rows.sort(using: KeyPathComparator(\.id, order: .reverse)) },
    Write("rows.sort(using: [comparators])") { $0.rows.sort(using: [KeyPathComparator(\.id, order: .reverse), KeyPathComparator(\.id)]) },
    Write("rows = uncheckedUniqueElements") { $0.rows = IdentifiedArray(uncheckedUniqueElements: [Row(id: 7)]) },
    Write("rows = uncheckedUniqueElements, id:") {
      $0.rows = IdentifiedArray(uncheckedUniqueElements: [Row(id: 7)], id: \.id)
    },
    Write("rows = IdentifiedArrayOf(sequence)") { $0.rows = IdentifiedArrayOf([Row(id: 7), Row(id: 8)]) },
    Write("rows = uniquingIDsWith") { $0.rows = IdentifiedArrayOf([Row(id: 7), Row(id: 7)]) { $1 } },
    Write("rows = uniquingIDsWith, id:") { $0.rows = IdentifiedArray([Row(id: 7), Row(id: 7)], id: \.id) { $1 } },
  ]

  static let stack: [Write] = [
    Write("stack.append") { $0.stack.append(Row(id: 9)) },
    Write("stack.pop(from:)") { $0.stack.pop(from: 1) },
    Write("stack.pop(from: absent)") { $0.stack.pop(from: 42) },
    Write("stack.pop(to:)") { $0.stack.pop(to: 0) },
    Write("stack.popLast()") { $0.stack.popLast() },
    Write("stack.removeAll()") { $0.stack.removeAll() },
    Write("stack[id:] = row") { $0.stack[id: 1] = Row(id: 2, count: 3) },
    Write("stack[id: next] = row") { $0.stack[id: 3] = Row(id: 9) },
    Write("stack[id:] = nil") { $0.stack[id: 1] = nil },
    Write("stack[id:]?.count += 1") { $0.stack[id: 1]?.count += 1 },
    Write("stack[0].count += 1") { $0.stack[0].count += 1 },
    Write("stack = []") { $0.stack = [] },
    Write("stack = StackState(rows)") { $0.stack = StackState([Row(id: 5)]) },
  ]

  /// Values made from nothing inside the closure, written whole.
  static let made: [Write] = [
    Write("state = WriteState()") { $0 = WriteState() },
    Write("state = decoded rows") { state in
      let data = try! JSONEncoder().encode([CodableRow(id: 1), CodableRow(id: 2)])
      let decoded = try! JSONDecoder().decode(IdentifiedArrayOf<CodableRow>.self, from: data)
      state.count = decoded.count
    },
  ]
}

struct CodableRow: Codable, Identifiable, Equatable, Sendable { var id: Int }

private func appendGenerically<C: RangeReplaceableCollection>(_ collection: inout C, _ element: C.Element) {
  collection.append(element)
}

/// Changes every part of the state, each in a way that notifies its readers.
func changeEverything(_ state: inout WriteState) {
  state.count += 1
  state.child.count += 1
  state.child.title += "x"
  state.outer.middle.child.count += 1
  if state.optional == nil { state.optional = Child() } else { state.optional?.count += 1 }
  state.optional = nil
  state.mode = .note("changed")
  state.plain.append(Child())
  for index in state.plain.indices { state.plain[index].count += 1 }
  for id in state.rows.ids { state.rows[id: id]?.count += 1 }
  state.rows.append(Row(id: 100))
  state.rows.remove(at: 0)
  for id in state.stack.ids { state.stack[id: id]?.count += 1 }
  state.stack.append(Row(id: 100))
  state.stack.popLast()
  state.stack.popLast()
  state = WriteState()
}

@Suite struct WritesRecordNoReadsTests {
  final class Box: @unchecked Sendable { var value = WriteState() }

  @Test(arguments: Write.all)
  func aWriteInsideOurClosureSubscribesToNothing(_ write: Write) {
    let box = Box()
    let recorder = tracking { write.apply(&box.value) }
    changeEverything(&box.value)
    #expect(recorder.count == 0)
  }

  @Test(arguments: Write.all)
  func aWriteOfAHolderInsideOurClosureSubscribesToNothing(_ write: Write) {
    let root = ObservedRoot(WriteState())
    let recorder = tracking { root.mutate { write.apply(&$0) } }
    root.mutate { changeEverything(&$0) }
    #expect(recorder.count == 0)
  }

  /// Apple's Observation: a holder's field is read first, so the closure's other reads are bridged.
  @Test(arguments: Write.all)
  func aWriteInsideAnObservationClosureSubscribesToNothing(_ write: Write) {
    let root = ObservedRoot(WriteState())
    let box = Box()
    let fired = Recorder()
    withObservationTracking {
      _ = root.count
      write.apply(&box.value)
    } onChange: {
      fired.record(ObservationChange(keyPaths: []))
    }
    changeEverything(&box.value)
    #expect(fired.count == 0)
  }
}
