import Synchronization

/// A place holding an observable value (a field, an identified array's element, a holder's root)
/// around one write of it: the one reconciliation of fields, elements and roots.
///
/// Before the write, if a read reached the slot in a holder, the value becomes its location's own
/// (forked if shared, then bound): the holder's writes notify, a copy's never. After it:
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
  /// The value the slot forked for its location (a snapshot shared it), else the slot's value if
  /// still another's (`Extent.sameAs`) or about to be replaced (a setter): it or a copy of what it
  /// is, written back, is a write-back. Held while the slot reconciles, so lineages keep it
  /// (`Extent.spliceLineage`) and its copies fork.
  @usableFromInline let original: Extent?

  /// `unbound`'s extent if binding forked it into `before` (`origin`, taken from the fork as binding
  /// cut its lineage); else `sameAsTarget(before)`.
  @inlinable
  static func original(_ unbound: ObservationIdentity, boundAs before: ObservationIdentity, origin: Extent?) -> Extent? {
    guard unbound != before, let origin, origin.serial == unbound.serial else { return sameAsTarget(before) }
    return origin
  }

  /// The value the value `identity` names (alive) still is (`Extent.sameAs`), if any. Not that
  /// value's own extent: held through the write, it would make the write fork it.
  @inlinable
  static func sameAsTarget(_ identity: ObservationIdentity) -> Extent? {
    guard let extent = identity.unmanagedExtent,
      _slowPath(extent._withUnsafeGuaranteedRef { $0.flags.load(ordering: .relaxed) & Extent.hasSameAs != 0 })
    else { return nil }
    return sameAsTargetSlowly(extent.takeUnretainedValue())
  }

  @usableFromInline @inline(never)
  static func sameAsTargetSlowly(_ extent: Extent) -> Extent? {
    withRegistry { _ in extent.validSameAs.map { $0.history() } }
  }

  /// The slot of `value` at `step` below `parent` (nil if unobserved), before a write in place.
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
      original = Slot.sameAsTarget(unbound)
    }
  }

  /// The slot of the value `before` names, before a write that replaces it (nothing to bind).
  @inlinable
  init(replacing before: ObservationIdentity, below parent: Location?, at step: @autoclosure () -> LocationStep) {
    location = Slot.location(step(), below: parent, of: before)
    self.before = before
    original = before.extent
  }

  /// A holder's root slot, after the mutation found its value changed (see `bindRoot`).
  @usableFromInline
  init(root location: Location, before: ObservationIdentity, original: Extent?) {
    self.location = location
    self.before = before
    self.original = original
  }

  /// The identity of an inout value, read in place (unspecialized, a protocol getter copies it).
  @inlinable
  static func identity<Value: ObservationIdentifiable>(of value: inout Value) -> ObservationIdentity {
    value.observationIdentity
  }

  /// Before a holder's mutation, makes its root its location's own. Returns the root slot's
  /// `before` and `original`, retained: the caller releases it as the mutation ends (unmanaged, so a
  /// mutation that forked nothing pays nothing). The slot is made only if the value changed.
  @inlinable
  static func bindRoot<Value: ObservationIdentifiable>(
    _ value: inout Value, to location: Location
  ) -> (before: ObservationIdentity, original: Unmanaged<Extent>?) {
    let unbound = value.observationIdentity
    let (before, origin) = value._bind(to: location)
    return (before, Slot.original(unbound, boundAs: before, origin: origin?.takeRetainedValue()).map { .passRetained($0) })
  }

  /// The location at `step` below `parent` if a read reached it: the live one `identity` is bound to
  /// (values change field or id only detached; plain array elements give none), else looked up.
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

  /// After the write (see ``Reconciled``). `owner`: the extent holding the slot, nil for a root.
  /// `below`: the values below the new one, where a copy written back is adopted along the steps it
  /// changed. `exclusive`: the new extent is the slot's alone, so it may be a write-back of `sameAs`.
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
    if let original, after.serial == original.serial, after.tag == before.tag, let location, let extent = after.extent,
      original.location.holds(location.link)
    {
      // Its value before the slot forked it, back (writes meanwhile were heard): bound again.
      _ = withRegistry { extent.bind(to: location, &$0) }
      return .kept
    }
    var apple: [(Subscribers, [Change]?)] = []
    var placed: Extent?
    let adopted = withRegistry { garbage -> [Delivery]? in
      // A descendant of the slot's value (see `adoption`).
      guard let extent = after.extent, after.tag == before.tag,
        let (ancestor, written) = Slot.adoption(
          of: extent, before: before, original: original, exclusive: exclusive || owner == nil, holds: location != nil)
      else {
        placed = after.extent?.history()
        return nil
      }
      if let location {
        let history = extent.history()
        if extent.bind(to: location, &garbage) {
          if history !== extent { extent.setSameAs(history, &garbage) }
          return location.deliveries(for: written, below: below, &garbage, apple: &apple)
        }
        placed = history
        return nil  // bound elsewhere: it moved here from another location, a replacement
      }
      // A bare value: the ancestor's bare readers, and those below, follow it here and hear what
      // was written since. Inside a holder's mutation they read a copy (a fork there takes none).
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

  /// The ancestor the slot adopts `extent` (its value after the write) through, and the keys written
  /// since; nil: a replacement. A fork by lineage from `before` or `original` (a copy written back);
  /// inside a holder, an `exclusive` value by `original`'s `sameAs` history (one placed from
  /// elsewhere may be another field's too). Requires the registry lock.
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

  /// After the caller detached a replacement: records it as `history`'s value (`Extent.sameAs`), so
  /// that a copy of that, written here later, is a write-back.
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
  /// Another value replaced it; every reader at and below the slot heard it. The caller detaches it,
  /// records a write of the slot's key, and places it (`Slot.place`) with `history`, its source.
  case replaced(history: Extent?)
}

