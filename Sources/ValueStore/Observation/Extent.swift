import Synchronization

/// The observation identity of one observable value: its registrations, and — when it was made by a
/// non-unique mutation — the extent it was forked from.
///
/// Every ``Observed`` value owns an extent. Copies share it; the first mutation of a copy whose
/// extent is shared *forks* it (a new extent whose `origin` is the old one), so a copy never
/// notifies the observers of the value it was copied from. Whoever holds the value (a parent field,
/// a collection slot, an ``ObservedRoot``) checks its slot after a mutation: a fork of the extent it
/// held before is the same location mutated in place, so the observers are carried over to the
/// fork ("adopted") and told exactly which fields changed. A fork that nobody adopts — a
/// discarded copy — notifies nobody. See Design.md, "Extents and forks".
///
/// Invariants (guarded by ``registry``):
/// - `registrations` is non-empty ⇔ `flags` has `hasRegistrations`;
///   `origin != nil` ⇔ `flags` has `isFork`.
/// - An observer listed in `registrations` lists this extent in `Observer.extents`, and vice versa.
/// - `changes` lists the fields written since the fork; it is empty when `origin == nil`.
/// - `serial` is unique for the process lifetime: slots compare serials, never addresses, so a
///   freed extent whose address is reused is never mistaken for the one a slot held.
@usableFromInline
final class Extent: @unchecked Sendable {
  @usableFromInline let serial: UInt64
  /// Lock-free summary read on every write: zero means "nobody to tell, nothing to record".
  @usableFromInline let flags = Atomic<UInt8>(0)
  /// The latest tracking session (`ThreadContext.anchorSession`; numbered in the order they
  /// begin, on all threads) in which a tracked read reached this extent through a root holder; 0
  /// if none did. A read of it in a session that began no later belongs to the holder's location
  /// even when made on a returned copy (`root.child.count` reads `count` on a copy of `child`).
  /// Not for good: a copy taken out of the holder and read in a session begun after the last
  /// holder read is a copy of its own, and the holder's changes never reach its readers. The
  /// latest, not the last: another thread's older session marking it must not un-mark it for
  /// a session that read it through the holder since (a lost read). Kept apart from `flags` so
  /// that it never slows writes.
  @usableFromInline let anchoredIn = Atomic<UInt64>(0)
  /// Counts the times this extent's registrations were carried to another extent: the low half
  /// when a holder moved its anchored ones (the location moved on), the high half when un-anchored
  /// ones were copied (a bare fork, any adoption). A tracked read remembers it; a registration that
  /// arrives after such a move missed it, so it fires at once instead of waiting on an extent that
  /// nobody will write again (B10: a mutation between a tracked read and its registration).
  @usableFromInline let moves = Atomic<UInt32>(0)
  /// Set while this extent's value is out of its collection slot for an in-place mutation
  /// (`ElementSlot`): if the value dies there, it was replaced, and its readers are told as it
  /// goes — the slot cannot reach them afterwards.
  @usableFromInline let isInFlight = Atomic<Bool>(false)
  /// The serial of the first extent of the value this one stands for: born with a value made by
  /// an initializer, kept by its copies — their forks (a snapshot taken, a copy written back, even
  /// after adoption, unlike `lineageSerial`) and their detached extents (`Detach`). TCA's `_$id`:
  /// what tells a child store that the child it was made for is still there.
  @usableFromInline let firstSerial: Atomic<UInt64>

