import Foundation

// Every mutation below restores the invariants documented on `IdentifiedArray` before it calls
// an observation hook, and calls `_structureDidChange()` exactly once if, and only if, the ids,
// their order or the count actually changed. A write is not a read: mutations look at the
// storage (`_elements.count`, `_index`), never at the public accessors, which record a read of
// the structure in any tracking scope open around them (WritesRecordNoReadsTests).

extension IdentifiedArray {
  /// Appends an element, unless the array already has an element with the same id.
  ///
  ///     todos.append(Todo(id: 3, title: "Tea"))  // (inserted: true, index: 2)
  ///     todos.append(Todo(id: 3, title: "Rum"))  // (inserted: false, index: 2); unchanged
  ///
  /// - Returns: Whether the element was appended, and the offset of the element with its id.
  /// - Complexity: Amortized O(1).
  @inlinable
  @discardableResult
  public mutating func append(_ element: consuming Element) -> (inserted: Bool, index: Int) {
    let id = _id(element)
    return _append(consume element, id: id)
  }

  /// `append(_:)` for an element whose id is `id`.
  @inlinable
  @discardableResult
  internal mutating func _append(_ element: consuming Element, id: ID) -> (inserted: Bool, index: Int) {
    // Consumed, so that a fresh element lands with its extent unshared: detaching it then forks
    // nothing.
    let result = _appendIfAbsent(consume element, id: id)
    if result.inserted {
      _didInsert(at: result.index)
      _structureDidChange()
    }
    return result
  }

  /// Inserts an element at an offset, unless the array already has an element with the same id.
  ///
  ///     todos.insert(Todo(id: 0, title: "Bread"), at: 0)  // (inserted: true, index: 0)
  ///
  /// - Parameters:
  ///   - element: The element to insert. If its id is present, the array is left unchanged
  ///     (whatever `offset` is).
  ///   - offset: An offset in `0 ... count`.
  /// - Returns: Whether the element was inserted, and the offset of the element with its id.
  /// - Complexity: O(*n*), where *n* is the number of elements after `offset`.
  @inlinable
  @discardableResult
  public mutating func insert(_ element: consuming Element, at offset: Int) -> (inserted: Bool, index: Int) {
    let id = _id(element)
    if let existing = _offset(of: id) { return (false, existing) }
    _insertNew(consume element, id: id, at: offset)
    return (true, offset)
  }

  /// Inserts `element`, whose id `id` is absent, at `offset`.
  @inlinable
  internal mutating func _insertNew(_ element: consuming Element, id: ID, at offset: Int) {
    require(
      offset >= 0 && offset <= _elements.count, "IdentifiedArray: insertion index \(offset) is out of bounds")
    _elements.insert(consume element, at: offset)
    _insertID(id, at: offset)
    _didInsert(at: offset)
    _structureDidChange()
  }

