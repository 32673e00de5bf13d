import Synchronization

/// A place holding an observable value — a field, an identified array's element, a holder's
/// root — around one write of it: the one reconciliation of fields, elements and roots.
///
/// Before the write, if the holder observes below the slot (the parent is bound to a location
/// and a read reached this slot), the value is made that location's own: forked if a copy shares
/// it, then bound. So the holder's own writes notify their readers as they happen, and a copy's
/// never do. After the write the slot compares identities:
///
/// | after vs before | meaning | action |
/// |---|---|---|
/// | the same | changed in place (or not at all) | nothing: the writes told their readers |
/// | a fork descending from before | a copy written back, a payload changed through its case | bind it; tell the location's readers of the keys written since |
/// | anything else | a replacement | the caller detaches it and writes the slot's key; the readers below the slot hear it |
@usableFromInline
struct Slot {
  /// The location of the value in the slot, when the holder observes below it.
  @usableFromInline let location: Location?
  @usableFromInline let before: ObservationIdentity
  /// The value before the slot made it its location's own, if that forked it (a snapshot shared
  /// it): written back (`state = snapshot` of an unchanged copy), it is the slot's value again
  /// (its identity is `before`'s tag with this extent's serial). Else the slot's value itself, if
  /// it is still another's (`Extent.sameAs`): a copy of that written back is a write-back.
  ///
  /// Held while the slot reconciles: a slot recognises its values by their extents' serials, and
  /// a lineage drops an ancestor nothing else holds (`Extent.spliceLineage`). Held, it stays in
  /// the lineage of every copy of it, and a copy of it written meanwhile forks (and records its
  /// writes) rather than writing it in place.
  @usableFromInline let original: Extent?

  /// The extent `before` was forked from as the slot bound it (`unbound`'s, which `origin` is,
  /// taken from the fork as binding cut its lineage), or nil: it was bound as it was, or detached
  /// (it was bound to another location).
  @inlinable
  static func original(_ unbound: ObservationIdentity, boundAs before: ObservationIdentity, origin: Extent?) -> Extent? {
    guard unbound != before, let origin, origin.serial == unbound.serial else { return sameAsHolder(before) }
    return origin
  }

  /// The extent of the value whose identity is `identity` (alive), if it is still another value
  /// (`Extent.sameAs`).
  @inlinable
  static func sameAsHolder(_ identity: ObservationIdentity) -> Extent? {
    guard let extent = identity.unmanagedExtent,
      _slowPath(extent._withUnsafeGuaranteedRef { $0.flags.load(ordering: .relaxed) & Extent.hasSameAs != 0 })
    else { return nil }
    return extent.takeUnretainedValue()
  }

  /// The slot holding `value` at `step` below `parent` (the parent's bound location, nil for a
  /// copy or a value nobody observes), before a write that changes it in place.
  @inlinable
  init<T>(_ value: inout T, as kind: any ObservationIdentifiable.Type, below parent: Location?, at step: @autoclosure () -> LocationStep) {
    let unbound = kind._identity(of: value)
    location = Slot.location(step(), below: parent, of: unbound)
    if let location {
      let bound = kind._bind(&value, to: location)
      before = bound.identity
      original = Slot.original(unbound, boundAs: before, origin: bound.origin?.takeRetainedValue())
    } else {
      before = unbound
      original = Slot.sameAsHolder(unbound)
    }
  }

  /// The slot holding a value whose identity is `before` at `step` below `parent`, before a
  /// write that replaces it (nothing to bind).
  @inlinable
  init(replacing before: ObservationIdentity, below parent: Location?, at step: @autoclosure () -> LocationStep) {
    location = Slot.location(step(), below: parent, of: before)
    self.before = before
    original = Slot.sameAsHolder(before)
  }

  /// A holder's root slot, after the mutation found its value changed (see `bindRoot`).
  @usableFromInline
  init(root location: Location, before: ObservationIdentity, original: Extent?) {
    self.location = location
    self.before = before
    self.original = original
  }

  /// The identity of a value the caller has inout (read in place: in unspecialized code, a
  /// protocol getter on a captured `inout` copies the value first).
  @inlinable
  static func identity<Value: ObservationIdentifiable>(of value: inout Value) -> ObservationIdentity {
    value.observationIdentity
  }