  var registrations = RegistrationTable()
  /// Registrations of deactivated observers still in `registrations` (see `withdraw`).
  var inactiveRegistrations = 0
  var origin: Extent?
  var changes: [Change] = []
  /// Forks of children that were mutated inside this unadopted fork: they are adopted when this
  /// fork is (a copy written back), and forgotten with it (a copy discarded).
  var pendingAdoptions: [PendingAdoption] = []
  /// Elements that left this collection structure while it was an unadopted fork (inside a
  /// holder's mutation): their readers are told if this fork is adopted — the holder's own
  /// collection lost them — and never if it is discarded (B9: removing from a copy).
  var departures: [Extent] = []
  /// The fork a holder adopted this extent into (its anchored registrations moved there: the
  /// location moved on), and the extents adopted into this one. A registration that arrives
  /// after the move follows it (`locationHead`). Guarded by ``registry``; unretained: a dying
  /// extent takes itself out of the chain (`unlink`; `hasLinks` makes `deinit` take the lock).
  var successor: Unmanaged<Extent>?
  var predecessors: [Unmanaged<Extent>] = []
  let hasLinks = Atomic<Bool>(false)
  /// When the location moved on from this extent (`locationMoves` then), if it did.
  var movedAt: UInt64 = 0
  /// Set by the root holder whose value this extent is, the first time it mutates the value while
  /// someone observes it (see `RootHandle`); written only by that holder, whose mutations are
  /// serialised, and read by it and by `deinit`.
  @exclusivity(unchecked) private(set) var rootHandle: RootHandle?

  @usableFromInline static let hasRegistrations: UInt8 = 1
  @usableFromInline static let isFork: UInt8 = 2

  /// `moves` increments and masks: anchored registrations moved, un-anchored ones copied.
  static let anchoredMove: UInt32 = 0x0000_0001
  static let unanchoredMove: UInt32 = 0x0001_0000

  /// The half of `moves` that concerns an anchored or an un-anchored registration.
  @inlinable
  func moves(anchored: Bool) -> UInt32 {
    moves.load(ordering: .relaxed) & (anchored ? 0x0000_FFFF : 0xFFFF_0000)
  }

  @inlinable
  init() {
    serial = nextExtentSerial.wrappingAdd(1, ordering: .relaxed).newValue
    firstSerial = Atomic(serial)
  }

  /// True when a write to this extent needs no bookkeeping at all.
  @inlinable
  var isQuiet: Bool { flags.load(ordering: .relaxed) == 0 }

  deinit {
    guard flags.load(ordering: .relaxed) & Extent.hasRegistrations != 0 || rootHandle != nil
      || hasLinks.load(ordering: .relaxed)
    else { return }
    let replaced = isInFlight.load(ordering: .relaxed)
    // This thread may hold the lock already: the last reference was a temporary made inside it
    // (see `registry`). Then the bookkeeping is ours to do in place. (A value in flight is never
    // released there: its slot's mutation is user code, which runs outside the lock.)
    if registry.isHeldByCurrentThread {
      unlink()
      unregisterAll(&lateGarbage)
    } else {
      let departed = withRegistry { garbage in
        unlink()
        let departed = replaced ? departureDeliveries() : []
        unregisterAll(&garbage)
        return departed
      }
      deliver(departed)
      // The bridges this thread armed on it go now, with the Observation scopes that never fired,
      // unless one runs here (asking drops them if not: `ObservationBridge.observer`).
      ThreadContext.ifAny { context in
        if context.window.deadBridges.load(ordering: .relaxed) != 0 { _ = context.observationTracksHere() }
      }
    }
  }

  /// Records that a holder adopted `ancestor` into this fork (see `successor`). Requires the
  /// registry lock.
  func follows(_ ancestor: Extent) {
    let opaque = Unmanaged.passUnretained(ancestor).toOpaque()
    ancestor.successor?._withUnsafeGuaranteedRef { $0.predecessors.removeAll { $0.toOpaque() == opaque } }
    ancestor.successor = .passUnretained(self)
    ancestor.movedAt = locationMoves.add(1, ordering: .relaxed).newValue
    predecessors.append(.passUnretained(ancestor))
    ancestor.hasLinks.store(true, ordering: .relaxed)
    hasLinks.store(true, ordering: .relaxed)
  }

  /// The extent this one's location moved on to, through every adoption since (itself if none).
  /// Requires the registry lock.
  func locationHead() -> Unmanaged<Extent> {
    var head = Unmanaged.passUnretained(self)
    while let next = head._withUnsafeGuaranteedRef({ $0.successor }) { head = next }
    return head
  }

