/// An ordered, random-access collection of elements with unique ids, and constant-time access
/// to an element by its id.
///
/// Use an identified array where you would use an `Array` of `Identifiable` values but also need
/// to find, update or remove elements by id without a linear search:
///
///     struct Todo: Identifiable { let id: Int; var title: String; var isDone = false }
///
///     var todos: IdentifiedArrayOf<Todo> = [
///       Todo(id: 1, title: "Milk"),
///       Todo(id: 2, title: "Eggs"),
///     ]
///     todos[id: 2]?.isDone = true          // O(1), mutates in place
///     todos.append(Todo(id: 3, title: "Tea"))
///     todos.remove(id: 1)
///     todos.ids                           // [2, 3]
///
/// Elements that are not `Identifiable` can be identified by any key path to a `Hashable` value:
///
///     var people = IdentifiedArray<String, Person>(id: \.email)
///
/// ## Storage
///
/// The elements live in chunks of 32, grouped in pages of 32 chunks, that copies share (a
/// `ChunkedArray`); their ids in a parallel `ContiguousArray`, and a hash table whose slots are
/// chunked the same way maps each id to its offset (`OffsetIndex`). The type has value semantics
/// with copy-on-write storage: mutating a uniquely referenced array never copies its buffers, and
/// writing an element of an array a snapshot shares copies the path to it (the list of pages, a
/// page, a chunk of 32), not every element; appending copies the ids and the path to one slot.
///
/// ## Invariants
///
/// Between any two public operations, and whenever an observation hook runs:
///
/// 1. `_elements.count == _ids.count`;
/// 2. `_ids[i] == _id(_elements[i])` for every offset `i`;
/// 3. `_index` holds one entry per id and finds `_ids[i]` at `i` for every offset `i` (so ids are
///    unique): `OffsetIndex._checkInvariants`.
///
/// Because an element's id is also stored in `_ids`, changing an element's id in place would
/// silently corrupt the index; every in-place write path therefore traps when the id of the
/// element it yielded changes. A whole element set at an offset (`array[i] = element`) may have
/// another id: it lands at that offset, and the ids follow (``subscript(_:)``).
///
/// ## Complexity
///
/// | Operation | Complexity |
/// | --- | --- |
/// | `self[id:]`, `index(id:)`, `contains(id:)` | O(1) |
/// | `self[i]`, in-place mutation through either subscript | O(1) |
/// | `update(_:at:)`, `updateOrAppend(_:)`, `removeLast()`, `popLast()` | O(1) |
/// | `append(_:)` | amortized O(1) |
/// | `insert(_:at:)`, `remove(at:)`, `remove(id:)`, `removeAll(where:)`, `filter(_:)` | O(*n*) |
/// | `removeFirst()`, `removeSubrange(_:)`, `replaceSubrange(_:with:)` | O(*n*) |
/// | `move(fromOffsets:toOffset:)` | O(*n* log *r*), *r* = ranges in the index set |
/// | `sort(by:)` | O(*n* log *n*) |
///
/// Hashing an id counts as O(1).
@frozen
public struct IdentifiedArray<ID: Hashable, Element> {
  /// Returns an element's id; fixed at initialization. A closure rather than the key path
  /// itself: `Identifiable` arrays read `id` directly, which is much cheaper than applying a
  /// stored key path, and every append and in-place mutation reads an id.
  @usableFromInline
  internal let _id: (Element) -> ID

  /// The elements, in order.
  @usableFromInline
  internal var _elements: ChunkedArray<Element>

  /// `_ids[i]` is the id of `_elements[i]`.
  @usableFromInline
  internal var _ids: ContiguousArray<ID>

  /// Maps every id to its offset in `_elements` and `_ids`.
  @usableFromInline
  internal var _index: OffsetIndex

  /// Records who observes the structure (ids, order, count) and, for elements that are not
  /// observable themselves, the elements. Copy-on-write like an ``Observed`` value's extent.
  @usableFromInline
  internal var _extent: Extent

