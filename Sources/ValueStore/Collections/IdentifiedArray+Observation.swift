import Synchronization

// Observation of an identified array (see Documentation/Store.md, "Collections"):
//
// - Its *structure* — ids, order, count — has its own extent, read by `count`, `ids`, iteration
//   bounds, `index(id:)`, `contains(id:)`, and written by every structural mutation.
// - An element that is `ObservationIdentifiable` (an observable struct) keeps its own extent:
//   reading `rows[id: 1]` records a read of the element's *identity* at its location (the array's
//   location, then the id), and each element slot is a ``Slot``, reconciled like a parent's field
//   after an in-place mutation. A change inside one row therefore never notifies other rows or
//   the structure, and costs O(1) whatever the count.
// - Elements that are not observable are observed together: reading one records `elements` on
//   the structure's extent, and any element change notifies it.

extension IdentifiedArray: ObservationIdentifiable {
  @inlinable
  public var observationIdentity: ObservationIdentity { ObservationIdentity(_extent) }

  @inlinable
  public mutating func _makeIdentityUnique() {
    if !isKnownUniquelyReferenced(&_extent) { _extent = Extent.fork(of: _extent) }
  }

  /// Gives the structure and every observable element (to any depth) identities of their own:
  /// O(*n*), and a copy of the storage if it is shared. Only replacements pay it.
  public mutating func _detach() {
    Extent.detached(&_extent)
    guard _observableElements else { return }
    let type = _observableType
    for offset in _elements.indices { type._detach(&_elements[offset]) }
  }
}

// Key paths are immutable; `nonisolated(unsafe)` only because AnyKeyPath is not marked Sendable.
extension ObservationChange {
  /// Reported for a collection's structure (ids, order, count).
  public nonisolated(unsafe) static let structure: AnyKeyPath = \CollectionFields.structure
  /// Reported for the elements of a collection whose elements are not observable themselves.
  public nonisolated(unsafe) static let elements: AnyKeyPath = \CollectionFields.elements
}

/// Names for what a collection reports, since its structure is not a stored field.
public struct CollectionFields: Sendable {
  var structure: Void
  var elements: Void
}

extension FieldKey {
  /// The elements of a collection whose elements are not observable themselves.
  @usableFromInline static let elements = FieldKey(rawValue: -3)

  /// The identity of the element with `id`, when its identity has no extent to be read on (a
  /// payload-less enum case, a plain payload, `nil`): its readers register on the collection's
  /// structure extent under this key. Two ids with one key (a hash collision) hear each other:
  /// spurious, never lost.
  @inlinable
  static func element<ID: Hashable>(_ id: ID) -> FieldKey { FieldKey(rawValue: -4 - (id.hashValue & (Int.max >> 1))) }
}

extension IdentifiedArray: ElementsByID {
  func _elementBelow(id: AnyHashable) -> Below? {
    guard _observableElements, let id = id.base as? ID, let offset = _offset(of: id) else { return nil }
    let element = _elements[offset]
    let type = _observableType
    return Below(identity: _identity(of: element)) { type._below(of: element, at: $0) }
  }
}

// MARK: - Reads

extension IdentifiedArray {
  @inlinable
  func _recordStructureAccess() {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) {
      _extent.recordRead(.structure, ObservationChange.structure, child: nil)
    }
  }

  @inlinable
  func _recordElementAccess(at offset: Int) {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) {
      if _observableElements {
        _extent.recordElementRead(_ids[offset], key: .element(_ids[offset]), _identity(of: _elements[offset]))
      } else {
        _extent.recordRead(.elements, ObservationChange.elements, child: nil)
      }
    }
  }

  /// Records a read of every element and the structure (the whole array is read: compared,
  /// hashed, encoded, described, or handed out as a buffer). O(*n*), only when someone tracks.
  @inlinable
  func _recordWholeAccess() {
    _recordAccess(to: _elements.indices)
  }

  /// Records a read of the structure and of the elements at `offsets`: each observable element's
  /// identity, or, for plain elements, `elements`. O(`offsets.count`), only when someone tracks.
  @inlinable
  func _recordAccess(to offsets: Range<Int>) {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) {
      _extent.recordRead(.structure, ObservationChange.structure, child: nil)
      guard _observableElements else {
        _extent.recordRead(.elements, ObservationChange.elements, child: nil)
        return
      }
      for offset in offsets { _recordElementAccess(at: offset) }
    }
  }

  @inlinable
  func _identity(of element: Element) -> ObservationIdentity {
    // A conforming element (its own kind) is cast: cheaper than going through its kind (≈ 12 ns).
    if ObjectIdentifier(_observableType) == ObjectIdentifier(Element.self) {
      return (element as! any ObservationIdentifiable).observationIdentity
    }
    return _observableType._identity(of: element)
  }
}

