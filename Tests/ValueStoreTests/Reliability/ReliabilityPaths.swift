@testable import ValueStore

/// What a write did to a path.
enum RelChange: Comparable {
  case none, allowed, required
}

/// A path an observer reads from the observed state.
enum RelPath: Hashable, Sendable, CustomStringConvertible {
  case count, isEven, name
  case child, childCount, childTitle
  /// `child.count` through a computed property of `Fields` (`childCountViaFields`): a holder reads
  /// it under key `.any`, and the property's own reads must stay the holder's.
  case childCountViaFields
  /// `child == Child()`: a whole-value read (its `==` reads every field, and its children's).
  case childCompared
  case optional, optionalCount
  case mode, modeCount
  /// `maybeMode`: `nil`, `.idle` or `.editing(…)`, each a different value.
  case maybeMode
  /// `rows` itself (its identity), its structure, one element, or every element.
  case rows, rowsCount, rowsContains(Int), rowCount(Int), rowTitle(Int), rowsMap, rowsLoop
  /// The structure, or every element's count, through one of the other read APIs.
  case rowsStructure(RelStructureRead), rowsCounts(RelCountsRead)

  /// A write in place of the plain field this path reads, if it reads one.
  func fieldWrite(delta: Int, title: String) -> RelStep? {
    switch self {
    case .count, .isEven: .addCount(delta)
    case .name: .setName(title)
    case .childCount, .childCountViaFields: .childAdd(delta)
    case .childTitle: .childTitle(title)
    case .optionalCount: .optionalAdd(delta)
    case .modeCount: .modeAdd(delta)
    case let .rowCount(id): .rowAdd(id, delta)
    case let .rowTitle(id): .rowTitle(id, title)
    default: nil
    }
  }

  var description: String {
    switch self {
    case .count: "count"
    case .isEven: "isEven"
    case .name: "name"
    case .child: "child"
    case .childCount: "child.count"
    case .childTitle: "child.title"
    case .childCountViaFields: "childCountViaFields"
    case .childCompared: "child == Child()"
    case .optional: "optional"
    case .optionalCount: "optional?.count"
    case .mode: "mode"
    case .modeCount: "mode.editing?.count"
    case .maybeMode: "maybeMode"
    case .rows: "rows"
    case .rowsCount: "rows.count"
    case let .rowsContains(id): "rows.contains(id: \(id))"
    case let .rowCount(id): "rows[id: \(id)]?.count"
    case let .rowTitle(id): "rows[id: \(id)]?.title"
    case .rowsMap: "rows.map(\\.count)"
    case .rowsLoop: "for row in rows { row.count }"
    case let .rowsStructure(read): "rows.\(read)"
    case let .rowsCounts(read): "rows counts via \(read)"
    }
  }
}

// MARK: - Reading a path from the library

/// The root fields an observer starts from. Built from a holder (each closure is one anchored read
/// through the holder's accessor; what follows reads the returned copy: "chain" style, as in
/// `root.child.count`), or from a value (inside `root.read { }` everything is anchored; on a bare
/// value nothing is).
struct RelRootFields {
  let count: () -> Int
  let isEven: () -> Bool
  let name: () -> String
  let child: () -> Child
  let childCountViaFields: () -> Int
  let optional: () -> Child?
  let mode: () -> Mode
  let rows: () -> IdentifiedArrayOf<Row>
  let maybeMode: () -> ReflectedEnumTests.PlainMode?

  init(_ state: RelState) {
    count = { state.count }
    isEven = { state.isEven }
    name = { state.name }
    child = { state.child }
    childCountViaFields = { state.child.count }  // a bare value reads stored fields only
    optional = { state.optional }
    mode = { state.mode }
    rows = { state.rows }
    maybeMode = { state.maybeMode }
  }

  init(_ root: ObservedRoot<RelState>) {
    count = { root.count }
    isEven = { root.isEven }
    name = { root.name }
    child = { root.child }
    childCountViaFields = { root.childCountViaFields }
    optional = { root.optional }
    mode = { root.mode }
    rows = { root.rows }
    maybeMode = { root.maybeMode }
  }

