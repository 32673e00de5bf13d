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
  @usableFromInline static let elements = -3
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
      if _observableElements, let extent = Self._identity(of: _elements[offset]).extent {
        // The element is read through the array: anchored if the array is.
        if _extent.isAnchored.load(ordering: .relaxed) { extent.anchor() }
        extent.recordAccess(.identity, nil)
      } else {
        _extent.recordAccess(.elements, ObservationChange.elements)
      }
    }
  }

  /// Records a read of every element and the structure (the whole array is read: compared,
  /// hashed, encoded, described, or handed out as a buffer): each observable element's identity,
  /// or, for plain elements, `elements`. O(*n*), only when someone tracks.
  @inlinable
  func _recordWholeAccess() {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) {
      _extent.recordAccess(.structure, ObservationChange.structure)
      guard _observableElements else {
        _extent.recordAccess(.elements, ObservationChange.elements)
        return
      }
      for offset in _elements.indices { _recordElementAccess(at: offset) }
    }
  }

  @inlinable
  static func _identity(of element: Element) -> ObservationIdentity {
    (element as! any ObservationIdentifiable).observationIdentity
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

  @inlinable
  init(_ identity: ObservationIdentity, inFork: Bool) {
    self.identity = identity
    if let extent = identity.extent, inFork || extent.flags.load(ordering: .relaxed) != 0 {
      observed = extent
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
    guard _observableElements, let element, let extent = Self._identity(of: element).extent else { return }
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
    guard _observableElements else { return _elementsDidChange() }
    _forkStructureIfShared()
    let before = ElementSlot(Self._identity(of: old), inFork: _structureIsFork)
    var new = _elements[offset] as! any ObservationIdentifiable
    new._makeIdentityUnique()
    _elements[offset] = new as! Element
    if !_reconcile(before, after: new.observationIdentity) {
      let type = _observableType
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
    return ElementSlot(Self._identity(of: element), inFork: _structureIsFork)
  }

  /// Reconciles an element slot after an in-place mutation (`element` is nil if it was removed).
  @inlinable
  mutating func _reconcileElementSlot(_ before: ElementSlot?, _ element: inout Element?) {
    guard let before else {
      if element != nil { _elementsDidChange() }
      return
    }
    guard element != nil else {
      before.observed?.didLeave(_extent)
      return
    }
    if !_reconcile(before, after: Self._identity(of: element!)) { _observableType._detach(&element!) }
  }

  /// Whether the slot still holds the same element (itself, or a fork it adopted); if not, the old
  /// element's readers are told it left.
  @inlinable
  func _reconcile(_ before: ElementSlot, after: ObservationIdentity) -> Bool {
    if _fastPath(after == before.identity) { return true }
    if let extent = after.extent, extent.flags.load(ordering: .relaxed) & Extent.isFork != 0,
      extent.adopt(ancestor: after.tag == before.identity.tag ? before.identity.serial : 0, owner: _extent)
    {
      return true
    }
    before.observed?.didLeave(_extent)
    return false
  }

  /// Elements that are not observable changed in place.
  @inlinable
  mutating func _elementsDidChange() {
    guard _prepareStructureWrite() else { return }
    _extent.didChange(.elements, ObservationChange.elements)
  }
}