extension Location {
  /// The readers of `changes` to the value here: of the keys written, and below each step changed
  /// on a copy. `apple` collects what to tell Apple's Observation after the lock: the keys written
  /// at a place, or nil (everything there and below changed). Requires the registry lock.
  func deliveries(
    for changes: [Change], below lookup: (LocationStep) -> Below? = { _ in nil },
    _ garbage: inout [AnyObject], apple: inout [(Subscribers, [Change]?)]
  ) -> [Delivery] {
    version.add(1, ordering: .relaxed)
    var deliveries = matching(changes)
    if changes.contains(where: { $0.below == nil }) { apple.append((self, changes)) }
    for change in changes {
      guard let step = change.below, let below = existingChild(step) else { continue }
      // The value there already (heard as written), or one adopted exactly; else all below hear it.
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
  /// The readers of `changes` to this box's bare value as its descendant `value` takes its place:
  /// they hear the keys written and follow `value` to its box; below each changed step, what `lookup`
  /// finds is reconciled the same way. `apple`: as for a location. Requires the registry lock.
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

  /// Every reader here, as their value was replaced (bare readers read every step down, so all read
  /// something here). Requires the registry lock.
  func replacedDeliveries(apple: inout [(Subscribers, [Change]?)]) -> [Delivery] {
    version.add(1, ordering: .relaxed)
    apple.append((self, nil))
    return everyObserver()
  }
}

extension ObservationIdentifiable {
  /// Makes this value `location`'s own before the holder writes it: forked if a copy shares it,
  /// bound, detached if bound elsewhere (it moved). Returns its identity and the extent binding cut
  /// it from, if any (retained for the caller; unmanaged: the common case carries no reference).
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
      let unwritten = extent.changes.isEmpty
      guard extent.bind(to: location, &garbage) else { return false }
      // Forked for its location and not written yet: it is still the value it was forked from.
      if unwritten, let origin { extent.setSameAs(origin.history(), &garbage) }
      return true
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
