import Synchronization

/// The identity of one observable value: `serial` (who), `valueID` (which value across copies),
/// `location` (where a holder keeps it), `box` (bare readers), and a copy's `origin` and `changes`.
///
/// Copies share an ``Observed`` value's extent; the first write to a shared one *forks* it. Only the
/// holder binds a fork, so a copy's writes never reach its observers. See Design.md §2.
///
/// Invariants (under ``registry``):
/// - `serial` is unique for the process (slots compare serials, never addresses).
/// - `location` is set at most once per location life, replaced only once that location is
///   retired; the binding is valid while `location.boundSerial == serial`.
/// - `origin != nil` ⇔ `isFork`; no origin ⇒ no `changes`; a bound extent has no origin.
/// - `box` is set at most once, by a tracked read outside any holder or by a bare fork.
@usableFromInline
final class Extent: @unchecked Sendable {
  @usableFromInline let serial: UInt64
  /// The serial of the first extent of this lineage: forks keep it, a detached value gets a new
  /// one. A plain array's identity is made of its elements' (a fork is not a new element).
  @usableFromInline let lineageSerial: UInt64
  /// The value this stands for across copies, forks and detaching: TCA's `_$id`, which tells a
  /// child store its child is still there.
  @usableFromInline let valueID: UInt64
  /// Lock-free summary read on every write: zero means "nobody to tell, nothing to record".
  @usableFromInline let flags = Atomic<UInt8>(0)
  /// The location a holder bound this to, weakly: a value outliving its holder (a snapshot) must not
  /// keep the holder's locations and their subscriptions alive.
  @usableFromInline let location = SetOnce<LocationLink>()
  /// The readers of this value outside any holder.
  @usableFromInline let box = SetOnce<BareBox>()
  /// The extent this was forked from, until bound or the lineage is cut. Guarded by ``registry``.
  @exclusivity(unchecked) var origin: Extent?
  /// The keys written since the fork. Guarded by ``registry``.
  @exclusivity(unchecked) var changes = ChangeLog()
  /// When `record` next walks the whole lineage (see `spliceLineage`). Guarded by ``registry``.
  @exclusivity(unchecked) var splice = SpliceSchedule()
  /// The extent whose value this still is: placed as a copy of it (`Slot.place`), nothing written
  /// here or below since. A copy of that written here is a write-back. Not a lineage: no slot adopts
  /// through it, so a value two places share is never bound through it. Guarded by ``registry``.
  @exclusivity(unchecked) var sameAs: Extent?

  @usableFromInline static let isFork: UInt8 = 1
  @usableFromInline static let hasBox: UInt8 = 2
  @usableFromInline static let isBound: UInt8 = 4
  /// `sameAs` is set: the first write to this value, or below it, clears it.
  @usableFromInline static let hasSameAs: UInt8 = 8

  @inlinable
  init() {
    serial = nextExtentSerial.wrappingAdd(1, ordering: .relaxed).newValue
    lineageSerial = serial
    valueID = serial
    #if VALUESTORE_INTERNAL_CHECKS
    _registerLiveExtent(self)
    #endif
  }

  /// An extent continuing `source`'s lineage (a fork), or only its value id (a detached value).
  @usableFromInline
  init(continuing source: Extent, lineage: Bool) {
    serial = nextExtentSerial.wrappingAdd(1, ordering: .relaxed).newValue
    lineageSerial = lineage ? source.lineageSerial : serial
    valueID = source.valueID
    #if VALUESTORE_INTERNAL_CHECKS
    _registerLiveExtent(self)
    #endif
  }

  /// Releases the extents this one links to one at a time: a lineage or a chain of `sameAs` can be
  /// as long as the history kept, and releasing it recursively would overflow the stack. Takes no
  /// lock (an extent may die under the registry lock): what it unlinks is its alone.
  deinit {
    #if VALUESTORE_INTERNAL_CHECKS
    // Not I5: an observer an extent releases checks itself.
    _forgetLiveExtent(serial)
    #endif
    guard origin != nil || sameAs != nil else { return }
    var pending: [Extent] = []
    if let origin = origin.take() { pending.append(origin) }
    if let sameAs = sameAs.take() { pending.append(sameAs) }
    while var next = pending.popLast() {
      guard isKnownUniquelyReferenced(&next) else { continue }
      if let origin = next.origin.take() { pending.append(origin) }
      if let sameAs = next.sameAs.take() { pending.append(sameAs) }
    }
  }

