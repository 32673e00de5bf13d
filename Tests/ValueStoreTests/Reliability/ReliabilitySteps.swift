import Foundation
@testable import ValueStore

/// One write statement of a mutation (one step of a transaction), in readable form.
///
/// Offsets (`at:`, `move`, `swap`) are taken modulo the current count, so any step applies to any
/// state; steps naming an absent id or an empty copy slot do what the library does for them.
indirect enum RelStep: Hashable, Sendable, CustomStringConvertible {
  case addCount(Int), setName(String)
  case childAdd(Int), childTitle(String), childAppendTitle(String), childNew(Int), childReset
  /// `var c = state.child; c.count += d; state.child = c`
  case childViaCopy(Int)
  /// `var c = state.child; c.count += d` — the copy is discarded (S11)
  case childCopyDiscarded(Int)
  case childFromCopy(Int), childFromOptional
  case optionalNil, optionalNew(Int), optionalAdd(Int), optionalTitle(String), optionalFromChild, optionalFromCopy(Int)
  case modeIdle, modeNew(Int), modeAdd(Int), modeAddInPlace(Int), modeFromChild, modeFromCopy(Int)
  case maybeModeNil, maybeModeIdle, maybeModeNew(Int)
  /// A plain payload: `mode = .note(s)`, appended to in place, `maybeMode = .note(s)`.
  case modeNote(String), modeNoteAppend(String), maybeModeNote(String)
  case rowsAppend(Int), rowsInsert(Int, at: Int), rowsAppendCopy(Int), rowsRemove(Int), rowsSetNil(Int)
  case rowAdd(Int, Int), rowTitle(Int, String), rowSetNew(Int, Int), rowSetCopy(Int)
  /// `rows[id: id]? = Row(…)`: a replacement made through the subscript's `_modify` (the old
  /// element dies out of its slot).
  case rowReplaceInPlace(Int, Int)
  case rowsMove(Int, to: Int), rowsSwap(Int, Int), rowsSortByID(descending: Bool), rowsSortByCount
  case rowsRemoveOdd, rowsRebuilt(RelRebuild), rowsFromCopy(Int)
  // The API of swift-identified-collections (issue 32). `a, b` name a range of offsets (`relRange`).
  case rowsRemoveElement(Int), rowsAppendContents([Int])
  case rowsUpdateAt(Int, Int), rowsUpdateOrAppend(Int, Int), rowsUpdateOrInsert(Int, Int, at: Int)
  case rowsRemoveFirst(Int), rowsRemoveLast(Int), rowsPopLast, rowsRemoveSubrange(Int, Int)
  case rowsReplaceSubrange(Int, Int, [Int])
  /// `rows[i] = Row(id: id)`: an element set at an offset, whatever id is there.
  case rowsSetAt(Int, Int)
  /// The standard library's generic sort (it writes the sorted elements back by position),
  /// the array's `sort(using:)`, and a slice reversed in place (written back by position).
  case rowsSortGeneric(descending: Bool), rowsSortUsing(descending: Bool), rowsReverseFirstHalf
  /// `var c = state; <step on c>` — the copy is discarded (S11)
  case rootCopyDiscarded(RelStep)
  case rootReset, rootFromCopy(Int), rootFromSnapshot(Int)
  /// `update(&state, from: snapshots[k])`: what `StateHistory` undoes with — only what differs
  /// is written.
  case rootUpdatedFromSnapshot(Int)
  /// `let c = Child(count: n); state = State(child: c, optional: c, mode: .editing(c))`: one value
  /// in three fields from construction.
  case rootNewShared(Int)

  var description: String {
    switch self {
    case let .addCount(d): "count += \(d)"
    case let .setName(s): "name = \"\(s)\""
    case let .childAdd(d): "child.count += \(d)"
    case let .childTitle(s): "child.title = \"\(s)\""
    case let .childAppendTitle(s): "child.title += \"\(s)\""
    case let .childNew(c): "child = Child(count: \(c))"
    case .childReset: "child.reset()"
    case let .childViaCopy(d): "var c = child; c.count += \(d); child = c"
    case let .childCopyDiscarded(d): "var c = child; c.count += \(d) (discarded)"
    case let .childFromCopy(k): "child = copies[\(k)]"
    case .childFromOptional: "if let o = optional { child = o }"
    case .optionalNil: "optional = nil"
    case let .optionalNew(c): "optional = Child(count: \(c))"
    case let .optionalAdd(d): "optional?.count += \(d)"
    case let .optionalTitle(s): "optional?.title = \"\(s)\""
    case .optionalFromChild: "optional = child"
    case let .optionalFromCopy(k): "optional = copies[\(k)]"
    case .modeIdle: "mode = .idle"
    case let .modeNew(c): "mode = .editing(Child(count: \(c)))"
    case .maybeModeNil: "maybeMode = nil"
    case .maybeModeIdle: "maybeMode = .idle"
    case let .modeNote(s): "mode = .note(\"\(s)\")"
    case let .modeNoteAppend(s): "CasePath(Mode.note).modify(&mode) { $0 += \"\(s)\" }"
    case let .maybeModeNote(s): "maybeMode = .note(\"\(s)\")"
    case let .maybeModeNew(c): "maybeMode = .editing(Child(count: \(c)))"
    case let .modeAdd(d): "mode.modifyEditing { $0.count += \(d) }"
    case let .modeAddInPlace(d): "CasePath(Mode.editing).modify(&mode) { $0.count += \(d) }"
    case .modeFromChild: "mode = .editing(child)"
    case let .modeFromCopy(k): "mode = .editing(copies[\(k)])"
    case let .rowsAppend(id): "rows.append(Row(id: \(id)))"
    case let .rowsInsert(id, at): "rows.insert(Row(id: \(id)), at: \(at) % (count + 1))"
    case let .rowsAppendCopy(k): "rows.append(copies[\(k)])"
    case let .rowsRemove(id): "rows.remove(id: \(id))"
    case let .rowsSetNil(id): "rows[id: \(id)] = nil"
    case let .rowAdd(id, d): "rows[id: \(id)]?.count += \(d)"
    case let .rowTitle(id, s): "rows[id: \(id)]?.title = \"\(s)\""
    case let .rowSetNew(id, c): "rows[id: \(id)] = Row(id: \(id), count: \(c))"
    case let .rowReplaceInPlace(id, c): "rows[id: \(id)]? = Row(id: \(id), count: \(c))"
    case let .rowSetCopy(k): "rows[id: copies[\(k)].id] = copies[\(k)]"
    case let .rowsMove(from, to): "rows.move(fromOffsets: [\(from) % count], toOffset: \(to) % (count + 1))"
    case let .rowsSwap(i, j): "rows.swapAt(\(i) % count, \(j) % count)"
    case let .rowsSortByID(descending): "rows.sort { $0.id \(descending ? ">" : "<") $1.id }"
    case .rowsSortByCount: "rows.sort { $0.count < $1.count }"
    case .rowsRemoveOdd: "rows.removeAll { $0.count is odd }"
    case let .rowsRebuilt(how): "rows = \(how)"
    case let .rowsRemoveElement(id): "rows.remove(Row(id: \(id)))"
    case let .rowsAppendContents(ids): "rows.append(contentsOf: \(ids.map { "Row(id: \($0))" }))"
    case let .rowsUpdateAt(i, c): "rows.update(Row(id: rows.ids[\(i) % count], count: \(c)), at: \(i) % count)"
    case let .rowsUpdateOrAppend(id, c): "rows.updateOrAppend(Row(id: \(id), count: \(c)))"
    case let .rowsUpdateOrInsert(id, c, at): "rows.updateOrInsert(Row(id: \(id), count: \(c)), at: \(at) % (count + 1))"
    case let .rowsRemoveFirst(k): k == 1 ? "rows.removeFirst()" : "rows.removeFirst(min(\(k), count))"
    case let .rowsRemoveLast(k): k == 1 ? "rows.removeLast()" : "rows.removeLast(min(\(k), count))"
    case .rowsPopLast: "rows.popLast()"
    case let .rowsRemoveSubrange(a, b): "rows.removeSubrange(relRange(\(a), \(b)))"
    case let .rowsReplaceSubrange(a, b, ids):
      "rows.replaceSubrange(relRange(\(a), \(b)), with: \(ids.map { "Row(id: \($0))" }))"
    case let .rowsSetAt(i, id): "rows[\(i) % count] = Row(id: \(id))"
    case let .rowsSortGeneric(descending): "MutableCollection.sort(&rows) { $0.id \(descending ? ">" : "<") $1.id }"
    case let .rowsSortUsing(descending): "rows.sort(using: KeyPathComparator(\\.id\(descending ? ", order: .reverse" : "")))"
    case .rowsReverseFirstHalf: "rows[..<(count / 2)].reverse()"
    case let .rowsFromCopy(k): "rows = copies[\(k)]"
    case let .rootCopyDiscarded(step): "var c = state; c: \(step) (discarded)"
    case .rootReset: "state = State()"
    case let .rootNewShared(n): "let c = Child(count: \(n)); state = State(child: c, optional: c, mode: .editing(c))"
    case let .rootFromCopy(k): "state = copies[\(k)]"
    case let .rootFromSnapshot(k): "state = snapshots[\(k)]"
    case let .rootUpdatedFromSnapshot(k): "update(&state, from: snapshots[\(k)])"
    }
  }

  /// Whether the step mutates a copy of the observed value (where a bare value may notify, S11).
  var mutatesACopy: Bool {
    switch self {
    case .childViaCopy, .childCopyDiscarded, .rootCopyDiscarded, .modeAdd: true
    default: false
    }
  }

  /// Whether the step replaces the whole value (a bare variable cannot notify that: known limit).
  var replacesTheRoot: Bool {
    switch self {
    case .rootReset, .rootFromCopy, .rootFromSnapshot, .rootNewShared: true
    case let .rootCopyDiscarded(step): step.replacesTheRoot
    default: false
    }
  }
}