  /// `Element`'s observation kind (``ObservationKind``) if elements carry their own observation
  /// identity; decided once here because a per-access lookup costs tens of nanoseconds.
  @usableFromInline
  internal let _elementType: (any ObservationIdentifiable.Type)?

  /// Whether elements carry their own observation identity.
  @inlinable
  internal var _observableElements: Bool { _elementType != nil }

  /// Creates an empty array whose elements are identified by `id`.
  @inlinable
  internal init(_id id: @escaping (Element) -> ID) {
    _id = id
    _elements = ChunkedArray()
    _ids = []
    _index = OffsetIndex()
    _extent = Extent()
    _elementType = ObservationKind.of(Element.self)
  }

  /// Creates an empty array whose elements are identified by the given key path.
  ///
  ///     var people = IdentifiedArray<String, Person>(id: \.email)
  ///
  /// - Parameter id: The key path from an element to its unique id.
  /// - Complexity: O(1)
  @inlinable
  public init(id: KeyPath<Element, ID>) {
    self.init(_id: { $0[keyPath: id] })
  }

  /// Creates an array from a sequence of elements whose ids are all different.
  ///
  ///     let people = IdentifiedArray(uniqueElements: [alice, bob], id: \.email)
  ///
  /// - Parameters:
  ///   - elements: The elements, in order. Two elements with the same id are a programming
  ///     error: the initializer traps with `IdentifiedArray: duplicate id <id>`.
  ///   - id: The key path from an element to its unique id.
  /// - Complexity: O(*n*), where *n* is the number of elements.
  @inlinable
  public init(uniqueElements elements: some Sequence<Element>, id: KeyPath<Element, ID>) {
    self.init(id: id)
    _appendUniqueElements(elements)
  }
}

/// An ``IdentifiedArray`` of `Identifiable` elements, identified by their `id`.
///
///     var todos: IdentifiedArrayOf<Todo> = []
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
  /// Creates an empty array of `Identifiable` elements.
  ///
  ///     var todos = IdentifiedArrayOf<Todo>()
  ///
  /// - Complexity: O(1)
  @inlinable
  public init() {
    self.init(_id: { $0.id })
  }

  /// Creates an array from a sequence of `Identifiable` elements whose ids are all different.
  ///
  ///     let todos = IdentifiedArrayOf<Todo>(uniqueElements: loadedTodos)
  ///
  /// - Parameter elements: The elements, in order. Two elements with the same id are a
  ///   programming error: the initializer traps with `IdentifiedArray: duplicate id <id>`.
  /// - Complexity: O(*n*), where *n* is the number of elements.
  @inlinable
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init()
    _appendUniqueElements(elements)
  }
}

// MARK: - Access

extension IdentifiedArray {
  /// The ids of the elements, in order: `ids[i]` is the id of `self[i]`.
  ///
  ///     let todos: IdentifiedArrayOf<Todo> = [milk, eggs]
  ///     todos.ids  // [milk.id, eggs.id]
  ///
  /// The result shares storage with the array, so keeping it while mutating the array makes
  /// that mutation copy the ids once. Prefer ``contains(id:)`` to `ids.contains(_:)`, which is
  /// a linear search.
  ///
  /// - Complexity: O(1)
  @inlinable
  public var ids: ContiguousArray<ID> {
    _recordStructureAccess()
    return _ids
  }

  /// The elements, in order.
  ///
  ///     let titles = todos.elements.map(\.title)
  ///
  /// - Complexity: O(*n*): the array keeps its elements in chunks; the result is one buffer.
  @inlinable
  public var elements: ContiguousArray<Element> {
    _recordWholeAccess()
    return ContiguousArray(_elements)
  }