  /// Where the location moved on to from this extent, if it moved after `moment` (a value of
  /// `locationMoves`). Requires the registry lock.
  func locationMoved(since moment: UInt64) -> Extent? {
    guard hasLinks.load(ordering: .relaxed), successor != nil, movedAt > moment else { return nil }
    return locationHead().takeUnretainedValue()
  }

  /// Forgets where this extent's location moved on to: it stands for a location again (a value
  /// placed into one). Requires the registry lock.
  func standsAlone() {
    let opaque = Unmanaged.passUnretained(self).toOpaque()
    successor?._withUnsafeGuaranteedRef { $0.predecessors.removeAll { $0.toOpaque() == opaque } }
    successor = nil
  }

  /// Takes this dying extent out of the chain of moves: its predecessors' location moved on to
  /// where this one's did. (Cleared instead, the chain broke wherever the location moved on twice
  /// while a copy of its first value was alive: every write forks an enum's payload, so a view
  /// reading one lost its observer.) Requires the registry lock.
  private func unlink() {
    let next = successor
    standsAlone()
    let opaque = Unmanaged.passUnretained(self).toOpaque()
    for predecessor in predecessors {
      predecessor._withUnsafeGuaranteedRef { predecessor in
        guard predecessor.successor?.toOpaque() == opaque else { return }
        predecessor.successor = next
        next?._withUnsafeGuaranteedRef { $0.predecessors.append(.passUnretained(predecessor)) }
      }
    }
    predecessors = []
  }

  /// The observers a departure of this extent's value from its slot notifies (`didLeave`).
  /// Requires the registry lock.
  private func departureDeliveries() -> [Delivery] {
    let change = [Change(key: .identity, keyPath: nil)]
    let bare = ThreadContext.current.holderDepth == 0
    return bare ? registrations.filter { !$0.anchored }.matching(change) : registrations.matching(change)
  }

  /// A dying extent leaves its observers; a root leaves them to its holder (`RootHandle`), which
  /// notifies them if this happens during its mutation. Requires the registry lock.
  private func unregisterAll(_ garbage: inout [AnyObject]) {
    for registration in registrations {
      registration.observer.forget(self)
      garbage.append(registration.observer)
    }
    if let rootHandle {
      rootHandle.unmanagedExtent = nil
      rootHandle.orphans += registrations.all
      garbage.append(rootHandle)  // it may hold the last references to the orphans
    }
    registrations.removeAll()
  }

  /// An observer with `count` registrations here was deactivated. Requires the registry lock.
  func withdraw(_ count: Int, _ garbage: inout [AnyObject]) {
    inactiveRegistrations += count
    if inactiveRegistrations * 2 >= registrations.count { dropInactiveRegistrations(&garbage) }
  }

  /// Removes the registrations of deactivated observers, whose last references may be these
  /// (they go to `garbage`). Requires the registry lock.
  func dropInactiveRegistrations(_ garbage: inout [AnyObject]) {
    for registration in registrations where !registration.observer.isActive {
      garbage.append(registration.observer)
    }
    registrations.removeAll { !$0.observer.isActive }
    inactiveRegistrations = 0
    updateFlags()
  }
}

@usableFromInline
let nextExtentSerial = Atomic<UInt64>(0)

/// Counts the times a location moved on from an extent while someone tracked (`Extent.follows`):
/// a clock for `Extent.movedAt`.
let locationMoves = Atomic<UInt64>(0)

/// One observer's interest in one field of one extent.
struct Registration {
  let observer: Observer
  let key: FieldKey
  let keyPath: AnyKeyPath?
  /// Made through a root holder's accessor: belongs to the holder's location, so a bare copy that
  /// forks away never takes it along.
  let anchored: Bool
}

/// A child's fork waiting for its parent fork to be adopted.
struct PendingAdoption {
  let child: Extent
  var ancestor: UInt64
}

/// A field written on a fork, remembered until the fork is adopted or discarded.
struct Change {
  let key: FieldKey
  let keyPath: AnyKeyPath?

