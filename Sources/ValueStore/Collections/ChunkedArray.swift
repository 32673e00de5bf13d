/// The element storage of an ``IdentifiedArray``: an array whose elements live in chunks of
/// `chunkSize` (32; 2 under `VALUESTORE_INTERNAL_CHECKS`), grouped in pages of `chunkSize` chunks,
/// each chunk and page a `ContiguousArray` that copies share.
///
/// Copy-on-write works per chunk and page. Writing one element of an array whose storage a copy
/// shares (a snapshot, an undo point, a `TestStore`'s state before a send) copies the list of
/// pages (one reference per 1,024 elements), one page (32 references) and one chunk (32
/// elements), where a `ContiguousArray` copies every element; appending copies the same path to
/// the last chunk. Two arrays that share storage compare it by identity (`ContiguousArray`'s `==`
/// checks identity first), so equality costs O(what differs, by chunk). An unshared array is
/// written in place, two indirections further than a `ContiguousArray`.
///
/// Invariants (``_checkInvariants()``): every chunk but the last holds exactly `chunkSize`
/// elements, the last holds 1 … `chunkSize`; every page but the last holds exactly `chunkSize`
/// chunks, the last 1 … `chunkSize`; `_count` is the number of elements. So element `i` is element
/// `i % chunkSize` of chunk `i / chunkSize`, which is chunk `(i / chunkSize) % chunkSize` of page
/// `i / chunkSize²`, and an index out of range fails the bounds check of one of the three arrays.
@frozen
@usableFromInline
internal struct ChunkedArray<Element> {
  @usableFromInline
  internal var _pages: ContiguousArray<ContiguousArray<ContiguousArray<Element>>>

  @usableFromInline
  internal var _count: Int

  @inlinable
  internal static var shift: Int { chunkShift(5) }

  @inlinable
  internal static var chunkSize: Int { 1 &<< shift }

  @inlinable
  internal static var mask: Int { chunkSize &- 1 }

  @inlinable
  internal init() {
    _pages = []
    _count = 0
  }

  @inlinable
  internal init(_ elements: some Sequence<Element>) {
    self.init()
    reserveCapacity(elements.underestimatedCount)
    for element in elements { append(element) }
  }

  /// A new chunk or page holding `element`, with room for a whole one.
  @inlinable
  internal static func _filled<T>(_ element: consuming T) -> ContiguousArray<T> {
    var array = ContiguousArray<T>()
    array.reserveCapacity(chunkSize)
    array.append(element)
    return array
  }

  /// Chunk `index` (element `i` is in chunk `i >> shift`).
  @inlinable
  internal subscript(chunk index: Int) -> ContiguousArray<Element> {
    get { _pages[index &>> Self.shift][index & Self.mask] }
    _modify { yield &_pages[index &>> Self.shift][index & Self.mask] }
  }

  /// The number of chunks, counted from the pages (also while a chunk is one short).
  @inlinable
  internal var _chunkCount: Int {
    _pages.isEmpty ? 0 : (_pages.count &- 1) &<< Self.shift &+ _pages[_pages.count &- 1].count
  }

  @inlinable
  internal mutating func _appendChunk(_ chunk: consuming ContiguousArray<Element>) {
    if _pages.isEmpty || _pages[_pages.count &- 1].count == Self.chunkSize {
      _pages.append(Self._filled(chunk))
    } else {
      _pages[_pages.count &- 1].append(chunk)
    }
  }

  @inlinable
  internal mutating func _removeLastChunk() {
    let last = _pages.count &- 1
    _pages[last].removeLast()
    if _pages[last].isEmpty { _pages.removeLast() }
  }
}

// MARK: - Collection

extension ChunkedArray: RandomAccessCollection, MutableCollection {
  @usableFromInline typealias Index = Int
  @usableFromInline typealias Indices = Range<Int>
  @usableFromInline typealias SubSequence = Slice<Self>

  @inlinable
  internal var startIndex: Int { 0 }

  @inlinable
  internal var endIndex: Int { _count }

  @inlinable
  internal var count: Int { _count }

  @inlinable
  internal var isEmpty: Bool { _count == 0 }

  @inlinable
  internal subscript(position: Int) -> Element {
    get { _pages[position &>> (Self.shift &<< 1)][(position &>> Self.shift) & Self.mask][position & Self.mask] }
    _modify {
      yield &_pages[position &>> (Self.shift &<< 1)][(position &>> Self.shift) & Self.mask][position & Self.mask]
    }
  }

  @inlinable
  internal func makeIterator() -> Iterator { Iterator(self) }

  /// Iterates chunk by chunk: one array iterator per chunk, no index arithmetic per element.
  @frozen
  @usableFromInline
  internal struct Iterator: IteratorProtocol {
    @usableFromInline internal let _array: ChunkedArray
    @usableFromInline internal var _nextChunk: Int
    @usableFromInline internal var _current: IndexingIterator<ContiguousArray<Element>>