/// A value kept outside the observed state: a copy of all of it, or of one of its parts. At most one
/// field is set. Separate optionals (not an enum) so a copy can be edited in place, staying uniquely
/// referenced like a local variable would.
struct RelCopy {
  var root: RelState?
  var child: Child?
  var row: Row?
  var rows: IdentifiedArrayOf<Row>?
}

/// The library side's copies and snapshots, shared with a store's reducer.
final class RelCopies: @unchecked Sendable {
  static let slots = 3
  static let snapshotSlots = 2
  var copies = Array(repeating: RelCopy(), count: slots)
  var snapshots: [RelState?] = Array(repeating: nil, count: snapshotSlots)
}

extension RelStep {
  /// Whether the step writes plain fields of values where they are: it replaces no value a read
  /// goes through (a field, an element, a case, the root) and changes no collection's structure.
  var writesFieldsInPlace: Bool {
    switch self {
    case .addCount, .setName, .childAdd, .childTitle, .childAppendTitle, .childCopyDiscarded, .optionalAdd,
      .optionalTitle, .modeAdd, .modeAddInPlace, .rowAdd, .rowTitle, .rootCopyDiscarded:
      true
    default: false
    }
  }
}

// MARK: - Library

extension RelStep {
  /// Runs the step on a library value.
  func apply(to state: inout RelState, _ env: RelCopies) {
    switch self {
    case let .addCount(d): state.count += d
    case let .setName(s): state.name = s
    case let .childAdd(d): state.child.count += d
    case let .childTitle(s): state.child.title = s
    case let .childAppendTitle(s): state.child.title += s
    case let .childNew(c): state.child = Child(count: c)
    case .childReset: state.child.reset()
    case let .childViaCopy(d):
      var copy = state.child
      copy.count += d
      state.child = copy
    case let .childCopyDiscarded(d):
      var copy = state.child
      copy.count += d
      _ = copy
    case let .childFromCopy(k): if let c = env.copies[k].child { state.child = c }
    case .childFromOptional: if let o = state.optional { state.child = o }
    case .optionalNil: state.optional = nil
    case let .optionalNew(c): state.optional = Child(count: c)
    case let .optionalAdd(d): state.optional?.count += d
    case let .optionalTitle(s): state.optional?.title = s
    case .optionalFromChild: state.optional = state.child
    case let .optionalFromCopy(k): if let c = env.copies[k].child { state.optional = c }
    case .modeIdle: state.mode = .idle
    case let .modeNew(c): state.mode = .editing(Child(count: c))
    case .maybeModeNil: state.maybeMode = nil
    case .maybeModeIdle: state.maybeMode = .idle
    case let .modeNote(s): state.mode = .note(s)
    case let .modeNoteAppend(s): CasePath(Mode.note).modify(&state.mode) { $0 += s }
    case let .maybeModeNote(s): state.maybeMode = .note(s)
    case let .maybeModeNew(c): state.maybeMode = .editing(Child(count: c))
    case let .modeAdd(d): state.mode.modifyEditing { $0.count += d }
    case let .modeAddInPlace(d): CasePath(Mode.editing).modify(&state.mode) { $0.count += d }
    case .modeFromChild: state.mode = .editing(state.child)
    case let .modeFromCopy(k): if let c = env.copies[k].child { state.mode = .editing(c) }
    case let .rowSetCopy(k): if let r = env.copies[k].row { state.rows[id: r.id] = r }
    case let .rowsAppendCopy(k): if let r = env.copies[k].row { state.rows.append(r) }
    case let .rowsFromCopy(k): if let r = env.copies[k].rows { state.rows = r }
    case let .rowsRebuilt(how): state.rows = how.rebuild(state.rows)
    case .rowsAppend, .rowsInsert, .rowsRemove, .rowsSetNil, .rowAdd, .rowTitle, .rowSetNew, .rowReplaceInPlace,
      .rowsMove, .rowsSwap, .rowsSortByID, .rowsSortByCount, .rowsRemoveOdd, .rowsRemoveElement, .rowsAppendContents,
      .rowsUpdateAt, .rowsUpdateOrAppend, .rowsUpdateOrInsert, .rowsRemoveFirst, .rowsRemoveLast, .rowsPopLast,
      .rowsRemoveSubrange, .rowsReplaceSubrange, .rowsSetAt, .rowsSortGeneric, .rowsSortUsing, .rowsReverseFirstHalf:
      applyToRows(&state.rows)
    case let .rootCopyDiscarded(step):
      var copy = state
      step.apply(to: &copy, env)
      _ = copy
    case .rootReset: state = RelState()
    case let .rootNewShared(n):
      let c = Child(count: n)
      state = RelState(_$fields: Observed(.init(child: c, optional: c, mode: .editing(c))))
    case let .rootFromCopy(k): if let s = env.copies[k].root { state = s }
    case let .rootFromSnapshot(k): if let s = env.snapshots[k] { state = s }
    case let .rootUpdatedFromSnapshot(k): if let s = env.snapshots[k] { update(&state, from: s) }
    }
  }

