/// SplitMix64: tiny, fast, and the same sequence on every platform (so a printed seed replays).
struct RelRandom: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...choices.count - 1)] }

  mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

  /// The seed of the `index`-th sequence of a run started from `base`.
  static func sequenceSeed(base: UInt64, index: Int) -> UInt64 {
    var random = RelRandom(seed: base &+ UInt64(index) &* 0x2545_F491_4F6C_DD1D)
    return random.next()
  }
}

/// Generates operation sequences. Small domains (ids 1–4, deltas −1…2, three titles) on purpose:
/// equal writes, absent ids, no-op sorts and copies written back twice must be frequent.
struct RelGenerator {
  /// Which read styles observers use (`.scoped` only makes sense for stores).
  var styles: [RelReadStyle] = [.chain, .anchored]
  /// Whether loops (`observe`) are generated; bare values use one-shot tracking only.
  var loops = true

  private static let ids = [1, 2, 3, 4]
  private static let deltas = [-1, 0, 1, 2]
  private static let titles = ["", "a", "b"]

  func sequence(seed: UInt64) -> [RelOp] {
    var random = RelRandom(seed: seed)
    var ops: [RelOp] = []
    // Most sequences start from a populated state, so that paths into it exist.
    if random.chance(70) {
      ops.append(.mutate([.rowsAppend(1), .rowsAppend(2), .rowsAppend(3), .optionalNew(0), .modeNew(0)]))
    }
    for _ in 0..<random.int(6...22) {
      if random.chance(8) {
        ops += roundTrip(&random)
      } else {
        ops.append(op(&random))
      }
    }
    return ops
  }

  /// Copy out, edit the copy, write it back: the write-back scenario (S13, T8) as three operations.
  func roundTrip(_ r: inout RelRandom) -> [RelOp] {
    let k = r.int(0...RelCopies.slots - 1)
    let part = part(&r)
    let writeBack: RelStep =
      switch part {
      case .root: .rootFromCopy(k)
      case .child: .childFromCopy(k)
      case .optional: .optionalFromCopy(k)
      case .modePayload: .modeFromCopy(k)
      case .row: .rowSetCopy(k)
      case .rows: .rowsFromCopy(k)
      }
    let edits = (0..<r.int(1...2)).map { _ in RelOp.editCopy(k, editStep(&r)) }
    return [.copyOut(k, part)] + edits + [.mutate([writeBack])]
  }

  func op(_ r: inout RelRandom) -> RelOp {
    switch r.int(0...99) {
    case 0..<34: return .mutate((0..<(r.chance(75) ? 1 : r.int(2...3))).map { _ in step(&r) })
    case 34..<40: return .transaction((0..<r.int(2...3)).map { _ in (0..<r.int(1...2)).map { _ in step(&r) } })
    case 40..<47: return .snapshot(r.int(0...RelCopies.snapshotSlots - 1))
    case 47..<50: return .dropSnapshot(r.int(0...RelCopies.snapshotSlots - 1))
    case 50..<60: return .copyOut(r.int(0...RelCopies.slots - 1), part(&r))
    case 60..<68: return .editCopy(r.int(0...RelCopies.slots - 1), editStep(&r))
    case 68..<72: return .thaw(r.int(0...RelCopies.snapshotSlots - 1), editStep(&r))
    case 72..<74: return .dropCopy(r.int(0...RelCopies.slots - 1))
    case 74..<92: return .track(observer(&r))
    case 92..<96: return .peek(path(&r))
    default: return .cancel(r.int(0...3))
    }
  }

  func part(_ r: inout RelRandom) -> RelPart {
    let id = r.pick(Self.ids)
    return r.pick([.root, .root, .child, .child, .optional, .modePayload, .row(id), .row(id), .rows])
  }

  func observer(_ r: inout RelRandom) -> RelObserverSpec {
    var paths = (0..<(r.chance(60) ? 1 : r.int(2...3))).map { _ in path(&r) }
    // Each path read twice in a row: a tracking scope records a repeated read once.
    if r.chance(20) { paths = paths.flatMap { [$0, $0] } }
    let isLoop = loops && r.chance(30)
    let viaObservation = r.chance(25)
    return RelObserverSpec(
      paths: paths, style: r.pick(styles), isLoop: isLoop, captures: r.chance(25),
      mutatesWhenNotified: loops && !isLoop && r.chance(20), viaObservation: viaObservation,
      writesWhileReading: loops && !isLoop && r.chance(15) ? closureWrite(&r, paths, viaObservation: viaObservation) : nil,
      untrackedPath: r.chance(15) ? path(&r) : nil)
  }

  /// What a tracking closure writes after reading. Through Observation, plain fields in place only:
  /// Observation subscribes to what the closure read when it ends, so after a value it read
  /// through was replaced, or a collection it read changed shape, what it hears follows what it
  /// read, not the paths the model evaluates (Design §5, limits).
  /// Half the time it writes what it read, if that is a plain field.
  func closureWrite(_ r: inout RelRandom, _ paths: [RelPath], viaObservation: Bool) -> RelStep? {
    let (d, s) = (r.pick(Self.deltas.filter { $0 != 0 }), r.pick(Self.titles))
    let write = r.chance(50) ? r.pick(paths).fieldWrite(delta: d, title: s) ?? step(&r) : step(&r)
    return !viaObservation || write.writesFieldsInPlace ? write : nil
  }

  func path(_ r: inout RelRandom) -> RelPath {
    let id = r.pick(Self.ids)
    return r.pick([
      .count, .isEven, .name, .child, .childCount, .childCount, .childTitle, .childCountViaFields, .childCompared, .optional, .optionalCount,
      .mode, .modeCount, .maybeMode, .rows, .rowsCount, .rowsContains(id), .rowCount(id), .rowCount(id), .rowTitle(id),
      .rowsMap, .rowsLoop, .rowsStructure(r.pick(RelStructureRead.allCases)),
      .rowsCounts(r.pick(RelCountsRead.allCases)),
    ])
  }