  /// Removes and returns the element with the given id, or returns `nil` if there is none.
  ///
  ///     todos.remove(id: 2)  // the removed Todo
  ///
  /// - Complexity: O(*n*), where *n* is the number of elements after the removed one.
  @inlinable
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let offset = _offset(of: id) else { return nil }
    return remove(at: offset)
  }

  /// Removes and returns the element with the id of `element` (its other properties are not
  /// compared), or returns `nil` if there is none.
  ///
  ///     todos.remove(Todo(id: 2, title: "anything"))  // the removed Todo with id 2
  ///
  /// - Complexity: O(*n*), where *n* is the number of elements after the removed one.
  @inlinable
  @discardableResult
  public mutating func remove(_ element: Element) -> Element? {
    remove(id: _id(element))
  }

  /// Removes and returns the element at an offset.
  ///
  ///     let first = todos.remove(at: 0)
  ///
  /// - Parameter offset: An offset in `0 ..< count`.
  /// - Complexity: O(*n*), where *n* is the number of elements after `offset`.
  @inlinable
  @discardableResult
  public mutating func remove(at offset: Int) -> Element {
    let element = _elements.remove(at: offset)
    let id = _removeID(at: offset)
    _didRemove(id: id, element: element)
    _structureDidChange()
    return element
  }

  /// Removes all elements.
  ///
  ///     todos.removeAll()
  ///
  /// - Parameter keepCapacity: Whether to keep the storage's capacity for reuse.
  /// - Complexity: O(*n*)
  @inlinable
  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    let removedIDs = _ids
    let removedElements = _elements
    _elements.removeAll(keepingCapacity: keepCapacity)
    _ids.removeAll(keepingCapacity: keepCapacity)
    _index.removeAll(keepingCapacity: keepCapacity)
    _reportRemoval(ids: removedIDs, elements: removedElements)
  }

  /// Removes the elements that satisfy a predicate, keeping the others in order.
  ///
  ///     todos.removeAll(where: \.isDone)
  ///
  /// If `shouldBeRemoved` throws, the array is unchanged.
  ///
  /// - Complexity: O(*n*)
  @inlinable
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    var removed: [Int] = []
    for offset in _elements.indices where try shouldBeRemoved(_elements[offset]) { removed.append(offset) }
    _remove(ascendingOffsets: removed)
  }

  /// Removes the elements at `offsets`, keeping the others in order (what SwiftUI's `onDelete`
  /// hands over).
  ///
  ///     todos.remove(atOffsets: IndexSet([0, 2]))
  ///
  /// - Parameter offsets: Offsets in `0 ..< count`.
  /// - Complexity: O(*n*)
  @inlinable
  public mutating func remove(atOffsets offsets: IndexSet) {
    require(
      offsets.allSatisfy { $0 >= 0 && $0 < _elements.count }, "IdentifiedArray: remove offsets are out of bounds")
    _remove(ascendingOffsets: Array(offsets))
  }

  /// Removes the elements at `removed` (ascending), in one structure change.
  @inlinable
  internal mutating func _remove(ascendingOffsets removed: [Int]) {
    guard let firstRemoved = removed.first else { return }
    // The kept elements after the first removed one, then the removed ones: O(n), one pass.
    var order: [Int] = []
    order.reserveCapacity(_elements.count - firstRemoved)
    var next = 0
    for offset in firstRemoved..<_elements.count {
      if next < removed.count, removed[next] == offset { next += 1 } else { order.append(offset) }
    }
    order += removed
    _permute(&order, from: firstRemoved)
    // The removed elements now form the suffix, in their original order.
    _removeLast(removed.count)
  }

  /// Removes the last `k` elements (`0 ... count`), in one structure change.
  @inlinable
  internal mutating func _removeLast(_ k: Int) {
    _removeSubrange((_elements.count - k)..<_elements.count)
  }

  /// Removes the elements at offsets `bounds` (within `0 ..< count`), in one structure change.
  @inlinable
  internal mutating func _removeSubrange(_ bounds: Range<Int>) {
    guard !bounds.isEmpty else { return }
    let removedIDs = Array(_ids[bounds])
    let removedElements = Array(_elements[bounds])
    _removeIDs(bounds)
    _elements.removeSubrange(bounds)
    _reportRemoval(ids: removedIDs, elements: removedElements)
  }

  /// Calls the removal hooks for elements that already left the array, in order.
  @inlinable
  internal mutating func _reportRemoval(ids: some Collection<ID>, elements: some Collection<Element>) {
    guard !ids.isEmpty else { return }
    for (id, element) in zip(ids, elements) {
      _didRemove(id: id, element: element)
    }
    _structureDidChange()
  }

  /// Moves the elements at the given offsets to a destination offset, keeping their order,
  /// with the same semantics as SwiftUI's `MutableCollection.move(fromOffsets:toOffset:)`.
  ///
  /// The result is the elements before `destination` that are not moved, then the moved
  /// elements, then the elements from `destination` on that are not moved:
  ///
  ///     // todos.ids == [a, b, c, d]
  ///     todos.move(fromOffsets: [0], toOffset: 2)     // ids [b, a, c, d]
  ///     todos.move(fromOffsets: [2, 3], toOffset: 0)  // ids [c, d, b, a]
  ///
  /// - Parameters:
  ///   - source: Offsets in `0 ..< count`.
  ///   - destination: An offset in `0 ... count`, in terms of the array before the move.
  /// - Complexity: O(*k* log *r*), where *k* is the distance between the first moved element
  ///   (or `destination`) and the last one (or `destination`), and *r* the number of ranges in
  ///   `source`.
  @inlinable
  public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
    _move(fromOffsets: source, toOffset: destination)
  }

  /// `move(fromOffsets:toOffset:)`, returning whether the order changed.
  @inlinable
  @discardableResult
  internal mutating func _move(fromOffsets source: IndexSet, toOffset destination: Int) -> Bool {
    require(
      destination >= 0 && destination <= _elements.count,
      "IdentifiedArray: move destination \(destination) is out of bounds")
    guard let first = source.first, let last = source.last else { return false }
    require(first >= 0 && last < _elements.count, "IdentifiedArray: move source offsets are out of bounds")
    // Only offsets in lower ..< upper can change.
    let lower = Swift.min(first, destination)
    let upper = Swift.max(last + 1, destination)
    var order = (lower..<destination).filter { !source.contains($0) }
    order.append(contentsOf: source)
    order.append(contentsOf: (destination..<upper).lazy.filter { !source.contains($0) })
    let changed = _permute(&order, from: lower)
    if changed { _structureDidChange() }
    return changed
  }

  /// Sorts the elements in place using the given predicate.
  ///
  ///     todos.sort { $0.title < $1.title }
  ///
  /// The sort is stable: elements that `areInIncreasingOrder` does not order keep their
  /// relative order. If `areInIncreasingOrder` throws, the array is unchanged.
  ///
  /// - Parameter areInIncreasingOrder: A strict weak ordering.
  /// - Complexity: O(*n* log *n*)
  @inlinable
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    try _sort(by: areInIncreasingOrder)
  }

  /// Sorts the elements in place using a comparator (Foundation's `sort(using:)`).
  ///
  ///     todos.sort(using: KeyPathComparator(\.title))
  ///
  /// The sort is stable. (Foundation's own version, which generic code gets, sorts a copy and
  /// writes the elements back by position, reading the array as it goes.)
  ///
  /// - Complexity: O(*n* log *n*)
  @inlinable
  public mutating func sort(using comparator: some SortComparator<Element>) {
    _sort { comparator.compare($0, $1) == .orderedAscending }
  }

  /// Sorts the elements in place using comparators in order of precedence: the first one that
  /// orders two elements decides.
  ///
  ///     todos.sort(using: [KeyPathComparator(\.isDone), KeyPathComparator(\.title)])
  ///
  /// The sort is stable.
  ///
  /// - Complexity: O(*n* log *n*)
  @inlinable
  public mutating func sort<Comparator: SortComparator<Element>>(using comparators: some Sequence<Comparator>) {
    _sort { lhs, rhs in
      for comparator in comparators {
        switch comparator.compare(lhs, rhs) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: continue
        }
      }
      return false
    }
  }

  /// Returns a copy of the array, sorted using the given predicate (an identified array, as in
  /// swift-identified-collections).
  ///
  ///     let byTitle = todos.sorted { $0.title < $1.title }
  ///
  /// The sort is stable. A context that asks for an `Array` gets the standard library's.
  ///
  /// - Complexity: O(*n* log *n*)
  @inlinable
  public func sorted(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows -> Self {
    _recordWholeAccess()
    var result = Self(_id: _id)
    result.reserveCapacity(_elements.count)
    for offset in try _sortedOffsets(by: areInIncreasingOrder) {
      result._appendIfAbsent(_elements[offset], id: _ids[offset])
    }
    return result
  }

  /// `sort(by:)`, returning whether the order changed.
  @inlinable
  @discardableResult
  internal mutating func _sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows -> Bool {
    var order = try _sortedOffsets(by: areInIncreasingOrder)
    let changed = _permute(&order, from: 0)
    if changed { _structureDidChange() }
    return changed
  }

  /// The offsets of the elements in sorted order (a stable sort).
  @inlinable
  internal func _sortedOffsets(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows -> [Int] {
    var order = Array(_elements.indices)
    try order.sort { try areInIncreasingOrder(_elements[$0], _elements[$1]) }
    return order
  }

  /// Returns an identified array of the elements that satisfy a predicate, in order.
  ///
  ///     let open = todos.filter { !$0.isDone }
  ///
  /// - Complexity: O(*n*)
  @inlinable
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    _recordWholeAccess()
    var result = Self(_id: _id)
    for (id, element) in zip(_ids, _elements) where try isIncluded(element) {
      result._appendIfAbsent(element, id: id)
    }
    return result
  }

  /// Reverses the order of the elements in place.
  ///
  ///     todos.reverse()
  ///
  /// `MutableCollection`'s own `reverse()`, `shuffle()` and `partition(by:)` would work too (they
  /// go through `swapAt(_:_:)`), but read `endIndex`: inside a tracking scope, a write would
  /// subscribe it to the structure.
  ///
  /// - Complexity: O(*n*)
  @inlinable
  public mutating func reverse() {
    var order = Array(_elements.indices.reversed())
    if _permute(&order, from: 0) { _structureDidChange() }
  }

  /// Shuffles the elements in place, using `generator` as the source of randomness.
  ///
  ///     var generator = SystemRandomNumberGenerator()
  ///     deck.shuffle(using: &generator)
  ///
  /// - Complexity: O(*n*)
  @inlinable
  public mutating func shuffle(using generator: inout some RandomNumberGenerator) {
    var order = Array(_elements.indices)
    order.shuffle(using: &generator)
    if _permute(&order, from: 0) { _structureDidChange() }
  }

  /// Shuffles the elements in place.
  ///
  ///     deck.shuffle()
  ///
  /// - Complexity: O(*n*)
  @inlinable
  public mutating func shuffle() {
    var generator = SystemRandomNumberGenerator()
    shuffle(using: &generator)
  }

  /// Moves the elements that satisfy `belongsInSecondPartition` after all the others, keeping
  /// the relative order within each group, and returns the offset of the first of them.
  ///
  ///     let firstDone = todos.partition(by: \.isDone)  // the undone first, then the done
  ///
  /// If `belongsInSecondPartition` throws, the array is unchanged.
  ///
  /// - Complexity: O(*n*)
  @inlinable
  @discardableResult
  public mutating func partition(by belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Int {
    var first: [Int] = []
    var second: [Int] = []
    for offset in _elements.indices {
      if try belongsInSecondPartition(_elements[offset]) { second.append(offset) } else { first.append(offset) }
    }
    let pivot = first.count
    var order = first + second
    if _permute(&order, from: 0) { _structureDidChange() }
    return pivot
  }

  /// Exchanges the elements at two offsets.
  ///
  ///     todos.swapAt(0, 1)
  ///
  /// - Parameters:
  ///   - i: An offset in `0 ..< count`.
  ///   - j: An offset in `0 ..< count`.
  /// - Complexity: O(1)
  @inlinable
  public mutating func swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    _swapStorage(i, j)
    _structureDidChange()
  }

  /// Exchanges the elements (and ids) at two offsets. Calls no hook.
  @inlinable
  internal mutating func _swapStorage(_ i: Int, _ j: Int) {
    _elements.swapAt(i, j)
    _index.swapOffsets(i, hash: _ids[i].hashValue, j, hash: _ids[j].hashValue)
    _ids.swapAt(i, j)
  }

  /// Reserves enough space to store `minimumCapacity` ids and their index without reallocating
  /// (the elements' chunks are made as elements arrive).
  ///
  ///     var todos = IdentifiedArrayOf<Todo>()
  ///     todos.reserveCapacity(1_000)
  ///
  /// - Complexity: O(*n*)
  @inlinable
  public mutating func reserveCapacity(_ minimumCapacity: Int) {
    _elements.reserveCapacity(minimumCapacity)
    _ids.reserveCapacity(minimumCapacity)
    _index.reserveCapacity(minimumCapacity, in: _ids)
  }

  /// Reorders offsets `base ..< base + order.count` so that offset `base + k` receives the
  /// element (and id) previously at `order[k]`, keeping `_index` in sync, and returns
  /// whether anything moved. Calls no hook.
  ///
  /// `order` must be a permutation of `base ..< base + order.count`; it is overwritten. Works
  /// in place in O(`order.count`) by swapping along the permutation's cycles.
  @inlinable
  @discardableResult
  internal mutating func _permute(_ order: inout [Int], from base: Int) -> Bool {
    var changed = false
    for start in base..<(base + order.count) where order[start - base] != start {
      // Invariant: `position` holds the element that was at `start`.
      var position = start
      while order[position - base] != start {
        let source = order[position - base]
        _swapStorage(position, source)
        order[position - base] = position
        position = source
      }
      order[position - base] = position
      changed = true
    }
    return changed
  }
}

extension IdentifiedArray where Element: Comparable {
  /// Sorts the elements in ascending order.
  ///
  ///     scores.sort()
  ///
  /// The sort is stable.
  ///
  /// - Complexity: O(*n* log *n*)
  @inlinable
  public mutating func sort() {
    _sort(by: <)
  }

  /// Returns a copy of the array, sorted in ascending order.
  ///
  ///     let ranked = scores.sorted()
  ///
  /// The sort is stable.
  ///
  /// - Complexity: O(*n* log *n*)
  @inlinable
  public func sorted() -> Self {
    sorted(by: <)
  }
}