  init(
    count: @escaping () -> Int, isEven: @escaping () -> Bool, name: @escaping () -> String,
    child: @escaping () -> Child, childCountViaFields: @escaping () -> Int, optional: @escaping () -> Child?,
    mode: @escaping () -> Mode, rows: @escaping () -> IdentifiedArrayOf<Row>,
    maybeMode: @escaping () -> ReflectedEnumTests.PlainMode?
  ) {
    (self.count, self.isEven, self.name, self.child) = (count, isEven, name, child)
    self.childCountViaFields = childCountViaFields
    (self.optional, self.mode, self.rows, self.maybeMode) = (optional, mode, rows, maybeMode)
  }
}

/// A child's fields, read without recording an access (for paths that observe identity only).
func relDescribe(_ child: Child?) -> String {
  guard let fields = child?._$fields.fields else { return "nil" }
  return "\(fields.count)|\(fields.title)"
}

extension RelPath {
  static func describe(_ mode: Mode) -> String {
    switch mode {
    case .idle: "idle"
    case let .editing(child): "editing(\(relDescribe(child)))"
    case let .note(text): "note(\(text))"
    }
  }

  static func describe(_ mode: ReflectedEnumTests.PlainMode) -> String {
    switch mode {
    case .idle: "idle"
    case let .editing(child): "editing(\(relDescribe(child)))"
    case let .other(child): "other(\(relDescribe(child)))"
    case let .note(text): "note(\(text))"
    }
  }

  /// Reads the path as an observer would, returning what it read.
  func read(_ root: RelRootFields) -> String {
    switch self {
    case .count: return "\(root.count())"
    case .isEven: return "\(root.isEven())"
    case .name: return root.name()
    case .child: return relDescribe(root.child())
    case .childCount: return "\(root.child().count)"
    case .childTitle: return root.child().title
    case .childCountViaFields: return "\(root.childCountViaFields())"
    case .childCompared: return "\(root.child() == Child())"
    case .optional: return relDescribe(root.optional())
    case .optionalCount: return root.optional().map { "\($0.count)" } ?? "nil"
    case .mode: return Self.describe(root.mode())
    case .modeCount: return root.mode().payload.map { "\($0.count)" } ?? "nil"
    case .maybeMode:
      return root.maybeMode().map(Self.describe) ?? "nil"
    case .rows:
      let rows = root.rows()
      return untracked { "\(Array(rows.ids))" }
    case .rowsCount: return "\(root.rows().count)"
    case let .rowsContains(id): return "\(root.rows().contains(id: id))"
    case let .rowCount(id): return root.rows()[id: id].map { "\($0.count)" } ?? "nil"
    case let .rowTitle(id): return root.rows()[id: id].map { $0.title } ?? "nil"
    case .rowsMap: return "\(root.rows().map(\.count))"
    case .rowsLoop:
      var counts: [Int] = []
      for row in root.rows() { counts.append(row.count) }
      return "\(counts)"
    case let .rowsStructure(read): return read.read(root.rows())
    case let .rowsCounts(read): return read.read(root.rows())
    }
  }

  /// What the reference model says the path reads.
  func read(_ state: MState) -> String {
    func describe(_ child: MChild?) -> String { child.map { "\($0.count)|\($0.title)" } ?? "nil" }
    func describe(_ mode: MMode) -> String {
      switch mode {
      case let .editing(child): "editing(\(describe(child)))"
      case .idle, .note: mode.plainPart
      }
    }
    switch self {
    case .count: return "\(state.count)"
    case .isEven: return "\(state.count.isMultiple(of: 2))"
    case .name: return state.name
    case .child: return describe(state.child)
    case .childCount, .childCountViaFields: return "\(state.child.count)"
    case .childCompared: return "\(state.child.count == 0 && state.child.title.isEmpty)"
    case .childTitle: return state.child.title
    case .optional: return describe(state.optional)
    case .optionalCount: return state.optional.map { "\($0.count)" } ?? "nil"
    case .mode: return describe(state.mode)
    case .modeCount: return state.mode.payload.map { "\($0.count)" } ?? "nil"
    case .maybeMode:
      return state.maybeMode.map(describe) ?? "nil"
    case .rows: return "\(state.rows.ids)"
    case .rowsCount: return "\(state.rows.rows.count)"
    case let .rowsContains(id): return "\(state.rows.index(id) != nil)"
    case let .rowCount(id): return state.rows[id: id].map { "\($0.count)" } ?? "nil"
    case let .rowTitle(id): return state.rows[id: id].map { $0.title } ?? "nil"
    case .rowsMap, .rowsLoop, .rowsCounts: return "\(state.rows.rows.map(\.count))"
    case let .rowsStructure(read): return read.read(state.rows)
    }
  }