  /// A step on the observed value.
  func step(_ r: inout RelRandom) -> RelStep {
    let (d, s, id, k) = (r.pick(Self.deltas), r.pick(Self.titles), r.pick(Self.ids), r.int(0...RelCopies.slots - 1))
    if r.chance(5) {
      return r.pick([.maybeModeNil, .maybeModeIdle, .maybeModeNew(r.pick([0, 1])), .maybeModeNote(r.pick(Self.titles))])
    }
    switch r.int(0...99) {
    case 0..<6: return .addCount(d)
    case 6..<9: return .setName(s)
    case 9..<14: return .childAdd(d)
    case 14..<16: return .childTitle(s)
    case 16..<17: return .childAppendTitle(s)
    case 17..<19: return r.chance(50) ? .childNew(r.pick([0, 1])) : .childReset
    case 19..<22: return .childViaCopy(d)
    case 22..<23: return .childCopyDiscarded(d)
    case 23..<27: return .childFromCopy(k)
    case 27..<28: return .childFromOptional
    case 28..<30: return .optionalNil
    case 30..<32: return .optionalNew(r.pick([0, 1]))
    case 32..<35: return .optionalAdd(d)
    case 35..<36: return .optionalTitle(s)
    case 36..<37: return .optionalFromChild
    case 37..<39: return .optionalFromCopy(k)
    case 39..<40: return r.pick([.modeIdle, .modeNote(s), .modeNoteAppend(s), .modeNoteAppend(s)])
    case 40..<42: return .modeNew(r.pick([0, 1]))
    case 42..<45: return r.chance(50) ? .modeAdd(d) : .modeAddInPlace(d)
    case 45..<46: return .modeFromChild
    case 46..<47: return .modeFromCopy(k)
    case 47..<51: return .rowsAppend(id)
    case 51..<52: return r.chance(50) ? .rowsInsert(id, at: r.int(0...4)) : .rowsUpdateOrInsert(id, r.pick([0, 1]), at: r.int(0...4))
    case 52..<53: return .rowsAppendCopy(k)
    case 53..<56: return r.pick([.rowsRemove(id), .rowsRemove(id), .rowsSetNil(id), .rowsRemoveElement(id)])
    case 56..<63: return .rowAdd(id, d)
    case 63..<65: return .rowTitle(id, s)
    case 65..<67:
      let c = r.pick([0, 1])
      return r.pick([.rowSetNew(id, c), .rowReplaceInPlace(id, c), .rowsUpdateOrAppend(id, c), .rowsUpdateAt(r.int(0...4), c)])
    case 67..<70: return .rowSetCopy(k)
    case 70..<72: return r.chance(60) ? .rowsMove(r.int(0...4), to: r.int(0...5)) : .rowsSetAt(r.int(0...4), id)
    case 72..<73: return r.chance(60) ? .rowsSwap(r.int(0...4), r.int(0...4)) : .rowsReverseFirstHalf
    case 73..<75:
      let descending = r.chance(50)
      return r.pick([.rowsSortByCount, .rowsSortByID(descending: descending), .rowsSortGeneric(descending: descending),
        .rowsSortUsing(descending: descending)])
    case 75..<76: return .rowsRemoveOdd
    case 76..<77: return .rowsRebuilt(r.pick(RelRebuild.allCases))
    case 77..<79: return .rowsFromCopy(k)
    case 79..<83: return rangeStep(&r)
    case 83..<86: return .rootCopyDiscarded(editStep(&r))
    case 86..<88: return r.chance(50) ? .rootReset : .rootNewShared(r.pick([0, 1]))
    case 88..<94: return .rootFromCopy(k)
    default:
      let k = r.int(0...RelCopies.snapshotSlots - 1)
      return r.chance(50) ? .rootFromSnapshot(k) : .rootUpdatedFromSnapshot(k)
    }
  }

  /// A removal or replacement of a range of rows, or of several rows at once (issue 32's API).
  func rangeStep(_ r: inout RelRandom) -> RelStep {
    let (a, b) = (r.int(0...4), r.int(0...4))
    let ids = (0..<r.int(0...3)).map { _ in r.pick(Self.ids) }
    return r.pick([
      .rowsRemoveFirst(r.int(0...2)), .rowsRemoveLast(r.int(0...2)), .rowsPopLast, .rowsRemoveSubrange(a, b),
      .rowsReplaceSubrange(a, b, ids), .rowsReplaceSubrange(a, b, ids), .rowsAppendContents(ids),
    ])
  }

  /// A step that edits a copy: it names no other copy (the copies are being edited in place).
  func editStep(_ r: inout RelRandom) -> RelStep {
    let (d, s, id) = (r.pick(Self.deltas), r.pick(Self.titles), r.pick(Self.ids))
    return r.pick([
      .addCount(d), .setName(s), .childAdd(d), .childAdd(d), .childTitle(s), .childAppendTitle(s), .childNew(0),
      .optionalAdd(d), .optionalNil, .modeAdd(d), .modeAddInPlace(d), .modeNoteAppend(s), .rowAdd(id, d), .rowAdd(id, d), .rowTitle(id, s),
      .rowsAppend(id), .rowsRemove(id), .rowsSortByID(descending: true), .rowSetNew(id, 0), .rowReplaceInPlace(id, 0),
      .rowsUpdateOrAppend(id, 1), .rowsRemoveFirst(1), .rowsSetAt(0, id), .rowsReplaceSubrange(0, 1, [id]),
      .rowsSortGeneric(descending: true),
    ])
  }
}