  /// The collection steps, on any identified array of rows (the state's, or a copy of it).
  func applyToRows(_ rows: inout IdentifiedArrayOf<Row>) {
    switch self {
    case let .rowsAppend(id): rows.append(Row(id: id))
    case let .rowsInsert(id, at): rows.insert(Row(id: id), at: at % (rows.count + 1))
    case let .rowsRemove(id): rows.remove(id: id)
    case let .rowsSetNil(id): rows[id: id] = nil
    case let .rowAdd(id, d): rows[id: id]?.count += d
    case let .rowTitle(id, s): rows[id: id]?.title = s
    case let .rowSetNew(id, c): rows[id: id] = Row(id: id, count: c)
    case let .rowReplaceInPlace(id, c): rows[id: id]? = Row(id: id, count: c)
    case let .rowsMove(from, to):
      guard !rows.isEmpty else { return }
      rows.move(fromOffsets: [from % rows.count], toOffset: to % (rows.count + 1))
    case let .rowsSwap(i, j):
      guard !rows.isEmpty else { return }
      rows.swapAt(i % rows.count, j % rows.count)
    case let .rowsSortByID(descending): rows.sort { descending ? $0.id > $1.id : $0.id < $1.id }
    case .rowsSortByCount: rows.sort { $0.count < $1.count }
    case .rowsRemoveOdd: rows.removeAll { !$0.count.isMultiple(of: 2) }
    case let .rowsRemoveElement(id): rows.remove(Row(id: id))
    case let .rowsAppendContents(ids): rows.append(contentsOf: ids.map { Row(id: $0) })
    case let .rowsUpdateAt(i, c):
      guard !rows.isEmpty else { return }
      let offset = i % rows.count
      rows.update(Row(id: rows.ids[offset], count: c), at: offset)
    case let .rowsUpdateOrAppend(id, c): rows.updateOrAppend(Row(id: id, count: c))
    case let .rowsUpdateOrInsert(id, c, at): rows.updateOrInsert(Row(id: id, count: c), at: at % (rows.count + 1))
    case let .rowsRemoveFirst(k):
      if k != 1 {
        rows.removeFirst(min(k, rows.count))
      } else if !rows.isEmpty {
        rows.removeFirst()
      }
    case let .rowsRemoveLast(k):
      if k != 1 {
        rows.removeLast(min(k, rows.count))
      } else if !rows.isEmpty {
        rows.removeLast()
      }
    case .rowsPopLast: _ = rows.popLast()
    case let .rowsRemoveSubrange(a, b): rows.removeSubrange(relRange(a, b, count: rows.count))
    case let .rowsReplaceSubrange(a, b, ids):
      rows.replaceSubrange(relRange(a, b, count: rows.count), with: ids.map { Row(id: $0) })
    case let .rowsSetAt(i, id):
      guard !rows.isEmpty else { return }
      rows[i % rows.count] = Row(id: id)
    case let .rowsSortGeneric(descending): relSortGenerically(&rows) { descending ? $0.id > $1.id : $0.id < $1.id }
    case let .rowsSortUsing(descending): rows.sort(using: KeyPathComparator(\.id, order: descending ? .reverse : .forward))
    case .rowsReverseFirstHalf: rows[..<(rows.count / 2)].reverse()
    default: break
    }
  }

