// Range replacement and the removals of `RangeReplaceableCollection`, with the semantics of
// swift-identified-collections, which conforms arrays of `Identifiable` elements (the protocol
// needs `init()`). Like every mutation here, each calls `_structureDidChange()` once if the ids,
// their order or the count changed, and reads the storage, never the public accessors.
//
// What the protocol implements itself ends in `replaceSubrange(_:with:)` (`insert(contentsOf:at:)`,
// `+`) or in the array's own removals. Generic code that reads the array to decide (`removeLast()`
// and `popLast()` on a `RangeReplaceableCollection` read `isEmpty` and `endIndex`) records a read of
// the structure inside a tracking scope; the array's own methods record none.

extension IdentifiedArray: RangeReplaceableCollection, _IdentifiedArrayRangeReplaceable
where Element: Identifiable, ID == Element.ID {}

/// The protocol's `append(_:)` and `insert(_:at:)`, which return nothing, for an identified array:
/// they do what the array's own ``IdentifiedArray/append(_:)`` and
/// ``IdentifiedArray/insert(_:at:)`` do (leave an element whose id is present as it is).
///
///     let add: (inout IdentifiedArrayOf<Todo>) -> Void = { $0.append(tea) }  // this one
///     let result = todos.append(tea)                                          // the array's
///
/// Without them, generic code and a closure that must return `Void` would get the protocol's own
/// versions, which replace an element whose id is present and read `endIndex` (a read of the
/// structure inside a tracking scope). Declared in an extension of this protocol rather than on
/// the array, so that they rank below the array's own methods (a call that can use their result
/// gets the array's) and above the protocol's. Not for use on its own.
public protocol _IdentifiedArrayRangeReplaceable: RangeReplaceableCollection {
  @discardableResult
  mutating func append(_ element: __owned Element) -> (inserted: Bool, index: Int)
  @discardableResult
  mutating func insert(_ element: __owned Element, at offset: Index) -> (inserted: Bool, index: Int)
}

extension _IdentifiedArrayRangeReplaceable {
  /// Appends an element unless one with its id is present (``IdentifiedArray/append(_:)``).
  ///
  ///     let add: (inout IdentifiedArrayOf<Todo>) -> Void = { $0.append(tea) }
  @inlinable
  public mutating func append(_ element: __owned Element) {
    let _: (inserted: Bool, index: Int) = append(consume element)
  }

  /// Inserts an element unless one with its id is present (``IdentifiedArray/insert(_:at:)``).
  ///
  ///     let add: (inout IdentifiedArrayOf<Todo>) -> Void = { $0.insert(bread, at: 0) }
  @inlinable
  public mutating func insert(_ element: __owned Element, at offset: Index) {
    let _: (inserted: Bool, index: Int) = insert(consume element, at: offset)
  }
}

extension IdentifiedArray {
  /// Appends the elements whose ids are not in the array yet, in order. An element whose id is
  /// present (or appeared earlier in `newElements`) is skipped, as ``append(_:)`` skips it.
  ///
  ///     // todos.ids == [1, 2, 3]
  ///     todos.append(contentsOf: [todo1, todo4, todo3, todo5])  // ids [1, 2, 3, 4, 5]
  ///
  /// - Complexity: O(*m*), where *m* is the number of elements in `newElements`.
  @inlinable
  public mutating func append(contentsOf newElements: some Sequence<Element>) {
    let start = _elements.count
    reserveCapacity(start + newElements.underestimatedCount)
    for element in newElements {
      _appendIfAbsent(element, id: _id(element))
    }
    guard _elements.count > start else { return }
    for offset in start..<_elements.count { _didInsert(at: offset) }
    _structureDidChange()
  }