  // MARK: - Whether a write changed what the path reads

  /// What one write (one step of a mutation) did to the path when the observed value went from
  /// `before` to `after`: per the contract, changed its value at a written field or the identity of
  /// a location it goes through (`.required`), or only replaced the root, whose observers may all
  /// be notified (`.allowed`: the documented over-notification of root replacement).
  func change(from before: MState, to after: MState) -> RelChange {
    guard let root = before.hist.written(toReach: after.hist) else {
      // Root replaced: the old root's fields have no identity to compare; their values do.
      let fieldsChanged: Bool
      switch self {
      case .count, .isEven: fieldsChanged = before.count != after.count
      case .name: fieldsChanged = before.name != after.name
      default: fieldsChanged = changedBelowTheRoot(before, after)
      }
      return fieldsChanged ? .required : .allowed
    }
    switch self {
    case .count, .isEven: return root.contains(.count) ? .required : .none  // S4: through what it reads
    case .name: return root.contains(.name) ? .required : .none
    case .childCountViaFields:
      // A computed property of `Fields` reads the fields unseen: the holder records a read of
      // every field (`.any`), so a write to any of them may notify (documented, never lost).
      if changedBelowTheRoot(before, after) { return .required }
      return root.isEmpty ? .none : .allowed
    default: return changedBelowTheRoot(before, after) ? .required : .none
    }
  }

  private func changedBelowTheRoot(_ before: MState, _ after: MState) -> Bool {
    switch self {
    case .count, .isEven, .name: return false
    case .child: return before.child.hist.written(toReach: after.child.hist) == nil
    case .childCount, .childCountViaFields: return before.child.hist.changed(.count, toReach: after.child.hist)
    case .childCompared:
      return before.child.hist.changed(.count, toReach: after.child.hist)
        || before.child.hist.changed(.title, toReach: after.child.hist)
    case .childTitle: return before.child.hist.changed(.title, toReach: after.child.hist)
    case .optional: return Self.replaced(before.optional, after.optional)
    case .optionalCount: return Self.changed(.count, before.optional, after.optional)
    case .mode:
      return Self.replaced(before.mode.payload, after.mode.payload) || Self.caseChanged(before.mode, after.mode)
    case .modeCount:
      return Self.changed(.count, before.mode.payload, after.mode.payload) || Self.caseChanged(before.mode, after.mode)
    case .maybeMode:
      return before.maybeMode?.plainPart != after.maybeMode?.plainPart
        || Self.replaced(before.maybeMode?.payload, after.maybeMode?.payload)
    case .rows: return before.rows.hist.written(toReach: after.rows.hist) == nil
    case .rowsCount, .rowsContains, .rowsStructure: return before.rows.hist.changed(.structure, toReach: after.rows.hist)
    case let .rowCount(id): return Self.rowChanged(id, .count, before.rows, after.rows)
    case let .rowTitle(id): return Self.rowChanged(id, .title, before.rows, after.rows)
    case .rowsMap, .rowsLoop, .rowsCounts:
      if before.rows.hist.changed(.structure, toReach: after.rows.hist) { return true }
      return before.rows.ids.contains { Self.rowChanged($0, .count, before.rows, after.rows) }
    }
  }

  /// An optional location: appearing, disappearing or holding a different value.
  private static func replaced(_ before: MChild?, _ after: MChild?) -> Bool {
    switch (before, after) {
    case (nil, nil): false
    case let (before?, after?): before.hist.written(toReach: after.hist) == nil
    default: true
    }
  }

  private static func changed(_ field: MField, _ before: MChild?, _ after: MChild?) -> Bool {
    switch (before, after) {
    case (nil, nil): false
    case let (before?, after?): before.hist.changed(field, toReach: after.hist)
    default: true
    }
  }

  /// The case, or a plain payload, changed.
  private static func caseChanged(_ before: MMode, _ after: MMode) -> Bool {
    before.plainPart != after.plainPart
  }

  /// An element read by id: its identity and field while present; the structure while absent
  /// (reading an absent id reads which ids exist).
  private static func rowChanged(_ id: Int, _ field: MField, _ before: MRows, _ after: MRows) -> Bool {
    guard let written = before.hist.written(toReach: after.hist) else { return true }
    switch (before[id: id], after[id: id]) {
    case (nil, nil): return written.contains(.structure)
    case let (before?, after?): return before.hist.changed(field, toReach: after.hist)
    default: return true
    }
  }
}
