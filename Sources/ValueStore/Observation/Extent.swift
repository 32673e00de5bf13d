import Synchronization

/// The identity of one observable value: who it is (`serial`), which value it stands for across
/// copies (`valueID`), where a holder keeps it (`location`), who reads it outside any holder
/// (`box`), and — for a copy being changed — what it was copied from and what changed since.
///
/// Every ``Observed`` value owns an extent; copies share it. The first write to a copy whose
/// extent is shared *forks* it: a new extent whose `origin` is the old one. A fork is never bound
/// to a location until the holder puts it there (a copy written back, or the holder's own value
/// written while a snapshot is alive), so a copy's writes never reach the holder's observers.
/// See Design.md §2.
///
/// Invariants (the lock is ``registry``):
/// - `serial` is unique for the process lifetime (slots compare serials, never addresses).
/// - `location` is set at most once per location life: it is replaced only when the location it
///   names left the holder's tree (retired); the binding is valid while `location.boundSerial ==
///   serial`.
/// - `origin != nil` ⇔ `flags` has `isFork`; `changes` is empty when `origin == nil`; a bound
///   extent has no origin (binding cuts the lineage).
/// - `box` is set at most once, by a tracked read outside any holder or by a bare fork.
@usableFromInline
final class Extent: @unchecked Sendable {
  @usableFromInline let serial: UInt64
  /// The serial of the first extent of this lineage: forks keep it, a detached value gets a new
  /// one. A plain array's identity is made of its elements' (a fork is not a new element).
  @usableFromInline let lineageSerial: UInt64
  /// The value this extent stands for, across copies, forks and detaching: TCA's `_$id` — what
  /// tells a child store that the child it was made for is still there.
  @usableFromInline let valueID: UInt64
  /// Lock-free summary read on every write: zero means "nobody to tell, nothing to record".
  @usableFromInline let flags = Atomic<UInt8>(0)
  /// The location a holder bound this extent to (at most one while it is in the holder's tree),
  /// weakly: a value outliving its holder (a snapshot) must not keep the holder's locations, and
  /// what is subscribed to them, alive.
  @usableFromInline let location = SetOnce<LocationLink>()
  /// The readers of this value outside any holder.
  @usableFromInline let box = SetOnce<BareBox>()
  /// The extent this one was forked from, until a holder binds it or the lineage is cut. Guarded
  /// by ``registry``.
  @exclusivity(unchecked) var origin: Extent?
  /// The keys written since the fork. Guarded by ``registry``.
  @exclusivity(unchecked) var changes = ChangeLog()
  /// The extent whose value this one still is: a slot placed this value as a copy of that one
  /// (`Slot.place`), and nothing was written to it, or below it, since. A copy of that value
  /// written where this one is, is a write-back (`Slot.reconcile`). Not a lineage: no slot adopts
  /// this value through it, so a value two places share is never bound through it. Guarded by
  /// ``registry``.
  @exclusivity(unchecked) var sameAs: Extent?

  @usableFromInline static let isFork: UInt8 = 1
  @usableFromInline static let hasBox: UInt8 = 2
  @usableFromInline static let isBound: UInt8 = 4
  /// `sameAs` is set: the first write to this value, or below it, clears it.
  @usableFromInline static let hasSameAs: UInt8 = 8

  /// A new value's extent.
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

  #if VALUESTORE_INTERNAL_CHECKS
  // Not I5: an extent's teardown inside the lock is tolerated (it takes no lock;
  // LockDisciplineTests does it on purpose). An observer it releases is checked by its own deinit.
  deinit { _forgetLiveExtent(serial) }
  #endif

  /// True when a write to this extent needs no bookkeeping at all: no fork to record, no bare
  /// readers, and — bound — nobody subscribed at its location and no tracking scope open anywhere
  /// (whose reads, still to register, must find the location's version moved).
  @inlinable
  var isQuiet: Bool {
    let flags = flags.load(ordering: .relaxed)
    if _fastPath(flags == 0) { return true }
    guard flags == Extent.isBound else { return false }
    return location.withObject { !$0.isObserved.load(ordering: .relaxed) } == true
      && openTrackingScopes.load(ordering: .relaxed) == 0
  }

  /// Before a write through one of this value's slots (a field or an element holding observable
  /// values): the location below which the slot may be observed — the bound location, if a read
  /// reached below it. A write below ends the history its location records for it.
  @inlinable
  func openingSlot() -> Location? {
    let flags = flags.load(ordering: .relaxed)
    if _slowPath(flags & Extent.hasSameAs != 0) { forgetSameAs() }
    guard _slowPath(flags & Extent.isBound != 0) else { return nil }
    guard location.withObject({ $0.hasChildren.load(ordering: .relaxed) }) == true else { return nil }
    return boundLocation
  }

  /// The location this extent is bound to now, if it is one in its holder's tree. Asked by the
  /// holder's mutation: it alone binds and retires.
  @inlinable
  var boundLiveLocation: Location? {
    guard flags.load(ordering: .relaxed) & Extent.isBound != 0, let link = location.load(),
      !link.isRetired.load(ordering: .relaxed), let location = link.location, location.isBound(to: self)
    else { return nil }
    return location
  }

