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
    case .rowsRebuilt:
      s.throughSlot(t) {
        var rebuilt = MRows(t)
        rebuilt.rows = $0.rows.rows
        $0.rows = rebuilt
      }
    case .rowsAppend, .rowsInsert, .rowsRemove, .rowsSetNil, .rowAdd, .rowTitle, .rowSetNew, .rowReplaceInPlace,
      .rowsMove, .rowsSwap, .rowsSortByID, .rowsSortByCount, .rowsRemoveOdd:
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
    case let .rowsRemove(id), let .rowsSetNil(id):
      if let i = rows.index(id) { rows.restructure(t) { _ = $0.remove(at: i) } }
    case .rowAdd, .rowTitle:
      if case let .rowAdd(id, _) = self, let i = rows.index(id) { applyToChild(&rows.rows[i], t) }
      if case let .rowTitle(id, _) = self, let i = rows.index(id) { applyToChild(&rows.rows[i], t) }
    case let .rowSetNew(id, c):
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
    case let .rowsSortByID(descending): rows.restructure(t) { $0.sort { descending ? $0.id > $1.id : $0.id < $1.id } }
    case .rowsSortByCount: rows.restructure(t) { $0.sort { $0.count < $1.count } }
    case .rowsRemoveOdd: rows.restructure(t) { $0.removeAll { !$0.count.isMultiple(of: 2) } }
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