  /// Before a holder's mutation: its root made its location's own. Returns the root slot's
  /// `before` and `original` (the slot itself is made only if the value changed: the location
  /// is borrowed from the holder until then). `original` is retained: the caller releases it as
  /// the mutation ends (unmanaged, so that a mutation that forked nothing pays nothing for it).
  @inlinable
  static func bindRoot<Value: ObservationIdentifiable>(
    _ value: inout Value, to location: Location
  ) -> (before: ObservationIdentity, original: Unmanaged<Extent>?) {
    let unbound = value.observationIdentity
    let (before, origin) = value._bind(to: location)
    guard let origin else { return (before, Slot.sameAsHolder(before).map { .passRetained($0) }) }
    return (before, Slot.original(unbound, boundAs: before, origin: origin.takeRetainedValue()).map { .passRetained($0) })
  }

  /// The location at `step` below `parent`, if a read reached it: the one the value there
  /// (`identity`) is bound to, if it is bound in the tree — a value moves to another field or id
  /// only detached (Detach.swift), so its location is the one at its step — else looked up. (A
  /// plain array's element moves between positions bound: its slot gives no identity.)
  @inlinable
  static func location(
    _ step: @autoclosure () -> LocationStep, below parent: Location?, of identity: ObservationIdentity? = nil
  ) -> Location? {
    guard let parent, _slowPath(parent.hasChildren.load(ordering: .relaxed)) else { return nil }
    if let bound = identity?.extent?.boundLiveLocation { return bound }
    return existing(step(), below: parent)
  }

  @usableFromInline @inline(never)
  static func existing(_ step: LocationStep, below parent: Location) -> Location? {
    withRegistry { _ in parent.existingChild(step) }
  }

  /// After the write: whether the slot still holds its value (the same, or a descendant it
  /// adopted), or the caller must place the new one (see ``Reconciled``). `owner`: the extent of
  /// the value holding the slot (nil for a root). `below` finds the values below the slot's new
  /// value: a copy written back is adopted at every location below it that a step it changed
  /// leads to.
  /// `exclusive`: the new value's extent is this slot's alone (a fork the slot's
  /// `_makeIdentityUnique` just made, or a root's), so it may be kept as a write-back of what the
  /// slot's value still is (`Extent.sameAs`).
  @inlinable
  func reconcile(
    _ after: ObservationIdentity, owner: Extent?, at step: @autoclosure () -> LocationStep,
    below: (LocationStep) -> Below? = { _ in nil }, exclusive: Bool = false
  ) -> Reconciled {
    if _fastPath(after == before) {
      // Changed in place; on a copy, the copy records it.
      if let owner, _slowPath(owner.flags.load(ordering: .relaxed) & Extent.isFork != 0) { owner.changed(below: step()) }
      return .kept
    }
    return reconcileChange(after, owner: owner, at: step(), below: below, exclusive: exclusive)
  }

  @usableFromInline @inline(never)
  func reconcileChange(
    _ after: ObservationIdentity, owner: Extent?, at step: LocationStep, below: (LocationStep) -> Below?, exclusive: Bool
  ) -> Reconciled {
    if let original, after.serial == original.serial, after.tag == before.tag, let location, let extent = after.extent {
      // The value it held before the slot forked it, back: the writes made meanwhile were heard
      // as they were made; it is the location's value again.
      _ = withRegistry { extent.bind(to: location, &$0) }
      return .kept
    }
    var apple: [(Subscribers, [Change]?)] = []
    var placed: Extent?
    let adopted = withRegistry { garbage -> [Delivery]? in
      // A descendant of the value the slot held — or, if the slot forked it for its location, of
      // the value before that fork (a copy taken before this mutation, written back: what the
      // mutation wrote meanwhile was heard as it was written).
      placed = after.extent?.history()
      guard let extent = after.extent, after.tag == before.tag,
        let (ancestor, written) = Slot.adoption(
          of: extent, before: before, original: original, exclusive: exclusive || owner == nil, holds: location != nil)
      else { return nil }
      if let location {
        let history = extent.history()
        if extent.bind(to: location, &garbage) {
          if history !== extent { extent.setSameAs(history, &garbage) }
          return location.deliveries(for: written, below: below, &garbage, apple: &apple)
        }
        placed = history
        return nil  // bound elsewhere: it moved here from another location, a replacement
      }
      // Outside a holder's mutation (a bare value): the ancestor's bare readers read this slot;
      // they follow the value here and hear what was written since (a bare copy written back,
      // S13), and so do the readers of the values below it. Inside one, they read a copy (as a
      // fork there takes no bare readers along).
      var deliveries: [Delivery] = []
      if ThreadContext.current.holderDepth == 0, let box = ancestor.box.load() {
        deliveries = box.deliveries(for: written, to: extent, below: below, &garbage, apple: &apple)
      }
      // The value read at this step below the owner is this one now.
      if let box = owner?.box.load(), box.below[step] != nil { box.read(extent, at: step, &garbage) }
      if let owner, owner.flags.load(ordering: .relaxed) & Extent.isFork != 0, owner.boundLocation == nil {
        // In a copy: whoever writes the copy back learns that something below changed.
        owner.record(Change(below: step), &garbage)
      } else {
        let history = extent.history()
        extent.forgetLineage(&garbage)
        if history !== extent { extent.setSameAs(history, &garbage) }
      }
      return deliveries
    }
    if let adopted {
      deliver(adopted)
      AppleObservation.tell(apple)
      return .kept
    }
    if let location {
      let replaced = withRegistry { _ -> [Delivery] in
        location.boundSerial.store(0, ordering: .relaxed)
        return location.replacedDeliveries()
      }
      deliver(replaced)
      AppleObservation.didReplace(location)
    }
    return .replaced(history: placed)
  }