    @inlinable
    internal init(_ array: ChunkedArray) {
      _array = array
      _nextChunk = 1
      _current = (array.isEmpty ? [] : array[chunk: 0]).makeIterator()
    }

    @inlinable
    internal mutating func next() -> Element? {
      if let element = _current.next() { return element }
      guard _nextChunk < _array._chunkCount else { return nil }
      _current = _array[chunk: _nextChunk].makeIterator()
      _nextChunk &+= 1
      return _current.next()
    }
  }

  /// Swaps two elements in place (a chunk shared with a copy is copied first).
  @inlinable
  internal mutating func swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    let chunk = i &>> Self.shift
    if chunk == j &>> Self.shift {
      self[chunk: chunk].swapAt(i & Self.mask, j & Self.mask)
    } else {
      var element = self[j]
      swap(&element, &self[i])
      self[j] = element
    }
  }

  /// Calls `body` with the elements in contiguous memory: the one chunk's, or a copy.
  @inlinable
  internal func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
    if _count <= Self.chunkSize { return try (isEmpty ? [] : self[chunk: 0]).withUnsafeBufferPointer(body) }
    return try ContiguousArray(self).withUnsafeBufferPointer(body)
  }
}

// MARK: - Mutations

extension ChunkedArray {
  /// O(1) if the array is unshared; otherwise O(chunks + chunkSize).
  @inlinable
  internal mutating func append(_ element: consuming Element) {
    if _count & Self.mask == 0 {
      _appendChunk(Self._filled(element))
    } else {
      self[chunk: _count &>> Self.shift].append(element)
    }
    _count &+= 1
  }

  @inlinable
  @discardableResult
  internal mutating func removeLast() -> Element {
    precondition(_count > 0, "ChunkedArray: removeLast() on an empty array")
    let last = (_count &- 1) &>> Self.shift
    let element = self[chunk: last].removeLast()
    if self[chunk: last].isEmpty { _removeLastChunk() }
    _count &-= 1
    return element
  }

  /// O(*n* − `offset`): each later chunk passes its last element on to the next.
  @inlinable
  internal mutating func insert(_ element: consuming Element, at offset: Int) {
    precondition(offset >= 0 && offset <= _count, "ChunkedArray: insertion index out of range")
    if offset == _count { return append(element) }
    var carried = element
    var chunk = offset &>> Self.shift
    var position = offset & Self.mask
    let chunks = _chunkCount
    while chunk < chunks {
      if self[chunk: chunk].count < Self.chunkSize {
        self[chunk: chunk].insert(carried, at: position)
        _count &+= 1
        return
      }
      let last = self[chunk: chunk].removeLast()
      self[chunk: chunk].insert(carried, at: position)
      carried = last
      chunk &+= 1
      position = 0
    }
    _appendChunk(Self._filled(carried))
    _count &+= 1
  }

  /// O(*n* − `offset`): each later chunk passes its first element back.
  @inlinable
  @discardableResult
  internal mutating func remove(at offset: Int) -> Element {
    precondition(offset >= 0 && offset < _count, "ChunkedArray: index out of range")
    let chunk = offset &>> Self.shift
    let element = self[chunk: chunk].remove(at: offset & Self.mask)
    _closeGap(from: chunk)
    return element
  }

  /// Chunk `chunk` is one element short: moves the first element of each later chunk back one
  /// chunk, drops the last chunk if it is left empty, and counts the element gone.
  @inlinable
  internal mutating func _closeGap(from chunk: Int) {
    var chunk = chunk
    let chunks = _chunkCount
    while chunk &+ 1 < chunks {
      let first = self[chunk: chunk &+ 1].removeFirst()
      self[chunk: chunk].append(first)
      chunk &+= 1
    }
    if self[chunk: chunk].isEmpty { _removeLastChunk() }
    _count &-= 1
  }

  /// Moves the element at `offset` out, leaving its chunk one short (its last element fills the
  /// gap) until ``_restore(_:at:)`` or ``_restoreRemoved(at:)``: the in-place accessor's move,
  /// which copies neither the element nor (when unshared) the chunk.
  @inlinable
  internal mutating func _take(at offset: Int) -> Element {
    precondition(offset >= 0 && offset < _count, "ChunkedArray: index out of range")
    let chunk = offset &>> Self.shift
    let position = offset & Self.mask
    self[chunk: chunk].withUnsafeMutableBufferPointer { $0.swapAt(position, $0.count &- 1) }
    return self[chunk: chunk].removeLast()
  }

  /// Puts back an element taken at `offset`.
  @inlinable
  internal mutating func _restore(_ element: consuming Element, at offset: Int) {
    let chunk = offset &>> Self.shift
    let position = offset & Self.mask
    self[chunk: chunk].append(element)
    self[chunk: chunk].withUnsafeMutableBufferPointer { $0.swapAt(position, $0.count &- 1) }
  }

