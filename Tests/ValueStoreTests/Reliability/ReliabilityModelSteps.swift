// The steps of `ReliabilitySteps.swift`, on the reference model.

/// The model's copies, mirroring `RelCopy`.
struct MCopy {
  var root: MState?
  var child: MChild?
  var row: MChild?
  var rows: MRows?
}

/// The model of everything a sequence manipulates.
struct MWorld {
  let tokens = MTokens()
  var state: MState
  var copies = Array(repeating: MCopy(), count: RelCopies.slots)
  var snapshots: [MState?] = Array(repeating: nil, count: RelCopies.snapshotSlots)

  init() { state = MState(tokens) }
}

extension MState {
  /// A write through a field holding observable state: a write of this value too.
  mutating func throughSlot(_ tokens: MTokens, _ body: (inout MState) -> Void) {
    hist.record(.slot, tokens)
    body(&self)
  }
}

extension RelStep {
  func apply(to s: inout MState, _ world: MWorld) {
    let t = world.tokens
    let copy = { (k: Int) in world.copies[k] }
    switch self {
    case let .addCount(d):
      if d != 0 {
        s.count += d
        s.hist.record(.count, t)
      }
    case let .setName(name):
      if name != s.name {
        s.name = name
        s.hist.record(.name, t)
      }
    case .childAdd, .childTitle, .childAppendTitle: s.throughSlot(t) { applyToChild(&$0.child, t) }
    case let .childNew(c): s.throughSlot(t) { $0.child = MChild(count: c, t) }
    case .childReset: s.throughSlot(t) { $0.child = MChild(t) }
    case let .childViaCopy(d):
      s.throughSlot(t) {
        var c = $0.child
        c.add(d, t)
        $0.child = c.assignedToField(t)
      }
    case .childCopyDiscarded, .rootCopyDiscarded: break
    case let .childFromCopy(k):
      if let c = copy(k).child { s.throughSlot(t) { $0.child = c.assignedToField(t) } }
    case .childFromOptional:
      if let o = s.optional { s.throughSlot(t) { $0.child = o.assignedToField(t) } }
    case .optionalNil: s.throughSlot(t) { $0.optional = nil }
    case let .optionalNew(c): s.throughSlot(t) { $0.optional = MChild(count: c, t) }
    case let .optionalAdd(d): s.throughSlot(t) { $0.optional?.add(d, t) }
    case let .optionalTitle(title): s.throughSlot(t) { $0.optional?.setTitle(title, t) }
    case .optionalFromChild: s.throughSlot(t) { $0.optional = $0.child.assignedToField(t) }
    case let .optionalFromCopy(k):
      if let c = copy(k).child { s.throughSlot(t) { $0.optional = c.assignedToField(t) } }
    case .modeIdle: s.throughSlot(t) { $0.mode = .idle }
    case let .modeNew(c): s.throughSlot(t) { $0.mode = .editing(MChild(count: c, t)) }
    case .maybeModeNil: s.throughSlot(t) { $0.maybeMode = nil }
    case .maybeModeIdle: s.throughSlot(t) { $0.maybeMode = .idle }
    case let .modeNote(text): s.throughSlot(t) { $0.mode = .note(text) }
    case let .modeNoteAppend(suffix):
      s.throughSlot(t) { if case let .note(text) = $0.mode { $0.mode = .note(text + suffix) } }
    case let .maybeModeNote(text): s.throughSlot(t) { $0.maybeMode = .note(text) }
    case let .maybeModeNew(c): s.throughSlot(t) { $0.maybeMode = .editing(MChild(count: c, t)) }
    case let .modeAdd(d), let .modeAddInPlace(d):
      s.throughSlot(t) {
        guard case var .editing(c) = $0.mode else { return }
        c.add(d, t)
        $0.mode = .editing(c)
      }
    // An enum has no `_makeIdentityUnique` unless it writes one: its payload shares the extent.
    case .modeFromChild: s.throughSlot(t) { $0.mode = .editing($0.child) }
    case let .modeFromCopy(k):
      if let c = copy(k).child { s.throughSlot(t) { $0.mode = .editing(c) } }
    case let .rowSetCopy(k):
      guard let r = copy(k).row else { return }
      s.throughSlot(t) {
        if let i = $0.rows.index(r.id) {
          $0.rows.rows[i] = r.assignedToField(t)
        } else {
          $0.rows.restructure(t) { $0.append(r) }  // appended as is (no `_makeIdentityUnique`)
        }
      }
    case let .rowsAppendCopy(k):
      guard let r = copy(k).row else { return }
      s.throughSlot(t) { state in
        if state.rows.index(r.id) == nil { state.rows.restructure(t) { $0.append(r) } }
      }
    case let .rowsFromCopy(k):
      if let r = copy(k).rows { s.throughSlot(t) { $0.rows = r.assignedToField(t) } }
    case .rowsRebuilt(.copy):
      // A copy of the array written back where it came from.
      s.throughSlot(t) { $0.rows = $0.rows.assignedToField(t) }
    case .rowsRebuilt:
      s.throughSlot(t) {
        var rebuilt = MRows(t)
        rebuilt.rows = $0.rows.rows
        $0.rows = rebuilt
      }
    case .rowsAppend, .rowsInsert, .rowsRemove, .rowsSetNil, .rowAdd, .rowTitle, .rowSetNew, .rowReplaceInPlace,
      .rowsMove, .rowsSwap, .rowsSortByID, .rowsSortByCount, .rowsRemoveOdd, .rowsRemoveElement, .rowsAppendContents,
      .rowsUpdateAt, .rowsUpdateOrAppend, .rowsUpdateOrInsert, .rowsRemoveFirst, .rowsRemoveLast, .rowsPopLast,
      .rowsRemoveSubrange, .rowsReplaceSubrange, .rowsSetAt, .rowsSortGeneric, .rowsSortUsing, .rowsReverseFirstHalf:
      s.throughSlot(t) { applyToRows(&$0.rows, t) }
    case .rootReset: s = MState(t)
    case let .rootNewShared(n):
      // Three locations, three values: each has a history of its own.
      s = MState(t)
      s.child = MChild(count: n, t)
      s.optional = MChild(count: n, t)
      s.mode = .editing(MChild(count: n, t))
    case let .rootFromCopy(k): if let c = copy(k).root { s = c }
    case let .rootFromSnapshot(k): if let c = world.snapshots[k] { s = c }
    case let .rootUpdatedFromSnapshot(k): if let c = world.snapshots[k] { s.update(from: c, t) }
    }
  }