  /// An element's place in its collection: it left.
  static var identity: [Change] { [Change(key: .identity, keyPath: nil)] }
}

// MARK: - Slow paths (called only when `isQuiet` is false or the extent is shared)

extension Extent {
  /// Makes the extent for a copy that is about to be mutated while `origin` is shared.
  ///
  /// Outside a holder's mutation the copy may be the very variable an observer read (a bare local
  /// with a snapshot alive): it takes the un-anchored registrations along so nothing is lost, at the
  /// price of possibly notifying for a copy (documented). Inside a holder's mutation, slots decide.
  @usableFromInline @inline(never)
  static func fork(of origin: Extent) -> Extent {
    let fork = Extent()
    fork.firstSerial.store(origin.firstSerial.load(ordering: .relaxed), ordering: .relaxed)
    let bare = ThreadContext.current.holderDepth == 0
    withRegistry { _ in
      fork.origin = origin
      var flags = Extent.isFork
      if bare { origin.moves.add(Extent.unanchoredMove, ordering: .relaxed) }
      if bare && !origin.registrations.isEmpty {
        fork.copyRegistrations(from: origin, anchored: false)
        if !fork.registrations.isEmpty { flags |= Extent.hasRegistrations }
      }
      fork.flags.store(flags, ordering: .relaxed)
    }
    return fork
  }

  /// Records a write of `key` and notifies the observers registered for it: all of them, or only
  /// the `anchored` ones (a value left the holder: a copy still holding it is unchanged) or only
  /// the un-anchored ones (the write happened on a copy, not in the holder).
  @usableFromInline @inline(never)
  func didChange(_ key: FieldKey, _ keyPath: AnyKeyPath?, anchored: Bool? = nil) {
    let matched = withRegistry { garbage in
      if origin != nil {
        if !changes.contains(where: { $0.key == key }) { changes.append(Change(key: key, keyPath: keyPath)) }
        spliceLineage(&garbage)
      }
      let change = Change(key: key, keyPath: keyPath)
      guard let anchored else { return registrations.matching(change) }
      return registrations.filter { $0.anchored == anchored }.matching(change)
    }
    deliver(matched)
  }

  /// Drops ancestors that nothing but this lineage holds and whose observers are all here too: no
  /// slot holds them, so no slot can adopt from them. Their writes move to their child in the lineage, so descent from older ancestors
  /// still reports them. A bare value whose snapshots are gone thereby returns to the fast path, and
  /// a lineage never holds more extents than there are values alive that hold them (a live snapshot
  /// in the middle does not keep the dead ones behind it). Requires the registry lock.
  func spliceLineage(_ garbage: inout [AnyObject]) {
    var node = self
    while node.origin != nil {
      // Uniqueness first: binding the parent would itself retain it.
      if isKnownUniquelyReferenced(&node.origin), let parent = node.origin, node.hasEveryRegistration(of: parent) {
        for change in parent.changes where !node.changes.contains(where: { $0.key == change.key }) {
          node.changes.append(change)
        }
        // The parent's waiting adoptions are older: they go first (adopted oldest first).
        node.pendingAdoptions = parent.pendingAdoptions + node.pendingAdoptions
        node.departures = parent.departures + node.departures
        parent.pendingAdoptions = []
        parent.departures = []
        node.compactPendingAdoptions()
        // Take the grandparent from the parent (only this lineage holds the parent), so that the
        // grandparent's uniqueness is decided by this lineage alone.
        node.origin = parent.origin.take()
        garbage.append(parent)
      } else {
        node = node.origin!
      }
    }
    if origin == nil {
      changes = []
      dropWaiting(&garbage)
    }
    updateFlags()
  }

