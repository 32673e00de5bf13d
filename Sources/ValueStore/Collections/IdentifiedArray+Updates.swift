// Writes of a whole element where an element with its id may already be, with the semantics of
// swift-identified-collections. An element that keeps its id at its offset is replaced in place:
// only that element's readers hear it. Everything else — an insertion, a removal, an element
// that moves — is a structure change too.

extension IdentifiedArray {
  /// Replaces the element at an offset with an element that has the same id, and returns the
  /// element it replaced.
  ///
  ///     let old = todos.update(Todo(id: 2, title: "Oat milk"), at: 1)  // todos[1].id == 2
  ///
  /// - Parameters:
  ///   - element: An element with the id of the element at `offset`. Another id is a programming
  ///     error: the method traps with `IdentifiedArray: element id changed from <old> to <new>
  ///     at index <offset>`.
  ///   - offset: An offset in `0 ..< count`.
  /// - Returns: The element that was at `offset`.
  /// - Complexity: O(1)
  @inlinable
  @discardableResult
  public mutating func update(_ element: consuming Element, at offset: Int) -> Element {
    _checkIDUnchanged(element, at: offset)
    return _replace(at: offset, with: consume element)
  }

  /// Replaces the element with the id of `element` where it is, or appends `element` if the id
  /// is absent.
  ///
  ///     todos.updateOrAppend(Todo(id: 2, title: "Oat milk"))  // the old Todo 2
  ///     todos.updateOrAppend(Todo(id: 7, title: "Tea"))       // nil: appended
  ///
  /// - Returns: The element that was replaced, or `nil` if `element` was appended.
  /// - Complexity: O(1) (amortized when appending).
  @inlinable
  @discardableResult
  public mutating func updateOrAppend(_ element: consuming Element) -> Element? {
    let id = _id(element)
    return _updateOrAppend(consume element, id: id)
  }

  /// Replaces the element with the id of `element` where it is, or inserts `element` at
  /// `offset` if the id is absent.
  ///
  ///     todos.updateOrInsert(Todo(id: 0, title: "Bread"), at: 0)  // (nil, 0): inserted
  ///     todos.updateOrInsert(Todo(id: 2, title: "Rye"), at: 0)    // (old Todo 2, its offset)
  ///
  /// - Parameters:
  ///   - element: The element to store.
  ///   - offset: Where to insert `element` if its id is absent: an offset in `0 ... count`.
  ///     Ignored if the id is present.
  /// - Returns: The element that was replaced (or `nil` if `element` was inserted), and the
  ///   offset of `element`.
  /// - Complexity: O(1) to replace; O(*n*), where *n* is the number of elements after `offset`,
  ///   to insert.
  @inlinable
  @discardableResult
  public mutating func updateOrInsert(
    _ element: consuming Element, at offset: Int
  ) -> (originalMember: Element?, index: Int) {
    let id = _id(element)
    if let existing = _offset(of: id) { return (_replace(at: existing, with: consume element), existing) }
    _insertNew(consume element, id: id, at: offset)
    return (nil, offset)
  }

  /// `updateOrAppend(_:)` for an element whose id is `id`.
  @inlinable
  @discardableResult
  internal mutating func _updateOrAppend(_ element: consuming Element, id: ID) -> Element? {
    if let offset = _offset(of: id) { return _replace(at: offset, with: consume element) }
    _append(consume element, id: id)
    return nil
  }

  /// `self[position] = element` for an element whose id `id` is not the one at `position`:
  /// `element` takes `position`. If `id` is at another offset, the element there is replaced and
  /// exchanged with the one at `position`; otherwise the element at `position` is removed.
  @inlinable
  internal mutating func _place(_ element: consuming Element, id: ID, at position: Int) {
    if let other = _offset(of: id) {
      _swapStorage(position, other)
      _replace(at: position, with: consume element)
    } else {
      var old = consume element
      swap(&old, &_elements[position])
      let oldID = _ids[position]
      _index.remove(offset: position, hash: oldID.hashValue, in: _ids)
      _ids[position] = id
      _index.insert(offset: position, hash: id.hashValue, in: _ids)
      _didRemove(id: oldID, element: old)
      _didInsert(at: position)
    }
    _structureDidChange()
  }
}