extension Extent {
  /// Records a tracked read of the element with `id` (identity `element`) of the collection whose
  /// structure this extent is: of its identity at its location below the collection's, handed
  /// out there; for a bare collection, on the element's own box (or, for an element with no
  /// extent, this one's under `key`).
  @usableFromInline @inline(never)
  func recordElementRead<ID: Hashable>(_ id: ID, key: FieldKey, _ element: ObservationIdentity) {
    ThreadContext.withCurrent { context in
      guard context.isRecording else { return }
      if let handout = context.handout(of: serial) {
        let step = LocationStep.element(AnyHashable(id))
        let (location, version) =
          element.extent.map { context.handOut($0, below: handout, at: step) }
          ?? withRegistry { _ in
            let location = handout.location.child(step)
            return (location, location.version.load(ordering: .relaxed))
          }
        // As old as the collection's handout: a structure moved on since makes it stale.
        let current = handout.location.version.load(ordering: .relaxed) == handout.version
        let access = Access(
          subscribers: location, key: .identity, keyPath: nil, version: current ? version : version &- 1,
          serial: element.extent?.serial ?? 0)
        context.record(access)
      } else if let child = element.extent, let handout = context.handout(of: child.serial) {
        // A collection made from the holder's elements (a sorted or filtered copy): its
        // element is still the holder's.
        context.record(
          Access(
            subscribers: handout.location, key: .identity, keyPath: nil, version: handout.version, serial: handout.serial))
      } else if let child = element.extent {
        guard context.recordsBare(child.lineageSerial) else { return }
        let box = child.makeBox()
        context.record(
          Access(subscribers: box, key: .identity, keyPath: nil, version: box.version.load(ordering: .relaxed), serial: 0),
          bare: child.lineageSerial)
        let collection = makeBox()
        withRegistry { garbage in collection.read(child, at: .element(AnyHashable(id)), &garbage) }
      } else if context.recordsBare(lineageSerial) {
        let box = makeBox()
        context.record(
          Access(
            subscribers: box, key: key, keyPath: ObservationChange.elements, version: box.version.load(ordering: .relaxed),
            serial: 0), bare: lineageSerial)
      }
    }
  }
}

// MARK: - Writes

extension IdentifiedArray {
  /// Makes the structure's extent this array's own before recording a write (forking a shared
  /// one), and says whether there is anything to record.
  @inlinable
  mutating func _prepareStructureWrite() -> Bool {
    if _fastPath(isKnownUniquelyReferenced(&_extent)) { return _extent.willWrite() }
    _extent = Extent.fork(of: _extent)
    return true
  }

  /// Runs after every change of ids, order or count.
  @inlinable
  mutating func _structureDidChange() {
    guard _prepareStructureWrite() else { return }
    _extent.didChange(.structure, ObservationChange.structure)
    if !_observableElements { _extent.didChange(.elements, ObservationChange.elements) }
  }

  /// Runs after an element left the array: whoever read it is told it is gone.
  @inlinable
  mutating func _didRemove(id: ID, element: Element?) {
    guard _observableElements else { return }
    _ = _prepareStructureWrite()
    let identity = element.map(_identity(of:))
    _extent.elementLeft(
      .element(AnyHashable(id)), box: identity?.extent?.box.load(), key: identity?.extent == nil ? .element(id) : nil)
  }

  /// Runs after an element was replaced by a set: the same element written back (a fork of it)
  /// notifies exactly what changed; a different value notifies the old one's readers.
  @inlinable
  mutating func _didReplace(old: Element, at offset: Int) {
    guard _observableElements else {
      // A plain element set to an equal value is no change (as a field's setter has it).
      if FieldKind<Element>.isEqual(old, _elements[offset]) != true { _elementsDidChange() }
      return
    }
    _ = _prepareStructureWrite()
    let before = _identity(of: old)
    let slot = Slot(replacing: before, below: _extent.openingSlot(), at: .element(AnyHashable(_ids[offset])))
    let box = before.extent?.box.load()
    let type = _observableType
    let placed = _identity(of: _elements[offset])
    type._makeIdentityUnique(&_elements[offset])
    let exclusive = _identity(of: _elements[offset]).serial != placed.serial
    if case let .replaced(history) = _reconcile(slot, box: box, after: _elements[offset], at: offset, old: old, exclusive: exclusive) {
      type._detach(&_elements[offset])
      slot.place(&_elements[offset], as: type, history: history)
    }
  }

  /// Runs after an element was inserted at `offset`: it may come from another location.
  @inlinable
  mutating func _didInsert(at offset: Int) {
    guard let type = _elementType else { return }
    type._detach(&_elements[offset])
  }