  /// True when a write needs no bookkeeping: not a fork, no bare readers, and (bound) no subscriber
  /// at its location and no tracking scope open (its reads, still to register, must see the write).
  @inlinable
  var isQuiet: Bool {
    let flags = flags.load(ordering: .relaxed)
    if _fastPath(flags == 0) { return true }
    guard flags & ~Extent.hasSameAs == Extent.isBound else { return false }
    return location.withObject { !$0.isObserved.load(ordering: .relaxed) } == true
      && openTrackingScopes.load(ordering: .relaxed) == 0
  }

  /// Before a write of this value: it ends `sameAs`; whether the write needs bookkeeping (see
  /// `isQuiet`).
  @inlinable
  func willWrite() -> Bool {
    let flags = flags.load(ordering: .relaxed)
    if _fastPath(flags == 0) { return false }
    if _slowPath(flags & Extent.hasSameAs != 0) { forgetSameAs() }
    return !isQuiet
  }

  /// Before a write through a slot of this value (it ends `sameAs`): its bound location, if read below.
  @inlinable
  func openingSlot() -> Location? {
    let flags = flags.load(ordering: .relaxed)
    if _slowPath(flags & Extent.hasSameAs != 0) { forgetSameAs() }
    guard _slowPath(flags & Extent.isBound != 0) else { return nil }
    guard location.withObject({ $0.hasChildren.load(ordering: .relaxed) }) == true else { return nil }
    return boundLocation
  }

  /// The location this is bound to, unless retired. Only the holder's mutation asks (it alone retires).
  @inlinable
  var boundLiveLocation: Location? {
    guard flags.load(ordering: .relaxed) & Extent.isBound != 0, let link = location.load(),
      !link.isRetired.load(ordering: .relaxed), let location = link.location, location.isBound(to: self)
    else { return nil }
    return location
  }

  /// The location this is bound to, retired or not.
  @inlinable
  var boundLocation: Location? {
    guard flags.load(ordering: .relaxed) & Extent.isBound != 0, let location = location.load()?.location,
      location.isBound(to: self)
    else { return nil }
    return location
  }
}

@usableFromInline
let nextExtentSerial = Atomic<UInt64>(0)

extension Extent {
  /// The extent for a copy about to change while `origin` is shared. Outside a holder's mutation it
  /// takes `origin`'s bare readers (the copy may be what they read: none lost, they may hear a copy's
  /// change); inside, a fork made here is a copy's (slots fork the holder's values).
  @usableFromInline @inline(never)
  static func fork(of origin: Extent) -> Extent {
    let fork = Extent(continuing: origin, lineage: true)
    let bare = ThreadContext.current.holderDepth == 0
    withRegistry { _ in
      fork.origin = origin
      fork.splice = SpliceSchedule(length: origin.splice.length &+ 1, wholeWalkAt: origin.splice.wholeWalkAt)
      var flags = Extent.isFork
      if let box = origin.box.load() {
        // A reader still to register on the origin would miss the fork's writes: it fires.
        box.version.add(1, ordering: .relaxed)
        if bare, box.isInUse {
          _ = fork.box.storeIfNil(box.copy())
          flags |= Extent.hasBox
        }
      }
      fork.flags.store(flags, ordering: .relaxed)
    }
    return fork
  }

  /// A fresh extent for a value that must stand on its own: no lineage, no readers, same value id.
  @usableFromInline
  static func detached(from extent: Extent) -> Extent {
    Extent(continuing: extent, lineage: false)
  }