  /// Returns the offset of the element with the given id, or `nil` if there is none.
  ///
  ///     todos.index(id: eggs.id)  // 1
  ///
  /// - Complexity: O(1)
  @inlinable
  public func index(id: ID) -> Int? {
    _recordStructureAccess()
    return _offset(of: id)
  }

  /// Returns whether the array contains an element with the given id.
  ///
  ///     todos.contains(id: milk.id)  // true
  ///
  /// - Complexity: O(1)
  @inlinable
  public func contains(id: ID) -> Bool {
    _recordStructureAccess()
    return _offset(of: id) != nil
  }

  /// Returns whether the array contains an element with the id of `element` (its other
  /// properties are not compared, as in swift-identified-collections).
  ///
  ///     todos.contains(Todo(id: milk.id, title: "anything"))  // true
  ///
  /// - Complexity: O(1)
  @inlinable
  public func contains(_ element: Element) -> Bool {
    contains(id: _id(element))
  }

  /// Accesses the element with the given id, or `nil` if there is none.
  ///
  ///     todos[id: 2]?.isDone = true            // mutates in place; no-op if absent
  ///     todos[id: 3] = Todo(id: 3, title: "Tea") // appends (or replaces id 3 in place)
  ///     todos[id: 1] = nil                     // removes
  ///
  /// - Getting returns the element, or `nil`.
  /// - Mutating in place (`todos[id: 2]?.isDone = true`, or passing `&todos[id: 2]` as an
  ///   `inout` argument) neither copies the element nor the storage. Setting the yielded value
  ///   to `nil` removes the element; giving an absent id a value appends it.
  /// - Setting a value replaces the element with that id at its current offset, or appends the
  ///   value if the id is absent. Setting `nil` removes the element, if any.
  ///
  /// A value stored through this subscript must have the subscript's id, and an element
  /// mutated in place must keep it; otherwise the subscript traps.
  ///
  /// - Complexity: O(1) to get, replace, append or mutate in place; O(*n*) to remove.
  @inlinable
  public subscript(id id: ID) -> Element? {
    get {
      guard let offset = _offset(of: id) else {
        _recordStructureAccess()
        return nil
      }
      _recordElementAccess(at: offset)
      return _elements[offset]
    }
    set {
      if let newValue = consume newValue {
        _store(newValue, forID: id)
      } else {
        remove(id: id)
      }
    }
    _modify {
      if let offset = _offset(of: id) {
        yield &self[_offset: offset]
      } else {
        var element: Element?
        defer {
          if let element { _store(element, forID: id) }
        }
        yield &element
      }
    }
  }

  /// Accesses the element at the given offset.
  ///
  ///     // todos.ids == [1, 2, 3]
  ///     todos[0].isDone.toggle()                    // in place
  ///     todos[0] = Todo(id: 1, title: "Oat milk")   // replaces element 1
  ///     todos[0] = Todo(id: 3, title: "Tea")        // ids [3, 2, 1]: 3 replaced, 1 moved to 2
  ///     todos[1] = Todo(id: 9, title: "Rum")        // ids [3, 9, 1]: 2 removed
  ///
  /// Setting stores the new element at `position`, as swift-identified-collections does (so the
  /// standard library's and Foundation's sorts, which write elements back by position, work):
  /// - an element with the id at `position` replaces the element there;
  /// - an element whose id is at another offset replaces the element with that id, and the
  ///   element that was at `position` moves to that offset;
  /// - an element with an absent id replaces the element at `position`, which is removed.
  ///
  /// Mutating in place must keep the element's id: the subscript traps with
  /// `IdentifiedArray: element id changed from <old> to <new> at index <position>` otherwise.
  ///
  /// - Parameter position: An offset in `0 ..< count`.
  /// - Complexity: O(1)
  @inlinable
  public subscript(position: Int) -> Element {
    get {
      _recordElementAccess(at: position)
      return _elements[position]
    }
    set {
      let id = _id(newValue)
      if _fastPath(id == _ids[position]) {
        _replace(at: position, with: newValue)
      } else {
        _place(newValue, id: id, at: position)
      }
    }
    _modify {
      yield &self[_offset: position]!
    }
  }
}