  /// The observable element type (elements must be observable).
  @usableFromInline
  var _observableType: any ObservationIdentifiable.Type { _elementType! }

  /// The slot of an element about to be mutated in place (nil for elements that are not
  /// observable, which are observed together), made its location's own if the holder observes it.
  @inlinable
  mutating func _elementSlot(_ element: inout Element?, at offset: Int) -> (slot: Slot, box: Subscribers?)? {
    guard _observableElements, element != nil else { return nil }
    _ = _prepareStructureWrite()
    let slot = Slot(&element!, as: _observableType, below: _extent.openingSlot(), at: .element(AnyHashable(_ids[offset])))
    return (slot, slot.before.extent?.box.load())
  }

  /// Reconciles the slot at `offset` after an in-place mutation (`element` is nil if it was
  /// removed); `old` is the element before, kept if its identity was opaque.
  @inlinable
  mutating func _reconcileElementSlot(
    _ before: (slot: Slot, box: Subscribers?)?, _ element: inout Element?, at offset: Int, old: Element?
  ) {
    guard let before else {
      if element != nil { _elementsDidChange() }
      return
    }
    guard element != nil else {
      return _extent.elementLeft(
        .element(AnyHashable(_ids[offset])), box: before.box, key: before.slot.before.unmanagedExtent == nil ? .element(_ids[offset]) : nil)
    }
    if case let .replaced(history) = _reconcile(before.slot, box: before.box, after: element!, at: offset, old: old) {
      _observableType._detach(&element!)
      before.slot.place(&element!, as: _observableType, history: history)
    }
  }

  /// Whether the slot at `offset` still holds the same element (itself, a descendant it adopted,
  /// or — for an element whose identity is opaque — an equal value); if a replacement, the old
  /// element's readers are told it left.
  @inlinable
  mutating func _reconcile(
    _ slot: Slot, box: Subscribers?, after element: Element, at offset: Int, old: Element?, exclusive: Bool = false
  ) -> Reconciled {
    let after = _identity(of: element)
    if slot.before.isOpaque, after != slot.before, let old, FieldKind<Element>.isEqual(old, element) == true { return .kept }
    let type = _observableType
    let reconciled = slot.reconcile(
      after, owner: _extent, at: .element(AnyHashable(_ids[offset])), below: { type._below(of: element, at: $0) },
      exclusive: exclusive)
    if case .replaced = reconciled {
      // Replaced: the slot told the location's readers; a bare reader of the old element hears
      // it, and a copy records it.
      _extent.elementLeft(
        slot.location == nil ? .element(AnyHashable(_ids[offset])) : nil, box: box,
        key: slot.before.unmanagedExtent == nil ? .element(_ids[offset]) : nil)
    }
    return reconciled
  }

  /// Elements that are not observable changed in place.
  @inlinable
  mutating func _elementsDidChange() { _elementDidChange(.elements) }

  /// The elements read under `key` changed.
  @inlinable
  mutating func _elementDidChange(_ key: FieldKey) {
    guard _prepareStructureWrite() else { return }
    _extent.didChange(key, ObservationChange.elements)
  }
}

extension Extent {
  /// An element of the collection whose structure this extent is left its place (removed, or
  /// replaced by another value): the readers at its location (`step` below this collection's, if
  /// the holder observes it), its bare readers (`box`) unless a holder mutates (they read a copy,
  /// which still holds it), and — for an element with no extent, read under `key` here — those of
  /// `key`, hear it.
  @usableFromInline @inline(never)
  func elementLeft(_ step: LocationStep?, box: Subscribers?, key: FieldKey?) {
    let location = boundLocation
    let box = ThreadContext.current.holderDepth == 0 ? box : nil
    var left: Location?
    let deliveries = withRegistry { garbage -> [Delivery] in
      var deliveries: [Delivery] = []
      // In a copy: whoever writes it back learns that the element left.
      if location == nil, let step { record(Change(below: step), &garbage) }
      if let step, let location, let element = location.existingChild(step) {
        element.boundSerial.store(0, ordering: .relaxed)
        deliveries += element.replacedDeliveries()
        left = element
        // Gone from here: a new element with this id gets a location of its own.
        location.removeChild(step)
      }
      if let box {
        box.version.add(1, ordering: .relaxed)
        deliveries += box.matching([Change.identity])
      }
      return deliveries
    }
    if let left { AppleObservation.didReplace(left) }
    if let box { AppleObservation.didChange(box, [Change.identity]) }
    deliver(deliveries)
    if let key { didChange(key, ObservationChange.elements) }
  }
}