  func applyToRows(_ rows: inout MRows, _ t: MTokens) {
    switch self {
    case let .rowsAppend(id):
      if rows.index(id) == nil { rows.restructure(t) { $0.append(MChild(id: id, t)) } }
    case let .rowsInsert(id, at):
      if rows.index(id) == nil {
        let offset = at % (rows.rows.count + 1)
        rows.restructure(t) { $0.insert(MChild(id: id, t), at: offset) }
      }
    case let .rowsRemove(id), let .rowsSetNil(id), let .rowsRemoveElement(id):
      if let i = rows.index(id) { rows.restructure(t) { _ = $0.remove(at: i) } }
    case .rowAdd, .rowTitle:
      if case let .rowAdd(id, _) = self, let i = rows.index(id) { applyToChild(&rows.rows[i], t) }
      if case let .rowTitle(id, _) = self, let i = rows.index(id) { applyToChild(&rows.rows[i], t) }
    case let .rowSetNew(id, c), let .rowsUpdateOrAppend(id, c):
      if let i = rows.index(id) {
        rows.rows[i] = MChild(id: id, count: c, t)  // a different value, even if equal (T6)
      } else {
        rows.restructure(t) { $0.append(MChild(id: id, count: c, t)) }
      }
    case let .rowReplaceInPlace(id, c):
      if let i = rows.index(id) { rows.rows[i] = MChild(id: id, count: c, t) }
    case let .rowsMove(from, to):
      guard !rows.rows.isEmpty else { return }
      let (source, destination) = (from % rows.rows.count, to % (rows.rows.count + 1))
      rows.restructure(t) {
        let moved = $0.remove(at: source)
        $0.insert(moved, at: destination > source ? destination - 1 : destination)
      }
    case let .rowsSwap(i, j):
      guard !rows.rows.isEmpty else { return }
      rows.restructure(t) { $0.swapAt(i % $0.count, j % $0.count) }
    case let .rowsSortByID(descending), let .rowsSortGeneric(descending), let .rowsSortUsing(descending):
      rows.restructure(t) { $0.sort { descending ? $0.id > $1.id : $0.id < $1.id } }
    case .rowsSortByCount: rows.restructure(t) { $0.sort { $0.count < $1.count } }
    case .rowsRemoveOdd: rows.restructure(t) { $0.removeAll { !$0.count.isMultiple(of: 2) } }
    case let .rowsAppendContents(ids):
      rows.restructure(t) { rows in
        for id in ids where !rows.contains(where: { $0.id == id }) { rows.append(MChild(id: id, t)) }
      }
    case let .rowsUpdateAt(i, c):
      guard !rows.rows.isEmpty else { return }
      let offset = i % rows.rows.count
      rows.rows[offset] = MChild(id: rows.rows[offset].id, count: c, t)
    case let .rowsUpdateOrInsert(id, c, at):
      if let i = rows.index(id) {
        rows.rows[i] = MChild(id: id, count: c, t)
      } else {
        let offset = at % (rows.rows.count + 1)
        rows.restructure(t) { $0.insert(MChild(id: id, count: c, t), at: offset) }
      }
    case let .rowsRemoveFirst(k): rows.restructure(t) { $0.removeFirst(min(k, $0.count)) }
    case let .rowsRemoveLast(k): rows.restructure(t) { $0.removeLast(min(k, $0.count)) }
    case .rowsPopLast: rows.restructure(t) { _ = $0.popLast() }
    case let .rowsRemoveSubrange(a, b):
      rows.restructure(t) { $0.removeSubrange(relRange(a, b, count: $0.count)) }
    case let .rowsReplaceSubrange(a, b, ids):
      // As swift-identified-collections: the range removed, then each new row from the last, an
      // id still present replaced where it is, any other inserted at the range's start.
      rows.restructure(t) { rows in
        let range = relRange(a, b, count: rows.count)
        rows.removeSubrange(range)
        for id in ids.reversed() {
          if let i = rows.firstIndex(where: { $0.id == id }) {
            rows[i] = MChild(id: id, t)
          } else {
            rows.insert(MChild(id: id, t), at: range.lowerBound)
          }
        }
      }
    case let .rowsSetAt(i, id):
      guard !rows.rows.isEmpty else { return }
      let offset = i % rows.rows.count
      // The row with `id` comes to `offset` (the one there goes where it was), or replaces it.
      if let other = rows.index(id), other != offset { rows.restructure(t) { $0.swapAt(offset, other) } }
      if rows.rows[offset].id == id {
        rows.rows[offset] = MChild(id: id, t)
      } else {
        rows.restructure(t) { $0[offset] = MChild(id: id, t) }
      }
    case .rowsReverseFirstHalf: rows.restructure(t) { $0[..<($0.count / 2)].reverse() }
    default: break
    }
  }