  /// The field steps, on a copy of a child or of a row.
  func applyToChild(_ child: inout Child) {
    switch self {
    case let .childAdd(d), let .rowAdd(_, d): child.count += d
    case let .childTitle(s), let .rowTitle(_, s): child.title = s
    case let .childAppendTitle(s): child.title += s
    default: break
    }
  }

  func applyToRow(_ row: inout Row) {
    switch self {
    case let .childAdd(d), let .rowAdd(_, d): row.count += d
    case let .childTitle(s), let .rowTitle(_, s): row.title = s
    case let .childAppendTitle(s): row.title += s
    default: break
    }
  }
}

// MARK: - Helpers of the collection steps

/// Offsets `a, b` name in a collection of `count` elements: a range within `0 ... count`.
func relRange(_ a: Int, _ b: Int, count: Int) -> Range<Int> {
  let lower = a % (count + 1)
  return lower..<(lower + b % (count - lower + 1))
}

/// `MutableCollection`'s own `sort(by:)`: on a collection without contiguous storage, it sorts a
/// copy and writes the elements back by position.
func relSortGenerically<C: MutableCollection & RandomAccessCollection>(
  _ collection: inout C, by areInIncreasingOrder: (C.Element, C.Element) -> Bool
) {
  collection.sort(by: areInIncreasingOrder)
}