  /// Whether `ancestor`'s registrations are all here too. A bare fork copies them, so a dead
  /// ancestor holds nothing more. One that does (registered while a holder's mutation was half
  /// done: after the fork, before the adoption) must stay in the lineage for the adoption to carry
  /// them. Requires the registry lock.
  private func hasEveryRegistration(of ancestor: Extent) -> Bool {
    ancestor.registrations.allSatisfy { theirs in
      !theirs.observer.isActive || registrations.contains(theirs.observer, key: theirs.key)
    }
  }

  /// Reconciles a slot that held the extent with serial `ancestor` and now holds `self`; `owner` is
  /// the extent of the value that contains the slot (nil for a root).
  ///
  /// If `self` descends from that extent by forks, the slot was mutated in place. When the owner is
  /// itself a fork nobody adopted yet, the slot may belong to a copy: the adoption waits on the
  /// owner (`pendingAdoptions`) and happens if the owner is adopted, or never if the owner is
  /// discarded (outside a holder the un-anchored registrations are copied at once, since no holder
  /// may ever adopt a bare value's fork). Otherwise the ancestor's registrations go to `self` (inside a holder's mutation all
  /// of them, the anchored ones *moved*: the ancestor is no longer the location; outside, only the
  /// un-anchored ones, copied) and are notified of exactly the fields written along the way, then
  /// the children waiting on `self` are adopted in turn. Returns `true` in both cases.
  /// Otherwise the slot holds a different value and `false` tells the caller to record a change of
  /// the slot itself. The lineage is left alone: `self` may be shared with the location it came
  /// from (`mode = .editing(child)` after `child` was forked), whose own adoption still needs it;
  /// the caller detaches the new value and cuts the lineage only if it is the slot's alone.
  @usableFromInline @inline(never)
  func adopt(ancestor: UInt64, owner: Extent?) -> Bool {
    let holder = ThreadContext.current.holderDepth > 0
    var adopted = false
    let matched = withRegistry { garbage -> [Delivery] in
      guard let found = lineage(reaching: ancestor) else { return [] }
      adopted = true
      if let owner, owner.origin != nil {
        if !owner.pendingAdoptions.contains(where: { $0.child === self }) {
          owner.pendingAdoptions.append(PendingAdoption(child: self, ancestor: ancestor))
          owner.compactPendingAdoptions()
        }
        guard !holder else { return [] }
        // Outside a holder nobody may ever adopt the owner (a bare value forked because a snapshot
        // is alive): its un-anchored readers follow now, as a bare fork's do; the anchored ones
        // wait for a holder to adopt the owner (the copy written back).
        return followUnanchored(found)
      }
      return adoptLocked(found, holder: holder, &garbage)
    }
    deliver(matched)
    return adopted
  }

  /// Outside a holder: the un-anchored readers of `found.ancestor` follow this fork now, and so do
  /// those of each child waiting in its lineage (an element edited in a copy written back), at
  /// any depth, and those of the elements that left it; returns what their written fields call
  /// for. Nothing is dropped: a holder may still adopt the owner, and one-shot readers told now are
  /// not told twice. Requires the registry lock.
  private func followUnanchored(_ found: (ancestor: Extent, written: [Change], nodes: [Extent])) -> [Delivery] {
    found.ancestor.moves.add(Extent.unanchoredMove, ordering: .relaxed)
    var matched = copyRegistrations(from: found.ancestor, anchored: false).matching(found.written)
    for node in found.nodes {
      for pending in node.pendingAdoptions {
        guard let childFound = pending.child.lineage(reaching: pending.ancestor) else { continue }
        matched += pending.child.followUnanchored(childFound)
      }
      for element in node.departures {
        matched += element.registrations.filter { !$0.anchored }.matching(Change.identity)
      }
    }
    return matched
  }

  /// The ancestor with serial `serial` and the fields written since it, if `self` descends from it.
  /// Requires the registry lock.
  private func lineage(reaching serial: UInt64) -> (ancestor: Extent, written: [Change], nodes: [Extent])? {
    var written = changes
    var nodes = [self]
    var node = self
    while let parent = node.origin {
      if parent.serial == serial { return (parent, written, nodes) }
      written += parent.changes
      nodes.append(parent)
      node = parent
    }
    return nil
  }