  /// Records a write of `key` and notifies its readers: at the bound location, and in the box.
  @usableFromInline @inline(never)
  func didChange(_ key: FieldKey, _ keyPath: AnyKeyPath?) {
    if flags.load(ordering: .relaxed) & Extent.hasSameAs != 0 { forgetSameAs() }
    let change = Change(key: key, keyPath: keyPath)
    let location = boundLocation
    let box = box.load()
    // A read still to register (its scope is open) would miss this write: it finds the version moved.
    if openTrackingScopes.load(ordering: .relaxed) != 0 {
      location?.version.add(1, ordering: .relaxed)
      box?.version.add(1, ordering: .relaxed)
    }
    let isFork = flags.load(ordering: .relaxed) & Extent.isFork != 0
    let observed =
      (location?.isObserved.load(ordering: .relaxed) ?? false) || (box?.isObserved.load(ordering: .relaxed) ?? false)
    if isFork || observed {
      let deliveries = withRegistry { garbage -> [Delivery] in
        if isFork { record(change, &garbage) }
        guard observed else { return [] }
        let changes = [change]
        var deliveries = location?.matching(changes) ?? []
        if let box { deliveries += box.matching(changes) }
        return deliveries
      }
      deliver(deliveries)
    }
    if let location { AppleObservation.didChange(location, change) }
    if let box, ThreadContext.current.holderDepth == 0 { AppleObservation.didChange(box, change) }
  }

  /// This value is about to be written (or below it): it is no longer `sameAs`'s value. Only the
  /// flag, without the lock (the value's owner writes it): the reference goes with the next
  /// `setSameAs` or with this extent.
  @inlinable
  func forgetSameAs() {
    flags.bitwiseAnd(~Extent.hasSameAs, ordering: .relaxed)
  }

  /// `sameAs` while it holds (the flag is set). Requires the registry lock.
  var validSameAs: Extent? {
    flags.load(ordering: .relaxed) & Extent.hasSameAs != 0 ? sameAs : nil
  }

  /// Records that this value is `history`'s (see `sameAs`). Requires the registry lock.
  func setSameAs(_ history: Extent, _ garbage: inout [AnyObject]) {
    if let old = sameAs { garbage.append(old) }
    sameAs = history
    flags.bitwiseOr(Extent.hasSameAs, ordering: .relaxed)
    // `history` is where `history()` stopped: its own link, if any, is stale. Dropped here, so that
    // values placed one after another never chain (each would keep every earlier one alive).
    if history.flags.load(ordering: .relaxed) & Extent.hasSameAs == 0, let stale = history.sameAs.take() {
      garbage.append(stale)
    }
  }

  /// The farthest value this one still is — following forks nothing was written to and values
  /// placed as copies (`sameAs`) — or itself. Requires the registry lock.
  func history() -> Extent {
    var node = self
    while true {
      if let origin = node.origin {
        guard node.changes.isEmpty else { return node }
        node = origin
      } else if let sameAs = node.validSameAs {
        node = sameAs
      } else {
        return node
      }
    }
  }

  /// The keys written since `ancestor` to make this value, if it is or was made from it (through
  /// forks and `sameAs`). Requires the registry lock.
  func written(toReach ancestor: Extent) -> [Change]? {
    var written = ChangeLog()
    var node = self
    while node !== ancestor {
      if let origin = node.origin {
        written.formUnion(node.changes)
        node = origin
      } else if let sameAs = node.validSameAs {
        node = sameAs
      } else {
        return nil
      }
    }
    return written.changes
  }

  /// Records a change in place below `step` on this fork (the log is complete: write-backs trust it).
  @usableFromInline @inline(never)
  func changed(below step: LocationStep) {
    withRegistry { record(Change(below: step), &$0) }
  }

  /// Records a write on this fork. Requires the registry lock.
  func record(_ change: Change, _ garbage: inout [AnyObject]) {
    guard origin != nil else { return }
    changes.insert(change)
    guard splice.length >= splice.wholeWalkAt else { return spliceLineage(&garbage, passing: 2) }
    spliceLineage(&garbage, passing: .max)
    // Every ancestor left is kept by another value; walk them all again at twice as many.
    var length: UInt32 = 0
    var node = self
    while let parent = node.origin {
      length &+= 1
      node = parent
    }
    splice = SpliceSchedule(length: length, wholeWalkAt: max(2 &* length, SpliceSchedule.first))
  }