/// Ways to make an identified array of the same elements: a new array (a new structure; the
/// elements are the same values), or a copy of it (`init(_:)` of an identified array).
enum RelRebuild: CaseIterable, Hashable, Sendable, CustomStringConvertible {
  case uniqueElements, uncheckedUniqueElements, sequence, uniquing, slice, copy

  func rebuild(_ rows: IdentifiedArrayOf<Row>) -> IdentifiedArrayOf<Row> {
    switch self {
    case .uniqueElements: IdentifiedArray(uniqueElements: rows.elements)
    case .uncheckedUniqueElements: IdentifiedArray(uncheckedUniqueElements: rows.elements, id: \.id)
    case .sequence: IdentifiedArrayOf(Array(rows.elements))
    case .uniquing: IdentifiedArrayOf(rows.elements + rows.elements) { _, later in later }
    case .slice: IdentifiedArray(rows[...])
    case .copy: IdentifiedArray(rows)
    }
  }

  var description: String {
    switch self {
    case .uniqueElements: "IdentifiedArray(uniqueElements: rows.elements)"
    case .uncheckedUniqueElements: "IdentifiedArray(uncheckedUniqueElements: rows.elements, id: \\.id)"
    case .sequence: "IdentifiedArrayOf(Array(rows.elements))"
    case .uniquing: "IdentifiedArrayOf(rows.elements + rows.elements) { $1 }"
    case .slice: "IdentifiedArray(rows[...])"
    case .copy: "IdentifiedArray(rows)"
    }
  }
}