  /// Ends a take at `offset` without putting the element back: the element is removed.
  @inlinable
  internal mutating func _restoreRemoved(at offset: Int) {
    let chunk = offset &>> Self.shift
    let position = offset & Self.mask
    // The chunk's last element was moved to `position`: move it back to close the gap in order.
    if position < self[chunk: chunk].count {
      let moved = self[chunk: chunk].remove(at: position)
      self[chunk: chunk].append(moved)
    }
    _closeGap(from: chunk)
  }

  @inlinable
  internal mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    _pages.removeAll(keepingCapacity: keepCapacity)
    _count = 0
  }

  /// How many elements the list of pages has room to reference without growing.
  @inlinable
  internal var capacity: Int { _pages.capacity &<< (Self.shift &<< 1) }

  @inlinable
  internal mutating func reserveCapacity(_ minimumCapacity: Int) {
    let pageSize = Self.chunkSize &<< Self.shift
    _pages.reserveCapacity((minimumCapacity &+ pageSize &- 1) / pageSize)
  }

  /// O(*n* − `bounds.lowerBound` + *m*): the chunks before the one `bounds` starts in stay
  /// shared; the rest are rebuilt.
  @inlinable
  internal mutating func replaceSubrange(_ bounds: Range<Int>, with newElements: some Collection<Element>) {
    precondition(bounds.lowerBound >= 0 && bounds.upperBound <= _count, "ChunkedArray: range out of bounds")
    let firstChunk = bounds.lowerBound &>> Self.shift
    var tail = ContiguousArray<Element>()
    tail.reserveCapacity(_count - bounds.count + newElements.count - (firstChunk &<< Self.shift))
    tail.append(contentsOf: self[(firstChunk &<< Self.shift)..<bounds.lowerBound])
    tail.append(contentsOf: newElements)
    tail.append(contentsOf: self[bounds.upperBound...])
    while _chunkCount > firstChunk { _removeLastChunk() }
    _count = firstChunk &<< Self.shift
    for element in tail { append(element) }
  }

  @inlinable
  internal mutating func removeSubrange(_ bounds: Range<Int>) {
    replaceSubrange(bounds, with: EmptyCollection())
  }
}

// MARK: - Value conformances

extension ChunkedArray: Equatable where Element: Equatable {
  /// Pages and chunks that share storage compare in O(1) (`ContiguousArray`'s `==` checks identity first).
  @inlinable
  internal static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._count == rhs._count && lhs._pages == rhs._pages
  }
}

extension ChunkedArray: Hashable where Element: Hashable {
  /// Hashes as an `Array` of the same elements does.
  @inlinable
  internal func hash(into hasher: inout Hasher) {
    hasher.combine(_count)
    for element in self { hasher.combine(element) }
  }
}

extension ChunkedArray: Sendable where Element: Sendable {}

// MARK: - Invariants

extension ChunkedArray {
  /// The address of each chunk: equal in two arrays where they share the chunk.
  internal var _chunkAddresses: [UnsafeRawPointer?] {
    (0..<_chunkCount).map { self[chunk: $0].withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
  }

  /// The address of the list of pages, of each page, then of each chunk: unchanged by a write made
  /// in place.
  internal var _storageAddresses: [UnsafeRawPointer?] {
    [_pages.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }]
      + _pages.map { $0.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } } + _chunkAddresses
  }
}

/// `shift`, the log2 of a chunk's size — or 1 (chunks of 2) where invariants are checked, so that
/// every test's collections span several chunks.
@inlinable
internal func chunkShift(_ shift: Int) -> Int {
  #if VALUESTORE_INTERNAL_CHECKS
    1
  #else
    shift
  #endif
}

/// A broken invariant of a collection's storage, as reported by a `_checkInvariants()`.
internal struct StorageInvariantViolation: Error, CustomStringConvertible { let description: String }

extension ChunkedArray {
  /// Throws unless every chunk and page but the last is full, the last are not empty, and
  /// `_count` counts the elements. O(chunks).
  internal func _checkInvariants() throws {
    func check(_ counts: [Int], _ what: String) throws {
      for (index, count) in counts.enumerated() {
        let isLast = index == counts.count - 1
        guard isLast ? count > 0 && count <= Self.chunkSize : count == Self.chunkSize else {
          throw StorageInvariantViolation(description: "\(what) \(index) of \(counts.count) holds \(count)")
        }
      }
    }
    try check(_pages.map(\.count), "page")
    let chunks = _pages.flatMap { $0.map(\.count) }
    try check(chunks, "chunk")
    let total = chunks.reduce(0, +)
    guard total == _count else { throw StorageInvariantViolation(description: "count \(_count), chunks hold \(total)") }
  }
}
