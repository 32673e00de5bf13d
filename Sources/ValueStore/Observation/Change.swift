/// A key written, with the key path that names it to observers.
@usableFromInline
struct Change {
  let key: FieldKey
  let keyPath: AnyKeyPath?
  /// Set when a value below `step` changed in place on a copy, not a write of `key`: the readers
  /// below `step` hear it when the copy is written back, `key`'s readers never.
  let below: LocationStep?

  @usableFromInline
  init(key: FieldKey, keyPath: AnyKeyPath?) {
    self.key = key
    self.keyPath = keyPath
    below = nil
  }

  /// A value below `step` changed in place on a copy.
  @usableFromInline
  init(below step: LocationStep) {
    key = .descendant
    keyPath = nil
    below = step
  }

  /// A value's place: it was replaced or removed.
  static var identity: Change { Change(key: .identity, keyPath: nil) }

  /// Whether this records what `other` does (the same key and step).
  func isSame(as other: Change) -> Bool { key == other.key && below == other.below }

  /// What `isSame` compares.
  struct Identity: Hashable {
    let key: FieldKey
    let below: LocationStep?
  }

  var identity: Identity { Identity(key: key, below: below) }
}

/// The changes a fork recorded, without repeats (`Change.isSame`), in first-recorded order. Each
/// write of a copy merges a dropped ancestor's log under the registry lock (`Extent.spliceLineage`):
/// past a few changes they are found by hash, and a merge costs what the smaller log holds.
struct ChangeLog {
  private(set) var changes: [Change] = []
  /// The identities of `changes`, kept once there are more than `scanLimit`.
  private var identities: Set<Change.Identity> = []

  /// Up to this many changes, a scan is cheaper than hashing.
  private static let scanLimit = 8

  init() {}

  var isEmpty: Bool { changes.isEmpty }

  func contains(_ change: Change) -> Bool {
    if changes.count <= Self.scanLimit { return changes.contains { $0.isSame(as: change) } }
    return identities.contains(change.identity)
  }

  mutating func insert(_ change: Change) {
    if contains(change) { return }
    changes.append(change)
    if changes.count == Self.scanLimit + 1 {
      identities = Set(changes.map(\.identity))
    } else if changes.count > Self.scanLimit + 1 {
      identities.insert(change.identity)
    }
  }

  /// Appends those of `other` it does not hold, in their order.
  mutating func formUnion(_ other: ChangeLog) {
    for change in other.changes { insert(change) }
  }

  /// `formUnion(older)`, emptying `older` (a dropped ancestor's). If it is the larger its table is
  /// kept: the merge costs what this one holds (each write of a copy merges a snapshot's log).
  mutating func absorb(_ older: inout ChangeLog) {
    defer { older = ChangeLog() }
    guard older.changes.count > Self.scanLimit, older.changes.count > changes.count else {
      return formUnion(older)
    }
    var table: Set<Change.Identity> = []
    swap(&table, &older.identities)
    var repeated: [Change] = []
    for change in changes where !table.insert(change.identity).inserted { repeated.append(change) }
    identities = table
    // In place in the older log's buffer (moved, not copied): its changes follow this one's.
    var merged: [Change] = []
    swap(&merged, &older.changes)
    if !repeated.isEmpty { merged.removeAll { change in repeated.contains { $0.isSame(as: change) } } }
    merged.insert(contentsOf: changes, at: 0)
    changes = merged
  }
}