  /// Drops ancestors only this lineage holds (moving their writes down), except one bound to a
  /// location, which its slot knows by serial; walks past at most `limit` ancestors others keep.
  /// Each write walks past two (an ancestor dropped with the snapshot before last is found at
  /// once), and the whole lineage when it has doubled since the last whole walk: a lineage every
  /// version of which is kept costs O(1) a write, amortized, and holds at most twice the extents
  /// of the values and locations it serves; a bare value without snapshots regains the fast path.
  /// Requires the registry lock.
  func spliceLineage(_ garbage: inout [AnyObject], passing limit: Int) {
    var node = self
    var passed = 0
    while node.origin != nil {
      // Uniqueness first: binding the parent would itself retain it.
      if isKnownUniquelyReferenced(&node.origin), let parent = node.origin, parent.boundLocation == nil {
        node.changes.absorb(&parent.changes)
        node.origin = parent.origin.take()
        garbage.append(parent)
        // Left without an origin: a value of its own (else its writes stay on the slow path).
        if node !== self, node.origin == nil { node.forgetLineage(&garbage) }
      } else {
        passed += 1
        if passed > limit { break }
        node = node.origin!
      }
    }
    if origin == nil { forgetLineage(&garbage) }
  }

  /// The keys written since ancestor `serial`, if this descends from it. Requires the registry lock.
  func written(since serial: UInt64) -> [Change]? {
    lineage(reaching: serial)?.written
  }

  /// Ancestor `serial` and the keys written since, if this descends from it. Requires the registry lock.
  func lineage(reaching serial: UInt64) -> (ancestor: Extent, written: [Change])? {
    var written = changes
    var node = self
    while let parent = node.origin {
      if parent.serial == serial { return (parent, written.changes) }
      written.formUnion(parent.changes)
      node = parent
    }
    return nil
  }

  /// Cuts the lineage: this extent stands for a value of its own now. Requires the registry lock.
  func forgetLineage(_ garbage: inout [AnyObject]) {
    if let origin { garbage.append(origin) }
    origin = nil
    changes = ChangeLog()
    splice = SpliceSchedule()
    flags.bitwiseAnd(~Extent.isFork, ordering: .relaxed)
  }

  /// Cuts the lineage (a value placed as a replacement, or adopted by a slot nobody observes).
  @usableFromInline
  func cutLineage() {
    guard flags.load(ordering: .relaxed) & Extent.isFork != 0 else { return }
    withRegistry { garbage in forgetLineage(&garbage) }
  }

  /// Binds this extent to `location` and cuts its lineage; false if it is bound to another live
  /// location (the value moved: it needs its own extent). A binding lasts its location's life: one
  /// to a retired location rebinds here (a snapshot written back), so the new location hears its
  /// writes. The old link goes to `garbage`: a thread reads a link unretained only while it owns
  /// the value alone, and the holder binds only a value it holds too. Requires the registry lock.
  @usableFromInline
  func bind(to location: Location, _ garbage: inout [AnyObject]) -> Bool {
    let stored = self.location.storeIfNil(location.link)
    if stored !== location.link {
      guard stored.isRetired.load(ordering: .relaxed), let old = self.location.replace(stored, with: location.link) else { return false }
      garbage.append(old)
    }
    forgetLineage(&garbage)
    location.boundSerial.store(serial, ordering: .relaxed)
    flags.bitwiseOr(Extent.isBound, ordering: .relaxed)
    return true
  }

  func makeBox() -> BareBox {
    if let box = box.load() { return box }
    let made = box.storeIfNil(BareBox())
    flags.bitwiseOr(Extent.hasBox, ordering: .relaxed)
    return made
  }
}

/// How long a lineage was when `Extent.record` last walked all of it, and at which length it walks
/// all of it again (an upper bound: forks add one to their origin's, splices do not subtract).
struct SpliceSchedule {
  static let first: UInt32 = 8
  var length: UInt32 = 0
  var wholeWalkAt: UInt32 = first
}