  /// Replaces the elements at `subrange` with `newElements`, as swift-identified-collections does.
  ///
  ///     // todos.ids == [1, 2, 3, 4]
  ///     todos.replaceSubrange(1..<3, with: [todo7, todo8])  // ids [1, 7, 8, 4]
  ///     todos.replaceSubrange(0..<1, with: [todo9, todo4])  // ids [9, 7, 8, 4]: todo4 replaced
  ///
  /// The elements at `subrange` are removed, then each element of `newElements` is stored:
  /// - if its id is in the array outside `subrange`, it replaces that element where it is;
  /// - otherwise it is inserted with the others at `subrange.lowerBound`, in order.
  /// If several elements of `newElements` have one id, the first one is stored, where the last
  /// one would be. An element whose id is in `subrange` and in `newElements` counts as
  /// replaced, as by ``update(_:at:)``, not as removed and inserted: its readers hear only a
  /// different value.
  ///
  /// - Parameters:
  ///   - subrange: Offsets within `0 ... count`.
  ///   - newElements: The elements stored in their place.
  /// - Complexity: O(*n* + *m*), where *n* is the number of elements and *m* the number of new
  ///   elements.
  @inlinable
  public mutating func replaceSubrange(_ subrange: Range<Int>, with newElements: some Collection<Element>) {
    require(
      subrange.lowerBound >= 0 && subrange.upperBound <= _elements.count,
      "IdentifiedArray: replaced range \(subrange) is out of bounds")
    // What ends up at `subrange`, built from the last new element to the first (a later element
    // with an id seen already only gives it its value), and the updates of elements outside it.
    var block: [(id: ID, element: Element)] = []
    var blockOffsets: [ID: Int] = [:]
    var outside: [(id: ID, element: Element)] = []
    for element in newElements.reversed() {
      let id = _id(element)
      if let offset = _offset(of: id), !subrange.contains(offset) {
        outside.append((id, element))
      } else if let k = blockOffsets[id] {
        block[k].element = element
      } else {
        blockOffsets[id] = block.count
        block.append((id, element))
      }
    }
    block.reverse()
    let structureChanged = !_ids[subrange].elementsEqual(block.lazy.map(\.id))
    // An old element whose id is stored again is replaced; the others leave.
    var replaced: [ID: Element] = [:]
    var removed: [(id: ID, element: Element)] = []
    for offset in subrange {
      let id = _ids[offset]
      if blockOffsets[id] != nil { replaced[id] = _elements[offset] } else { removed.append((id, _elements[offset])) }
    }
    _elements.replaceSubrange(subrange, with: block.lazy.map(\.element))
    _ids.replaceSubrange(subrange, with: block.lazy.map(\.id))
    _reindex()
    for (id, element) in removed { _didRemove(id: id, element: element) }
    for (k, (id, _)) in block.enumerated() {
      let offset = subrange.lowerBound + k
      if let old = replaced[id] { _didReplace(old: old, at: offset) } else { _didInsert(at: offset) }
    }
    // Applied in the order they were found: the last one stored is the first of its id.
    for (id, element) in outside { _replace(at: _offset(of: id)!, with: element) }
    if structureChanged { _structureDidChange() }
  }

  /// Removes and returns the first element.
  ///
  ///     let first = todos.removeFirst()
  ///
  /// The array must not be empty: the method traps with
  /// `IdentifiedArray: removeFirst() on an empty array` otherwise.
  ///
  /// - Complexity: O(*n*)
  @inlinable
  @discardableResult
  public mutating func removeFirst() -> Element {
    require(!_elements.isEmpty, "IdentifiedArray: removeFirst() on an empty array")
    return remove(at: 0)
  }

  /// Removes the first `k` elements.
  ///
  ///     todos.removeFirst(2)
  ///
  /// - Parameter k: A number of elements in `0 ... count`.
  /// - Complexity: O(*n*)
  @inlinable
  public mutating func removeFirst(_ k: Int) {
    require(
      k >= 0 && k <= _elements.count, "IdentifiedArray: cannot remove \(k) elements of \(_elements.count)")
    _removeSubrange(0..<k)
  }

  /// Removes and returns the last element.
  ///
  ///     let last = todos.removeLast()
  ///
  /// The array must not be empty: the method traps with
  /// `IdentifiedArray: removeLast() on an empty array` otherwise.
  ///
  /// - Complexity: O(1)
  @inlinable
  @discardableResult
  public mutating func removeLast() -> Element {
    require(!_elements.isEmpty, "IdentifiedArray: removeLast() on an empty array")
    return remove(at: _elements.count - 1)
  }

  /// Removes the last `k` elements.
  ///
  ///     todos.removeLast(2)
  ///
  /// - Parameter k: A number of elements in `0 ... count`.
  /// - Complexity: O(*k*)
  @inlinable
  public mutating func removeLast(_ k: Int) {
    require(
      k >= 0 && k <= _elements.count, "IdentifiedArray: cannot remove \(k) elements of \(_elements.count)")
    _removeLast(k)
  }

  /// Removes and returns the last element, or returns `nil` if the array is empty.
  ///
  ///     while let todo = todos.popLast() { archive(todo) }
  ///
  /// - Complexity: O(1)
  @inlinable
  public mutating func popLast() -> Element? {
    _elements.isEmpty ? nil : remove(at: _elements.count - 1)
  }

  /// Removes the elements at a range of offsets.
  ///
  ///     todos.removeSubrange(1..<3)
  ///
  /// - Parameter bounds: Offsets within `0 ... count`.
  /// - Complexity: O(*n*)
  @inlinable
  public mutating func removeSubrange(_ bounds: Range<Int>) {
    require(
      bounds.lowerBound >= 0 && bounds.upperBound <= _elements.count,
      "IdentifiedArray: removed range \(bounds) is out of bounds")
    _removeSubrange(bounds)
  }

  /// Removes the elements at a range of offsets.
  ///
  ///     todos.removeSubrange(2...)
  ///
  /// - Parameter bounds: Offsets within `0 ... count`.
  /// - Complexity: O(*n*)
  @inlinable
  public mutating func removeSubrange(_ bounds: some RangeExpression<Int>) {
    // Resolved against the storage, which has the same offsets: `self` would record a read.
    removeSubrange(bounds.relative(to: _elements))
  }
}