  /// The value `extent` (after a write) descends from, and the keys written since, if the slot
  /// adopts it: it descends from `before` — or, if the slot forked that for its location, from
  /// the value before that fork (a copy taken before this mutation, written back: what the
  /// mutation wrote meanwhile was heard as it was written) — or, inside a holder, from the value
  /// the slot's value still is (`Extent.sameAs`: placed from the same source, not written since).
  /// Only a fork descending from the slot's value is adopted by lineage (a copy's value, written
  /// back: no other location holds it), and only an `exclusive` one by `sameAs` (a value placed
  /// from elsewhere may be another field's too: a hand-written enum's payload, a fork left unbound
  /// in a field nobody observes). Requires the registry lock.
  static func adoption(
    of extent: Extent, before: ObservationIdentity, original: Extent?, exclusive: Bool, holds: Bool
  ) -> (ancestor: Extent, written: [Change])? {
    let isFork = extent.flags.load(ordering: .relaxed) & Extent.isFork != 0
    if isFork, let found = extent.lineage(reaching: before.serial) ?? original.flatMap({ extent.lineage(reaching: $0.serial) }) {
      return found
    }
    guard exclusive, holds || ThreadContext.current.holderDepth > 0, let history = original?.history(),
      let written = extent.written(toReach: history)
    else { return nil }
    return (history, written)
  }

  /// After the caller detached the value that replaced the slot's (`Reconciled.replaced`):
  /// records that it is `history`'s value (`Extent.sameAs`), so that a copy of that written here
  /// later is a write-back.
  @inlinable
  func place<T>(_ value: inout T, as kind: any ObservationIdentifiable.Type, history: Extent?) {
    guard let history, let extent = kind._identity(of: value).extent, extent !== history else { return }
    Slot.place(extent, history: history)
  }

  @usableFromInline @inline(never)
  static func place(_ extent: Extent, history: Extent) {
    withRegistry { extent.setSameAs(history, &$0) }
  }
}

/// What a slot found after a write (`Slot.reconcile`).
@usableFromInline
enum Reconciled {
  /// It holds its value: the same, or a descendant it adopted (its readers heard what changed).
  case kept
  /// Another value replaced it: every reader at and below the slot heard it. The caller detaches
  /// the value (it may be another location's too), records a write of the slot's key, and places
  /// it (`Slot.place`) with `history`, the value it is a copy of.
  case replaced(history: Extent?)
}

extension Location {
  /// The readers of `changes` made to the value here: of the keys written, and below every step
  /// changed in place on a copy (all of those readers: the copy's values below are not compared).
  /// Requires the registry lock.
  /// `apple` collects what to tell Apple's Observation after the lock: the keys written at a
  /// location, or (nil) that everything there and below changed.
  func deliveries(
    for changes: [Change], below lookup: (LocationStep) -> Below? = { _ in nil },
    _ garbage: inout [AnyObject], apple: inout [(Subscribers, [Change]?)]
  ) -> [Delivery] {
    version.add(1, ordering: .relaxed)
    var deliveries = matching(changes)
    if changes.contains(where: { $0.below == nil }) { apple.append((self, changes)) }
    for change in changes {
      guard let step = change.below, let below = existingChild(step) else { continue }
      // The value below, if known: the one there already (its writes were heard as they were
      // made), or adopted exactly; else everything below hears it.
      let found = lookup(step)
      if let found, found.identity.serial == below.boundSerial.load(ordering: .relaxed) { continue }
      if let found, let extent = found.identity.extent, extent.flags.load(ordering: .relaxed) & Extent.isFork != 0,
        let (_, written) = extent.lineage(reaching: below.boundSerial.load(ordering: .relaxed)),
        extent.bind(to: below, &garbage)
      {
        deliveries += below.deliveries(for: written, below: found.next, &garbage, apple: &apple)
      } else {
        deliveries += below.replacedDeliveries()
        apple.append((below, nil))
      }
    }
    return deliveries
  }
}

