@testable import ValueStore

// Taking and editing copies of the observed value, on both sides, and the summaries compared after
// every operation.

extension RelState {
  func copy(_ part: RelPart) -> RelCopy {
    switch part {
    case .root: RelCopy(root: self)
    case .child: RelCopy(child: self.child)
    case .optional: RelCopy(child: self.optional)
    case .modePayload: RelCopy(child: self.mode.payload)
    case let .row(id): RelCopy(row: self.rows[id: id])
    case .rows: RelCopy(rows: self.rows)
    }
  }

  /// Whether every value equals the model's (read without tracking).
  func matches(_ model: MState) -> Bool {
    func same(_ child: Child?, _ other: MChild?) -> Bool {
      let fields = child?._$fields.fields
      return fields?.count == other?.count && fields?.title == other?.title
    }
    let fields = _$fields.fields
    let rows = fields.rows._elements
    return fields.count == model.count && fields.name == model.name && same(fields.child, model.child)
      && same(fields.optional, model.optional) && same(fields.mode.payload, model.mode.payload)
      && (fields.mode.payload == nil) == (model.mode.payload == nil) && rows.count == model.rows.rows.count
      && zip(rows, model.rows.rows).allSatisfy { row, other in
        let fields = row._$fields.fields
        return fields.id == other.id && fields.count == other.count && fields.title == other.title
      }
  }

  /// Every value, read without tracking.
  var summary: String {
    let fields = _$fields.fields
    let rows = fields.rows._elements.map { "\($0.id):\($0._$fields.fields.count)|\($0._$fields.fields.title)" }
    return "count=\(fields.count) name=\(fields.name) child=\(relDescribe(fields.child)) "
      + "optional=\(relDescribe(fields.optional)) "
      + "mode=\(RelPath.describe(fields.mode)) rows=\(rows)"
  }
}

extension MState {
  func copy(_ part: RelPart) -> MCopy {
    switch part {
    case .root: MCopy(root: self)
    case .child: MCopy(child: child)
    case .optional: MCopy(child: optional)
    case .modePayload: MCopy(child: mode.payload)
    case let .row(id): MCopy(row: rows[id: id])
    case .rows: MCopy(rows: rows)
    }
  }

  var summary: String {
    func describe(_ child: MChild?) -> String { child.map { "\($0.count)|\($0.title)" } ?? "nil" }
    let rows = self.rows.rows.map { "\($0.id):\($0.count)|\($0.title)" }
    return "count=\(count) name=\(name) child=\(describe(child)) "
      + "optional=\(describe(optional)) mode=\(mode.payload.map { "editing(\(describe($0)))" } ?? mode.plainPart) rows=\(rows)"
  }
}

extension RelCopies {
  /// Edits copy `k` in place, as a local variable would be (no other reference to it here).
  func editCopy(_ k: Int, _ step: RelStep) {
    if copies[k].root != nil {
      step.apply(to: &copies[k].root!, self)
    } else if copies[k].child != nil {
      step.applyToChild(&copies[k].child!)
    } else if copies[k].row != nil {
      step.applyToRow(&copies[k].row!)
    } else if copies[k].rows != nil {
      step.applyToRows(&copies[k].rows!)
    }
  }

  func thaw(_ k: Int, _ step: RelStep) {
    if snapshots[k] != nil { step.apply(to: &snapshots[k]!, self) }
  }
}

extension MWorld {
  mutating func editCopy(_ k: Int, _ step: RelStep) {
    var copy = copies[k]
    if let old = copy.root {
      step.apply(to: &copy.root!, self)
      simulateCopyEdit(old, &copy.root!)
    } else if let old = copy.child {
      step.applyToChild(&copy.child!, tokens)
      simulateCopyEdit(old, &copy.child!)
    } else if let old = copy.row {
      step.applyToChild(&copy.row!, tokens)
      simulateCopyEdit(old, &copy.row!)
    } else if let old = copy.rows {
      step.applyToRows(&copy.rows!, tokens)
      simulateCopyEdit(old, &copy.rows!)
    }
    copies[k] = copy
  }

  mutating func thaw(_ k: Int, _ step: RelStep) {
    guard let old = snapshots[k] else { return }
    var snapshot = old
    step.apply(to: &snapshot, self)
    simulateCopyEdit(old, &snapshot)
    snapshots[k] = snapshot
  }
}