// MARK: - Storage primitives

extension IdentifiedArray {
  /// The one accessor through which every in-place mutation of a stored element goes
  /// (`self[i]` and `self[id:]` `_modify`); the observation layer wraps it.
  ///
  /// `_modify` moves the element out of storage into an optional, yields it, and moves it back,
  /// trapping if its id changed. Setting the optional to `nil` (possible only through
  /// `subscript(id:)`) removes the element. Neither the storage nor the element is copied.
  @inlinable
  internal subscript(_offset offset: Int) -> Element? {
    get { _elements[offset] }
    _modify {
      var element: Element? = _takeElement(at: offset)
      let before = _elementSlot(&element, at: offset)
      // An element whose identity is opaque (a plain enum payload) is compared by value after. An
      // observable struct's never is: for one, this folds away.
      let old = Element.self is any ObservableState.Type || before?.slot.before.isOpaque != true ? nil : element
      defer {
        _reconcileElementSlot(before, &element, at: offset, old: old)
        _restoreElement(element, at: offset)
      }
      yield &element
    }
  }

  /// Moves the element at `offset` out of `_elements` (its chunk's last element fills the gap).
  ///
  /// Until `_restoreElement(_:at:)` runs, that chunk is one element short. Nothing can observe
  /// that state: the caller of `_modify` holds exclusive access to `self`, and `_restoreElement`
  /// runs even if that access is aborted.
  @inlinable
  internal mutating func _takeElement(at offset: Int) -> Element {
    require(
      offset >= 0 && offset < _elements.count, "IdentifiedArray: index \(offset) is out of range")
    return _elements._take(at: offset)
  }

  /// Undoes `_takeElement(at:)`, putting `element` back at `offset`, or removes the element
  /// (and calls the removal hooks) if it is `nil`.
  @inlinable
  internal mutating func _restoreElement(_ element: Element?, at offset: Int) {
    if let element {
      _checkIDUnchanged(element, at: offset)
      _elements._restore(element, at: offset)
    } else {
      _elements._restoreRemoved(at: offset)
      let id = _removeID(at: offset)
      _didRemove(id: id, element: nil)
      _structureDidChange()
    }
  }

  /// Replaces the element at `offset` with `element`, which must have the same id, and returns
  /// the element it replaced.
  @inlinable
  @discardableResult
  internal mutating func _replace(at offset: Int, with element: consuming Element) -> Element {
    var old = consume element
    swap(&old, &_elements[offset])
    _didReplace(old: old, at: offset)
    return old
  }

  /// Stores `element` under `id` (`self[id: id] = element`).
  @inlinable
  internal mutating func _store(_ element: consuming Element, forID id: ID) {
    let elementID = _id(element)
    require(elementID == id, Self._idMismatchMessage(subscriptID: id, elementID: elementID))
    _updateOrAppend(consume element, id: id)
  }

  /// Appends `elements`, trapping on a duplicate id. Calls no hook (for initializers).
  @inlinable
  internal mutating func _appendUniqueElements(_ elements: some Sequence<Element>) {
    reserveCapacity(_elements.count + elements.underestimatedCount)
    for element in elements {
      let id = _id(element)
      if !_appendIfAbsent(element, id: id).inserted {
        badInput(Self._duplicateIDMessage(id))
      }
    }
  }

  /// Appends `element` (whose id is `id`) unless `id` is already present. Calls no hook.
  @inlinable
  @discardableResult
  internal mutating func _appendIfAbsent(_ element: consuming Element, id: ID) -> (inserted: Bool, index: Int) {
    let hash = id.hashValue
    let found = _index._find(id, hash: hash, in: _ids)
    if let existing = found.offset { return (false, existing) }
    let offset = _ids.count
    _elements.append(consume element)
    _ids.append(id)
    _index.insert(offset: offset, hash: hash, in: _ids, emptySlot: found.slot)
    return (true, offset)
  }