extension BareBox {
  /// The readers of `changes` made to the bare value whose box this is, as `value`, a descendant
  /// of it, takes its place (a copy written back): they hear the keys written and follow the value
  /// to its box; below every step changed, the readers of the value read there are reconciled with
  /// the value `lookup` finds there in turn — a descendant the same way, anything else (or nothing
  /// found) as a replacement. Requires the registry lock. `apple`: as for a location.
  func deliveries(
    for changes: [Change], to value: Extent, below lookup: (LocationStep) -> Below?,
    _ garbage: inout [AnyObject], apple: inout [(Subscribers, [Change]?)]
  ) -> [Delivery] {
    version.add(1, ordering: .relaxed)
    guard isInUse else { return [] }
    var deliveries = matching(changes)
    if changes.contains(where: { $0.below == nil }) { apple.append((self, changes)) }
    let box = value.makeBox()
    box.copyRegistrations(of: self)
    for (step, child) in below {
      // The value at `step` below `value`: the one read there, unless a change below it says so.
      var moved: Extent? = child
      if changes.contains(where: { $0.below == step }) {
        let found = lookup(step)
        moved = found?.identity.extent
        if let found, let extent = moved, extent !== child {
          if extent.flags.load(ordering: .relaxed) & Extent.isFork != 0, let (_, written) = extent.lineage(reaching: child.serial) {
            if let below = child.box.load() {
              deliveries += below.deliveries(for: written, to: extent, below: found.next, &garbage, apple: &apple)
            }
          } else {
            if let below = child.box.load() { deliveries += below.replacedDeliveries(apple: &apple) }
          }
        } else if moved == nil, let below = child.box.load() {
          deliveries += below.replacedDeliveries(apple: &apple)
        }
      }
      if let moved {
        box.read(moved, at: step, &garbage)
      } else if let gone = box.below.removeValue(forKey: step) {
        garbage.append(gone)
      }
    }
    return deliveries
  }

  /// Every reader here: the value they read was replaced (bare readers read every step down to a
  /// value, so they all read something here). Requires the registry lock.
  func replacedDeliveries(apple: inout [(Subscribers, [Change]?)]) -> [Delivery] {
    version.add(1, ordering: .relaxed)
    apple.append((self, nil))
    return everyObserver()
  }
}

extension ObservationIdentifiable {
  /// Makes this value `location`'s own before the holder writes it: forked if a copy shares it,
  /// bound, and given a fresh identity if it is bound to another location (it moved there).
  /// Returns its identity then, and the extent it was forked from if binding cut that lineage
  /// (retained: the caller owns it; unmanaged, so that the common case carries no reference).
  @inlinable
  mutating func _bind(to location: Location) -> (identity: ObservationIdentity, origin: Unmanaged<Extent>?) {
    _makeIdentityUnique()
    let identity = observationIdentity
    guard let extent = identity.unmanagedExtent,
      extent._withUnsafeGuaranteedRef({ !location.isBound(to: $0) || !$0.location.holds(location.link) })
    else { return (identity, nil) }
    return _bindSlowly(extent.takeUnretainedValue(), to: location)
  }

  @usableFromInline @inline(never)
  mutating func _bindSlowly(_ extent: Extent, to location: Location) -> (identity: ObservationIdentity, origin: Unmanaged<Extent>?) {
    var origin: Extent?
    if !withRegistry({ garbage in
      origin = extent.origin
      return extent.bind(to: location, &garbage)
    }) {
      origin = nil
      _detach()
      if let fresh = observationIdentity.extent { _ = withRegistry { fresh.bind(to: location, &$0) } }
    }
    return (observationIdentity, origin.map { .passRetained($0) })
  }

  @inlinable @inline(__always)
  static func _bind<T>(_ value: inout T, to location: Location) -> (identity: ObservationIdentity, origin: Unmanaged<Extent>?) {
    withUnsafeMutablePointer(to: &value) {
      UnsafeMutableRawPointer($0).assumingMemoryBound(to: Self.self).pointee._bind(to: location)
    }
  }
}
