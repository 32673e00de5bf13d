// Not part of the reference model: a simulation of which library extents the model's values would
// have, so that `RelKnownBug` can recognise the situations of known bugs that depend on them (B1,
// B4, B6). The rules, from the old core (Documentation/CoreHistory.md) and `Extent.adopt`:
//
// - A copy shares its original's extent. A write to a value whose extent is shared forks it: a new
//   extent whose origin is the old one; otherwise the write is in place.
// - A slot that adopts a fork (or finds a replacement) cuts the fork's lineage. Inside a holder every
//   value sits in a slot; so do the children of a copy of the root. A standalone copy keeps its
//   lineage until it is written into a slot.
// - A field setter gives the assigned value an extent of its own (`assignedToField`). Assigning the
//   root does not: the holder shares the copy's extent, whose lineage the holder then cuts.

/// An observable value's place in the state.
enum MLocation: Hashable {
  case root, child, optional, mode, rows, row(Int)
}

extension MState {
  /// The observable values of the state, by location.
  var allLocations: [MLocation] {
    var result: [MLocation] = [.root, .child, .rows]
    if optional != nil { result.append(.optional) }
    if mode.payload != nil { result.append(.mode) }
    result += rows.rows.map { .row($0.id) }
    return result
  }

  func hist(at location: MLocation) -> MHist? {
    switch location {
    case .root: hist
    case .child: child.hist
    case .optional: optional?.hist
    case .mode: mode.payload?.hist
    case .rows: rows.hist
    case let .row(id): rows[id: id]?.hist
    }
  }

  func extents(at location: MLocation) -> [Int]? {
    switch location {
    case .root: extents
    case .child: child.extents
    case .optional: optional?.extents
    case .mode: mode.payload?.extents
    case .rows: rows.extents
    case let .row(id): rows[id: id]?.extents
    }
  }

  /// Every observable value's simulated extents.
  var extentChains: [[Int]] { allLocations.compactMap { extents(at: $0) } }

  mutating func setExtents(_ extents: [Int], at location: MLocation) {
    switch location {
    case .root: self.extents = extents
    case .child: child.extents = extents
    case .rows: rows.extents = extents
    case .optional: optional?.extents = extents
    case .mode:
      if case var .editing(payload) = mode {
        payload.extents = extents
        mode = .editing(payload)
      }
    case let .row(id):
      if let i = rows.index(id) { rows.rows[i].extents = extents }
    }
  }
}

extension MWorld {
  /// How many values hold each extent: the state's locations, copies (and their children), snapshots.
  func holders() -> [Int: Int] {
    var counts: [Int: Int] = [:]
    func add(_ extents: [Int]?) { if let extents { counts[extents[0], default: 0] += 1 } }
    func add(_ state: MState?) {
      guard let state else { return }
      let chains: [[Int]?] = [state.extents, state.child.extents, state.rows.extents, state.optional?.extents,
        state.mode.payload?.extents]
      chains.forEach(add)
      for row in state.rows.rows { add(row.extents) }
    }
    add(state)
    for copy in copies {
      add(copy.root)
      add(copy.child?.extents)
      add(copy.row?.extents)
      add(copy.rows?.extents)
      copy.rows?.rows.forEach { add($0.extents) }
    }
    snapshots.forEach(add)
    return counts
  }

  /// The locations of `new` written since `old` (same lineage, more writes) whose extent did not
  /// change by assignment.
  private static func writtenInPlace(_ old: MState, _ new: MState) -> [(location: MLocation, extents: [Int])] {
    new.allLocations.compactMap { location in
      guard let before = old.hist(at: location), let after = new.hist(at: location), before != after,
        before.isAncestor(of: after), let extents = old.extents(at: location), extents == new.extents(at: location)
      else { return nil }
      return (location, extents)
    }
  }

  /// After a step of a holder mutation took the state (`self.state`) to `new`: a value written
  /// while shared forked, and its slot adopted the fork (a new extent, lineage cut).
  mutating func simulateHolderStep(_ step: RelStep, _ new: inout MState) {
    let written = Self.writtenInPlace(state, new)
    let holders = written.isEmpty ? [:] : holders()
    for (location, extents) in written {
      // `modifyEditing` copies the payload out before writing it: it always forks.
      let copiedOut = location == .mode && step.area == .mode
      if copiedOut || holders[extents[0], default: 0] > 1 { new.setExtents([tokens.make()], at: location) }
    }
    if new.extents[0] != state.extents[0] { cutRootLineage(new.extents[0], &new) }
  }

  /// After an edit took a copy of the root (one of `copies` or `snapshots`) from `old` to `new`:
  /// forks of its children are adopted by the copy's own slots (cut); its root keeps its lineage
  /// (nothing adopts it).
  func simulateCopyEdit(_ old: MState, _ new: inout MState) {
    let holders = holders()
    for (location, extents) in Self.writtenInPlace(old, new) where holders[extents[0], default: 0] > 1 {
      new.setExtents(location == .root ? [tokens.make()] + extents : [tokens.make()], at: location)
    }
  }

  /// After an edit of a standalone copy of a child, a row or a collection (its elements are
  /// adopted by the collection's slots).
  func simulateCopyEdit(_ old: MChild, _ new: inout MChild) {
    if old.hist != new.hist && holders()[old.extents[0], default: 0] > 1 { new.extents = [tokens.make()] + old.extents }
  }

  func simulateCopyEdit(_ old: MRows, _ new: inout MRows) {
    let holders = holders()
    if old.hist != new.hist && holders[old.extents[0], default: 0] > 1 { new.extents = [tokens.make()] + old.extents }
    for i in new.rows.indices {
      guard let before = old[id: new.rows[i].id], before.hist != new.rows[i].hist else { continue }
      if holders[before.extents[0], default: 0] > 1 { new.rows[i].extents = [tokens.make()] }
    }
  }

  /// The holder now holds root extent `head` (assigned): it cuts that extent's lineage, which the
  /// copies sharing it see too.
  private mutating func cutRootLineage(_ head: Int, _ new: inout MState) {
    new.extents = [head]
    for k in copies.indices where copies[k].root?.extents[0] == head { copies[k].root!.extents = [head] }
    for k in snapshots.indices where snapshots[k]?.extents[0] == head { snapshots[k]!.extents = [head] }
  }
}