  /// Adopts `found` (see `adopt`). Requires the registry lock.
  private func adoptLocked(
    _ found: (ancestor: Extent, written: [Change], nodes: [Extent]), holder: Bool, _ garbage: inout [AnyObject]
  ) -> [Delivery] {
    var matched: [Delivery]
    if holder, registrations.isEmpty, found.ancestor.registrations.unanchoredCount == 0 {
      // All of them move (a holder's own fork, the usual case): the table is taken whole, in
      // O(1) but for pointing each observer here (with a snapshot alive — an undo history, a
      // test store — every write forks the root, whose table holds every reader of the state).
      takeRegistrations(from: found.ancestor)
      matched = registrations.matching(found.written)
    } else {
      let copied = copyRegistrations(from: found.ancestor, anchored: holder)
      if holder { found.ancestor.removeAnchoredRegistrations(&garbage) }
      matched = copied.matching(found.written)
    }
    found.ancestor.moves.add(holder ? Extent.anchoredMove : Extent.unanchoredMove, ordering: .relaxed)
    // Only a read still being registered can arrive late: its scope or window is open meanwhile.
    if holder, openTrackingScopes.load(ordering: .relaxed) != 0 { follows(found.ancestor) }
    if holder, case let session = found.ancestor.anchoredIn.load(ordering: .relaxed),
      session > anchoredIn.load(ordering: .relaxed)
    {
      anchoredIn.store(session, ordering: .relaxed)  // a fork no other thread has yet
    }
    var waiting: [PendingAdoption] = []
    var departed: [Extent] = []
    // Oldest node first: a slot forked twice along the lineage (a copy edited, then the value
    // written back and edited again) must adopt from its oldest fork before the newer one adopts
    // from that.
    for node in found.nodes.reversed() {
      waiting += node.pendingAdoptions
      departed += node.departures
      // Taken from every node, so that an ancestor a snapshot still holds cannot hand them out
      // a second time.
      node.dropWaiting(&garbage)
    }
    forgetLineage(&garbage)
    for pending in waiting {
      guard let childFound = pending.child.lineage(reaching: pending.ancestor) else {
        pending.child.forgetLineage(&garbage)
        continue
      }
      matched += pending.child.adoptLocked(childFound, holder: holder, &garbage)
    }
    // After the children: an element that was edited (a fork waiting here for its observers) and
    // then removed or replaced has its observers only now: in a holder, those that read it through
    // the holder (a copy still holding it is unchanged); outside one, the array is not the
    // holder's, and only the un-anchored readers hear it (B21).
    for element in departed {
      matched += element.registrations.filter { $0.anchored == holder }.matching(Change.identity)
    }
    return matched
  }

  /// Drops the waiting adoptions of forks that no value holds any more — only this list and the
  /// fork made from them do — and lets that fork wait for what they waited for. So a bare value
  /// written while a snapshot is alive, which no holder ever adopts, keeps one waiting fork per
  /// slot rather than one per write, and the forks in between can be spliced out (B20). A fork a
  /// value still holds keeps its place: it may yet be adopted. Requires the registry lock.
  func compactPendingAdoptions() {
    var index = 0
    while index < pendingAdoptions.count {
      let dying = ObjectIdentifier(pendingAdoptions[index].child)
      guard
        let successor = pendingAdoptions.firstIndex(where: { pending in
          pending.child.origin.map { ObjectIdentifier($0) == dying } ?? false
        })
      else {
        index += 1
        continue
      }
      let waitedFor = pendingAdoptions[index].ancestor
      // Release this list's reference, then see whether the successor's lineage is all that is
      // left. (If it is not, a value still holds the fork, so this release frees nothing.)
      pendingAdoptions.remove(at: index)
      let next = successor > index ? successor - 1 : successor
      if isKnownUniquelyReferenced(&pendingAdoptions[next].child.origin) {
        pendingAdoptions[next].ancestor = waitedFor
      } else {
        let kept = pendingAdoptions[next].child.origin!
        pendingAdoptions.insert(PendingAdoption(child: kept, ancestor: waitedFor), at: index)
        index += 1
      }
    }
  }