  func applyToChild(_ child: inout MChild, _ t: MTokens) {
    switch self {
    case let .childAdd(d), let .rowAdd(_, d): child.add(d, t)
    case let .childTitle(s), let .rowTitle(_, s): child.setTitle(s, t)
    case let .childAppendTitle(s): child.appendTitle(s, t)
    default: break
    }
  }
}

// MARK: - Lineages (for the bare-value allowance of S11)

extension MWorld {
  /// Whether going from `old` to `new` wrote a value in place that is also a copy of another live
  /// value (another location, a copy, a snapshot): "a mutated copy of an observed bare value".
  func writesASharedCopy(_ old: MState, _ new: MState) -> Bool {
    func birth(_ hist: MHist?) -> Int? { hist?.writes[0].token }
    let written = old.allLocations.filter { location in
      guard let before = old.hist(at: location), let after = new.hist(at: location) else { return false }
      return before != after && before.isAncestor(of: after)
    }
    guard !written.isEmpty else { return false }
    var elsewhere: [Int] = []
    func add(_ state: MState?) {
      if let state { elsewhere += state.allLocations.compactMap { birth(state.hist(at: $0)) } }
    }
    for copy in copies {
      add(copy.root)
      elsewhere += [copy.child?.hist, copy.row?.hist, copy.rows?.hist].compactMap(birth)
      elsewhere += copy.rows?.rows.map { $0.hist.writes[0].token } ?? []
    }
    snapshots.forEach(add)
    return written.contains { location in
      let token = birth(old.hist(at: location))
      return elsewhere.contains { $0 == token }
        || old.allLocations.contains { $0 != location && birth(old.hist(at: $0)) == token }
    }
  }
}