  /// The location this extent is bound to now, if any.
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

// MARK: - Writes

extension Extent {
  /// Makes the extent for a copy that is about to be changed while `origin` is shared.
  ///
  /// Outside a holder's mutation the copy may be the very variable a bare reader read (a local
  /// with a snapshot alive): it takes the readers of `origin`'s box along, so nothing is lost, at
  /// the price of telling them of a copy's change (S11, bare). Inside a holder's mutation the
  /// holder's own values are forked and bound by their slots (`Slot`), never here: a fork made
  /// here is a copy's.
  @usableFromInline @inline(never)
  static func fork(of origin: Extent) -> Extent {
    let fork = Extent(continuing: origin, lineage: true)
    let bare = ThreadContext.current.holderDepth == 0
    withRegistry { _ in
      fork.origin = origin
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

  /// A fresh extent for a value that must stand on its own (shared with another place, or bound
  /// to another location): no lineage, no readers, the same value id.
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

  /// This value is about to be written (or below it): it is no longer `sameAs`'s value.
  @usableFromInline @inline(never)
  func forgetSameAs() {
    withRegistry { garbage in
      flags.bitwiseAnd(~Extent.hasSameAs, ordering: .relaxed)
      if let sameAs = sameAs.take() { garbage.append(sameAs) }
    }
  }

  /// Records that this value is `history`'s (see `sameAs`). Requires the registry lock.
  func setSameAs(_ history: Extent, _ garbage: inout [AnyObject]) {
    if let old = sameAs { garbage.append(old) }
    sameAs = history
    flags.bitwiseOr(Extent.hasSameAs, ordering: .relaxed)
  }

  /// The farthest value this one still is — following forks nothing was written to and values
  /// placed as copies (`sameAs`) — or itself. Requires the registry lock.
  func history() -> Extent {
    var node = self
    while true {
      if let origin = node.origin {
        guard node.changes.isEmpty else { return node }
        node = origin
      } else if let sameAs = node.sameAs {
        node = sameAs
      } else {
        return node
      }
    }
  }

  /// The keys written since `ancestor`'s value to make this one, if this one is it or was made
  /// from it (forks and the values they record, and values placed as copies). Requires the
  /// registry lock.
  func written(toReach ancestor: Extent) -> [Change]? {
    var written = ChangeLog()
    var node = self
    while node !== ancestor {
      if let origin = node.origin {
        written.formUnion(node.changes)
        node = origin
      } else if let sameAs = node.sameAs {
        node = sameAs
      } else {
        return nil
      }
    }
    return written.changes
  }

  /// A value below `step` changed in place on this fork (a copy): whoever writes the copy back
  /// learns it there (its log is complete: `history()` and write-backs trust it).
  @usableFromInline @inline(never)
  func changed(below step: LocationStep) {
    withRegistry { record(Change(below: step), &$0) }
  }

  /// Records a write on this fork. Requires the registry lock.
  func record(_ change: Change, _ garbage: inout [AnyObject]) {
    guard origin != nil else { return }
    changes.insert(change)
    spliceLineage(&garbage)
  }

  /// Drops ancestors that nothing but this lineage holds — no value holds them, so no slot can
  /// recognise them — moving their writes down; but not one a location is bound to: the slot
  /// that reconciles the location recognises its value by that serial. A lineage thereby never
  /// holds more extents than there are values (and locations) that stand for them, and a bare
  /// value whose snapshots are gone returns to the fast path. Requires the registry lock.
  func spliceLineage(_ garbage: inout [AnyObject]) {
    var node = self
    while node.origin != nil {
      // Uniqueness first: binding the parent would itself retain it.
      if isKnownUniquelyReferenced(&node.origin), let parent = node.origin, parent.boundLocation == nil {
        node.changes.absorb(&parent.changes)
        node.origin = parent.origin.take()
        garbage.append(parent)
        // Nothing above it any more: an ancestor left without an origin stands for a value of its
        // own, as `self` does below (its flag and changes would keep its writes on the slow path).
        if node !== self, node.origin == nil { node.forgetLineage(&garbage) }
      } else {
        node = node.origin!
      }
    }
    if origin == nil { forgetLineage(&garbage) }
  }

  /// The keys written since the ancestor with serial `serial`, if this extent descends from it.
  /// Requires the registry lock.
  func written(since serial: UInt64) -> [Change]? {
    lineage(reaching: serial)?.written
  }

  /// The ancestor with serial `serial` and the keys written since, if this extent descends from
  /// it. Requires the registry lock.
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
    flags.bitwiseAnd(~Extent.isFork, ordering: .relaxed)
  }

  /// Cuts the lineage (a value placed as a replacement, or adopted by a slot nobody observes).
  @usableFromInline
  func cutLineage() {
    guard flags.load(ordering: .relaxed) & Extent.isFork != 0 else { return }
    withRegistry { garbage in forgetLineage(&garbage) }
  }

  /// Binds this extent to `location`: the holder put its value there. False if it is bound to
  /// another location already (the value moved: it needs an extent of its own). Cuts the lineage.
  /// Requires the registry lock.
  ///
  /// A binding is for the life of its location in the holder's tree: an extent bound to a
  /// location that left it (an element removed, `Location.removeChild`) is bound nowhere, and is
  /// bound here — the value came back (a snapshot that still held it, written back), and the
  /// location made anew at its place must hear its writes and tell its reads apart from a
  /// replacement's. The old link is released on `garbage`: a thread reads an extent's link
  /// unretained only while it owns the value alone (writing it in place), and the holder binds
  /// only a value it holds too.
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

  /// The readers' box of this bare value, made on first use.
  func makeBox() -> BareBox {
    if let box = box.load() { return box }
    let made = box.storeIfNil(BareBox())
    flags.bitwiseOr(Extent.hasBox, ordering: .relaxed)
    return made
  }
}