  /// Cuts the lineage: this extent stands for a value of its own now, and so do the forks of its
  /// children that waited on its adoption.
  @usableFromInline @inline(never)
  func cutLineage() {
    withRegistry { garbage in
      var cutting = [self]
      while let extent = cutting.popLast() {
        cutting += extent.pendingAdoptions.map(\.child)
        extent.forgetLineage(&garbage)
      }
    }
  }

  /// Cuts the lineage: this extent stands for a value of its own now. Requires the registry lock.
  func forgetLineage(_ garbage: inout [AnyObject]) {
    if let origin { garbage.append(origin) }
    origin = nil
    changes = []
    dropWaiting(&garbage)
    updateFlags()
  }

  /// Forgets the children and departed elements waiting on this fork, releasing them only after
  /// the lock (their deinitializers take it). Requires the registry lock.
  func dropWaiting(_ garbage: inout [AnyObject]) {
    if !pendingAdoptions.isEmpty {
      garbage += pendingAdoptions.map(\.child)
      pendingAdoptions = []
    }
    if !departures.isEmpty {
      garbage += departures
      departures = []
    }
  }

  /// Removes the anchored registrations: they belong to a location this extent no longer stands
  /// for. Requires the registry lock.
  func removeAnchoredRegistrations(_ garbage: inout [AnyObject]) {
    guard registrations.contains(where: \.anchored) else { return }
    if inactiveRegistrations > 0 { dropInactiveRegistrations(&garbage) }
    let leaving = registrations.filter(\.anchored)
    registrations.removeAll(where: \.anchored)
    let staying = registrations.isEmpty ? [] : Set(registrations.lazy.map { ObjectIdentifier($0.observer) })
    for registration in leaving {
      if !staying.contains(ObjectIdentifier(registration.observer)) { registration.observer.forget(self) }
      garbage.append(registration.observer)
    }
    updateFlags()
  }

  /// Takes all of `source`'s registrations (this extent has none). Requires the registry lock.
  private func takeRegistrations(from source: Extent) {
    swap(&registrations, &source.registrations)
    swap(&inactiveRegistrations, &source.inactiveRegistrations)
    for registration in registrations { registration.observer.moveRegistrations(from: source, to: self) }
    updateFlags()
    source.updateFlags()
  }

  /// Copies `source`'s registrations that are not already here (`anchored` filters by kind, nil
  /// copies all). Returns the ones copied. Requires the registry lock.
  @discardableResult
  func copyRegistrations(from source: Extent, anchored: Bool?) -> [Registration] {
    var copied: [Registration] = []
    // A fresh fork (the usual adoption) has none of its own: nothing to check for duplicates, as a
    // table never holds an observer twice for a key.
    let isFresh = registrations.isEmpty
    for registration in source.registrations where anchored == nil || registration.anchored == anchored {
      let observer = registration.observer
      guard observer.isActive, isFresh || !registrations.contains(observer, key: registration.key) else { continue }
      observer.didRegister(on: self)
      copied.append(registration)
      if !isFresh { registrations.append(registration) }
    }
    if isFresh { registrations.append(contentsOf: copied) }
    updateFlags()
    return copied
  }

  /// Recomputes `flags` from the guarded state. Requires the registry lock.
  func updateFlags() {
    var flags: UInt8 = 0
    if !registrations.isEmpty { flags |= Extent.hasRegistrations }
    if origin != nil { flags |= Extent.isFork }
    self.flags.store(flags, ordering: .relaxed)
  }

  /// Registers a new observer for `key`; the caller lists this extent in `observer.extents` and
  /// never registers the same observer and key twice. Requires the registry lock.
  func register(_ observer: Observer, key: FieldKey, keyPath: AnyKeyPath?, anchored: Bool) {
    registrations.append(Registration(observer: observer, key: key, keyPath: keyPath, anchored: anchored))
    if registrations.count == 1 { updateFlags() }
  }