// MARK: - Updating from a snapshot (`update(from:)`, what `StateHistory` undoes with)

// Only what differs is written, in place: observable values keep their history and record the
// fields that change; a location whose value cannot be updated in place (nil ↔ a child, another
// enum case, a conforming enum that differs, an element the snapshot has and the state lacks) takes
// the snapshot's value, as a field setter would.

extension MState {
  mutating func update(from other: MState, _ t: MTokens) {
    // An unchanged copy: the library sees one extent and writes nothing.
    guard hist != other.hist else { return }
    if count != other.count {
      count = other.count
      hist.record(.count, t)
    }
    if name != other.name {
      name = other.name
      hist.record(.name, t)
    }
    throughSlot(t) { state in
      state.child.update(from: other.child, t)
      if var current = state.optional, let target = other.optional {
        current.update(from: target, t)
        state.optional = current
      } else if state.optional?.value != other.optional?.value {
        state.optional = other.optional.map { $0.assignedToField(t) }
      }
      // `Mode` conforms by hand, with the default `_update`: replaced when it differs (by value).
      if state.mode.value != other.mode.value { state.mode = other.mode }
      state.maybeMode = MMode.updated(state.maybeMode, from: other.maybeMode, t)
      state.rows.update(from: other.rows, t)
    }
  }
}

extension MChild {
  /// What `==` compares in the library: the fields, not the history.
  var value: [String] { ["\(id)", "\(count)", title] }

  mutating func update(from other: MChild, _ t: MTokens) {
    guard hist != other.hist else { return }
    if count != other.count {
      count = other.count
      hist.record(.count, t)
    }
    setTitle(other.title, t)
  }
}

extension MMode {
  /// What `==` compares in the library.
  var value: [String] { [plainPart] + (payload?.value ?? []) }

  /// `maybeMode` does not conform: observed by reflection, its payload updated in place when the
  /// case is the same.
  static func updated(_ current: MMode?, from other: MMode?, _ t: MTokens) -> MMode? {
    if case var .editing(child)? = current, case let .editing(target)? = other {
      child.update(from: target, t)
      return .editing(child)
    }
    return current?.value == other?.value ? current : other.map { mode in
      if case let .editing(child) = mode { return .editing(child.assignedToField(t)) }
      return mode
    }
  }
}

extension MRows {
  /// By id: removals, updates in place, insertions, then the snapshot's order.
  mutating func update(from other: MRows, _ t: MTokens) {
    let kept = Set(other.ids)
    restructure(t) { $0.removeAll { !kept.contains($0.id) } }
    for (offset, target) in other.rows.enumerated() {
      if let i = index(target.id) {
        rows[i].update(from: target, t)
      } else {
        restructure(t) { $0.insert(target.assignedToField(t), at: Swift.min(offset, $0.count)) }
      }
    }
    let order = Dictionary(uniqueKeysWithValues: other.ids.enumerated().map { ($1, $0) })
    restructure(t) { $0.sort { order[$0.id]! < order[$1.id]! } }
  }
}
