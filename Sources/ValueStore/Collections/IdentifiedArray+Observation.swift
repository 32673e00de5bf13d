import Synchronization

// Observation of an identified array (see Design.md, "Collections"):
//
// - Its *structure* — ids, order, count — has its own extent, read by `count`, `ids`, iteration
//   bounds, `index(id:)`, `contains(id:)`, and written by every structural mutation.
// - An element that is `ObservationIdentifiable` (an observable struct) keeps its own extent:
//   reading `rows[id: 1]` records the element's *identity* on it, and each element slot is
//   reconciled like a parent's field after an in-place mutation (a fork is adopted, a different
//   value notifies the old element's identity readers). A change inside one row therefore never
//   notifies other rows or the structure, and costs O(1) whatever the count.
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

// MARK: - Reads

extension IdentifiedArray {
  @inlinable
  func _recordStructureAccess() {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) {
      _extent.recordAccess(.structure, ObservationChange.structure)
    }
  }

  @inlinable
  func _recordElementAccess(at offset: Int) {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) {
      if _observableElements {
        if let extent = _identity(of: _elements[offset]).extent {
          // The element is read through the array: anchored if the array is (once recorded).
          let arrayAnchored = _extent.isAnchoredHere
          if extent.recordAccess(.identity, nil, anchoredBy: arrayAnchored), arrayAnchored { extent.anchor() }
        } else {
          _extent.recordAccess(.element(_ids[offset]), ObservationChange.elements)
        }
      } else {
        _extent.recordAccess(.elements, ObservationChange.elements)
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
      _extent.recordAccess(.structure, ObservationChange.structure)
      guard _observableElements else {
        _extent.recordAccess(.elements, ObservationChange.elements)
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

// MARK: - Writes

/// What an element slot held before an in-place mutation.
@usableFromInline
struct ElementSlot {
  @usableFromInline let identity: ObservationIdentity
  /// Kept only when the element is observed — or is a fork, whose observers may still be waiting
  /// to be adopted onto it — or the array is a fork (a copy that may be written back, while the
  /// location it came from may still get readers of this element), to notify its readers if it
  /// is replaced or removed (by then the element itself is gone). Weak: a strong reference would
  /// make it look shared.
  @usableFromInline weak var observed: Extent?

  /// Whether `observed` was set (it may be nil now: the element died).
  @usableFromInline let hasObserved: Bool

  @inlinable
  init(_ identity: ObservationIdentity, inFork: Bool) {
    self.identity = identity
    if let extent = identity.extent, inFork || extent.flags.load(ordering: .relaxed) != 0 {
      observed = extent
      hasObserved = true
    } else {
      hasObserved = false
    }
  }
}

extension IdentifiedArray {
  /// Makes the structure's extent this array's own before recording a write (forking a shared
  /// one), and says whether there is anything to record.
  @inlinable
  mutating func _prepareStructureWrite() -> Bool {
    if _fastPath(isKnownUniquelyReferenced(&_extent)) { return !_extent.isQuiet }
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
    guard _observableElements, let element else { return }
    guard let extent = _identity(of: element).extent else { return _elementDidChange(.element(id)) }
    _forkStructureIfShared()
    // In a copy, a departure is kept even when nobody reads the element yet: the location the copy
    // came from still holds it, may get readers, and hears of the removal if the copy is written
    // back (found by a randomized run: a snapshot's removal, written back, lost them).
    guard !extent.isQuiet || _structureIsFork else { return }
    extent.didLeave(_extent)
  }

  /// A shared array is a copy (or has one): giving it its own structure extent before an element
  /// change lets element adoptions wait on it and tells it apart from the holder's array.
  @inlinable
  mutating func _forkStructureIfShared() {
    if !isKnownUniquelyReferenced(&_extent) { _extent = Extent.fork(of: _extent) }
  }

  /// Whether the structure is a fork not yet adopted: this array may be a copy.
  @inlinable
  var _structureIsFork: Bool { _extent.flags.load(ordering: .relaxed) & Extent.isFork != 0 }

  /// Runs after the element at `offset` was replaced by a set: the same element written back
  /// (a fork of it) notifies exactly what changed; a different value notifies the old one's readers.
  @inlinable
  mutating func _didReplace(old: Element, at offset: Int) {
    guard _observableElements else {
      // A plain element set to an equal value is no change (as a field's setter has it).
      if FieldKind<Element>.isEqual(old, _elements[offset]) != true { _elementsDidChange() }
      return
    }
    _forkStructureIfShared()
    let before = ElementSlot(_identity(of: old), inFork: _structureIsFork)
    let type = _observableType
    type._makeIdentityUnique(&_elements[offset])
    if !_reconcile(before, after: _elements[offset], at: offset, old: old) {
      type._detach(&_elements[offset])
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

  /// The identity of an element about to be mutated in place (nil for elements that are not
  /// observable, which are observed together).
  @inlinable
  mutating func _elementSlot(_ element: Element?) -> ElementSlot? {
    guard _observableElements, let element else { return nil }
    _forkStructureIfShared()
    let slot = ElementSlot(_identity(of: element), inFork: _structureIsFork)
    // Replaced while out of its slot, the element dies there: its readers are told as it goes.
    // Marked when the slot keeps it (then it may be observed), through the identity's unretained
    // extent (loading the weak reference costs more).
    if slot.hasObserved { slot.identity.extent!.isInFlight.store(true, ordering: .relaxed) }
    return slot
  }

  /// Reconciles the slot at `offset` after an in-place mutation (`element` is nil if it was
  /// removed); `old` is the element before, kept if its identity was opaque.
  @inlinable
  mutating func _reconcileElementSlot(_ before: ElementSlot?, _ element: inout Element?, at offset: Int, old: Element?) {
    if before?.hasObserved == true { before?.observed?.isInFlight.store(false, ordering: .relaxed) }
    guard let before else {
      if element != nil { _elementsDidChange() }
      return
    }
    guard element != nil else { return _elementLeft(before, at: offset) }
    if !_reconcile(before, after: element!, at: offset, old: old) { _observableType._detach(&element!) }
  }

  /// Whether the slot at `offset` still holds the same element (itself, a fork it adopted, or — for
  /// an element whose identity is opaque — an equal value); if not, the old element's readers are
  /// told it left.
  @inlinable
  mutating func _reconcile(_ before: ElementSlot, after element: Element, at offset: Int, old: Element?) -> Bool {
    let after = _identity(of: element)
    if _fastPath(after == before.identity) { return true }
    if before.identity.isOpaque, let old, FieldKind<Element>.isEqual(old, element) == true { return true }
    if let extent = after.extent, extent.flags.load(ordering: .relaxed) & Extent.isFork != 0,
      extent.adopt(ancestor: after.tag == before.identity.tag ? before.identity.serial : 0, owner: _extent)
    {
      return true
    }
    _elementLeft(before, at: offset)
    return false
  }

  /// The element the slot at `offset` held was replaced or removed: its readers are told (on its
  /// extent, or under its id's key if it has none).
  @inlinable
  mutating func _elementLeft(_ before: ElementSlot, at offset: Int) {
    before.observed?.didLeave(_extent)
    // `unmanagedExtent`, not `extent`: the element may have died since (replaced in flight).
    if before.identity.unmanagedExtent == nil { _elementDidChange(.element(_ids[offset])) }
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