  /// The value of this extent, an element of the collection whose structure extent is
  /// `structure`, left it (removed, or replaced by another value): its readers are told — at
  /// once if the collection is the holder's own; if it may be a copy (an unadopted fork inside a
  /// holder's mutation), when and if the fork is adopted. Outside a holder only the un-anchored
  /// readers are told at once: the collection is not the holder's, although it may be written
  /// back there later (then the anchored readers hear it at the adoption).
  @usableFromInline @inline(never)
  func didLeave(_ structure: Extent) {
    let bare = ThreadContext.current.holderDepth == 0
    let deferred = withRegistry { _ -> Bool in
      guard structure.origin != nil else { return false }
      structure.departures.append(self)
      return true
    }
    if bare || !deferred { didChange(.identity, nil, anchored: !bare) }  // a copy holding it is unchanged
  }

  /// Notifies every observer of this extent: the value it stood for was replaced.
  func replaced() {
    deliver(withRegistry { _ in replacedLocked() })
  }

  /// `replaced`, returning the deliveries: to the observers that read it through its holder (the
  /// un-anchored ones read a copy, which still has the old value). Requires the registry lock.
  fileprivate func replacedLocked() -> [Delivery] {
    moves.add(Extent.anchoredMove, ordering: .relaxed)
    return registrations.filter { $0.anchored && $0.observer.isActive }.map { Delivery(observer: $0.observer, keyPath: $0.keyPath) }
  }

  /// This root extent's handle, made on first use. Called only by the holder whose value this is.
  func makeRootHandle() -> RootHandle {
    if let rootHandle { return rootHandle }
    let handle = RootHandle(self)
    rootHandle = handle
    return handle
  }
}

/// A root holder's hold on its root extent across a mutation, to notify the observers of a root
/// that the mutation replaced — whether the old value is still alive elsewhere (a snapshot) or
/// died meanwhile, on any thread.
///
/// Neither a strong reference (the root would look shared: every write would fork it) nor a weak
/// one (the first weak reference moves the extent's reference counts to a side table, and every
/// retain and release of it takes the slow path from then on: about a fifth of an observed send).
/// Instead the extent, as it dies, clears `unmanagedExtent` and leaves its registrations here,
/// under the registry lock; under that lock an extent still named here has not finished dying.
final class RootHandle: @unchecked Sendable {  // guarded by `registry`
  fileprivate var unmanagedExtent: Unmanaged<Extent>?
  fileprivate var orphans: [Registration] = []

  fileprivate init(_ extent: Extent) { unmanagedExtent = .passUnretained(extent) }

  /// The root was replaced: notifies every observer of the old one.
  func rootReplaced() {
    let deliveries = withRegistry { garbage -> [Delivery] in
      if let extent = unmanagedExtent { return extent._withUnsafeGuaranteedRef { $0.replacedLocked() } }
      // None dies inside the lock: the anchored are kept by their deliveries, the others by garbage.
      defer { orphans = [] }
      garbage += orphans.map(\.observer)
      return orphans.filter(\.anchored).map { Delivery(observer: $0.observer, keyPath: $0.keyPath) }
    }
    deliver(deliveries)
  }
}

extension Array where Element == Registration {
  /// `matching([change])` without making the array.
  func matching(_ change: Change) -> [Delivery] {
    var result: [Delivery] = []
    for registration in self where registration.observer.isActive && registration.key.matches(change.key) {
      result.append(Delivery(observer: registration.observer, keyPath: registration.keyPath ?? change.keyPath))
    }
    return result
  }

  /// The observers among these registrations whose key matches one of `changes`.
  func matching(_ changes: [Change]) -> [Delivery] {
    var result: [Delivery] = []
    for registration in self where registration.observer.isActive {
      for change in changes where registration.key.matches(change.key) {
        result.append(Delivery(observer: registration.observer, keyPath: registration.keyPath ?? change.keyPath))
        break
      }
    }
    return result
  }
}