  /// The offset of the element with the given id, or `nil`. Records no access.
  @inlinable
  internal func _offset(of id: ID) -> Int? {
    _index.offset(of: id, hash: id.hashValue, in: _ids)
  }

  /// Inserts `id` into `_ids` and `_index` at `offset`, moving the ids after it up. The id must be
  /// absent; the caller inserts the element.
  @inlinable
  internal mutating func _insertID(_ id: ID, at offset: Int) {
    _index.shift(offset..<_ids.count, by: 1, in: _ids)
    _ids.insert(id, at: offset)
    _index.insert(offset: offset, hash: id.hashValue, in: _ids)
  }

  /// Removes the id at `offset` from `_ids` and `_index`, moving the ids after it down.
  /// The caller has already removed the element at `offset` from `_elements`.
  @inlinable
  internal mutating func _removeID(at offset: Int) -> ID {
    let id = _ids[offset]
    _removeIDs(offset..<offset &+ 1)
    return id
  }

  /// Removes the ids at offsets `bounds` from `_ids` and `_index`, moving the ids after them down:
  /// O(removed + after) entry by entry, or a rebuild (keeping the table's size, as a removal never
  /// shrinks it) when more than half the ids go.
  @inlinable
  internal mutating func _removeIDs(_ bounds: Range<Int>) {
    if bounds.count &* 2 > _ids.count {
      _ids.removeSubrange(bounds)
      _index._rebuild(_ids, minimumCapacity: _index._slots.count / 4 * 3)
      return
    }
    for offset in bounds.reversed() { _index.remove(offset: offset, hash: _ids[offset].hashValue, in: _ids) }
    _index.shift(bounds.upperBound..<_ids.count, by: -bounds.count, in: _ids)
    _ids.removeSubrange(bounds)
  }

  /// Rebuilds `_index` from `_ids`, after a change to many ids at once. O(*n*).
  @inlinable
  internal mutating func _reindex() {
    _index = OffsetIndex(_ids)
  }

  /// Traps unless `element` has the id currently stored at `offset`.
  @inlinable
  internal func _checkIDUnchanged(_ element: Element, at offset: Int) {
    let newID = _id(element)
    require(
      newID == _ids[offset],
      Self._idChangedMessage(from: _ids[offset], to: newID, at: offset))
  }
}

// MARK: - Diagnostics

extension IdentifiedArray {
  // Trap and error messages, built only on failure.

  @usableFromInline
  internal static func _duplicateIDMessage(_ id: ID) -> String {
    "IdentifiedArray: duplicate id \(String(describing: id))"
  }

  @usableFromInline
  internal static func _idChangedMessage(from old: ID, to new: ID, at offset: Int) -> String {
    "IdentifiedArray: element id changed from \(String(describing: old)) "
      + "to \(String(describing: new)) at index \(offset)"
  }

  @usableFromInline
  internal static func _idMismatchMessage(subscriptID: ID, elementID: ID) -> String {
    "IdentifiedArray: element id \(String(describing: elementID)) "
      + "does not match subscript id \(String(describing: subscriptID))"
  }

  /// Throws if any of the invariants listed on ``IdentifiedArray`` does not hold. O(*n*).
  internal func _checkInvariants() throws {
    try _elements._checkInvariants()
    guard _elements.count == _ids.count else {
      throw StorageInvariantViolation(description: "counts differ: \(_elements.count) elements, \(_ids.count) ids")
    }
    try _index._checkInvariants(_ids)
    for (offset, id) in _ids.enumerated() where _id(_elements[offset]) != id {
      throw StorageInvariantViolation(description: "stored id \(id) at \(offset) is not the element's id")
    }
  }
}
