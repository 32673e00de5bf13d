/// The element storage of an ``IdentifiedArray``: an array whose elements live in chunks of
/// `chunkSize` (64; 2 under `VALUESTORE_INTERNAL_CHECKS`), each a `ContiguousArray` that copies share.
///
/// Copy-on-write works per chunk. Writing one element of an array whose storage a copy shares (a
/// snapshot, an undo point, a `TestStore`'s state before a send) copies the list of chunks (one
/// reference per 64 elements) and the one chunk written, where a `ContiguousArray` copies every
/// element; appending copies the list and the last chunk. Two arrays that share chunks compare
/// them by identity (`ContiguousArray`'s `==` does), so equality costs O(chunks + what differs).
/// An unshared array is written in place, one indirection further than a `ContiguousArray`.
///
/// Invariants (``_checkInvariants()``): every chunk but the last holds exactly `chunkSize`
/// elements, the last holds 1 … `chunkSize`, and `_count` is their sum. So element `i` is
/// element `i % chunkSize` of chunk `i / chunkSize`, and an index out of range fails the bounds
/// check of one of the two arrays.
@frozen
@usableFromInline
internal struct ChunkedArray<Element> {
  @usableFromInline
  internal var _chunks: ContiguousArray<ContiguousArray<Element>>

  @usableFromInline
  internal var _count: Int

  #if VALUESTORE_INTERNAL_CHECKS
    /// Chunks of 2 where invariants are checked: every test's arrays span several chunks.
    @inlinable
    internal static var shift: Int { 1 }
  #else
    @inlinable
    internal static var shift: Int { 6 }
  #endif

  @inlinable
  internal static var chunkSize: Int { 1 &<< shift }

  @inlinable
  internal static var mask: Int { chunkSize &- 1 }

  @inlinable
  internal init() {
    _chunks = []
    _count = 0
  }

  @inlinable
  internal init(_ elements: some Sequence<Element>) {
    self.init()
    reserveCapacity(elements.underestimatedCount)
    for element in elements { append(element) }
  }

  /// A new chunk holding `element`, with room for a whole chunk.
  @inlinable
  internal static func _chunk(_ element: consuming Element) -> ContiguousArray<Element> {
    var chunk = ContiguousArray<Element>()
    chunk.reserveCapacity(chunkSize)
    chunk.append(element)
    return chunk
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
    get { _chunks[position &>> Self.shift][position & Self.mask] }
    _modify { yield &_chunks[position &>> Self.shift][position & Self.mask] }
  }

  @inlinable
  internal func makeIterator() -> Iterator { Iterator(_chunks) }

  /// Iterates chunk by chunk: one array iterator per chunk, no index arithmetic per element.
  @frozen
  @usableFromInline
  internal struct Iterator: IteratorProtocol {
    @usableFromInline internal let _chunks: ContiguousArray<ContiguousArray<Element>>
    @usableFromInline internal var _next: Int
    @usableFromInline internal var _current: IndexingIterator<ContiguousArray<Element>>

    @inlinable
    internal init(_ chunks: ContiguousArray<ContiguousArray<Element>>) {
      _chunks = chunks
      _next = 1
      _current = (chunks.first ?? []).makeIterator()
    }

    @inlinable
    internal mutating func next() -> Element? {
      if let element = _current.next() { return element }
      guard _next < _chunks.count else { return nil }
      _current = _chunks[_next].makeIterator()
      _next &+= 1
      return _current.next()
    }
  }

  /// Swaps two elements in place (a chunk shared with a copy is copied first).
  @inlinable
  internal mutating func swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    let chunk = i &>> Self.shift
    if chunk == j &>> Self.shift {
      _chunks[chunk].swapAt(i & Self.mask, j & Self.mask)
    } else {
      var element = self[j]
      swap(&element, &self[i])
      self[j] = element
    }
  }

  /// Calls `body` with the elements in contiguous memory: the one chunk's, or a copy.
  @inlinable
  internal func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
    if _chunks.count <= 1 { return try (_chunks.first ?? []).withUnsafeBufferPointer(body) }
    return try ContiguousArray(self).withUnsafeBufferPointer(body)
  }
}

// MARK: - Mutations

extension ChunkedArray {
  /// O(1) if the array is unshared; otherwise O(chunks + chunkSize).
  @inlinable
  internal mutating func append(_ element: consuming Element) {
    if _count & Self.mask == 0 {
      _chunks.append(Self._chunk(element))
    } else {
      _chunks[_chunks.count &- 1].append(element)
    }
    _count &+= 1
  }

  @inlinable
  @discardableResult
  internal mutating func removeLast() -> Element {
    precondition(_count > 0, "ChunkedArray: removeLast() on an empty array")
    let last = _chunks.count &- 1
    let element = _chunks[last].removeLast()
    if _chunks[last].isEmpty { _chunks.removeLast() }
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
    while chunk < _chunks.count {
      if _chunks[chunk].count < Self.chunkSize {
        _chunks[chunk].insert(carried, at: position)
        _count &+= 1
        return
      }
      let last = _chunks[chunk].removeLast()
      _chunks[chunk].insert(carried, at: position)
      carried = last
      chunk &+= 1
      position = 0
    }
    _chunks.append(Self._chunk(carried))
    _count &+= 1
  }

  /// O(*n* − `offset`): each later chunk passes its first element back.
  @inlinable
  @discardableResult
  internal mutating func remove(at offset: Int) -> Element {
    precondition(offset >= 0 && offset < _count, "ChunkedArray: index out of range")
    let chunk = offset &>> Self.shift
    let element = _chunks[chunk].remove(at: offset & Self.mask)
    _closeGap(from: chunk)
    return element
  }

  /// Chunk `chunk` is one element short: moves the first element of each later chunk back one
  /// chunk, drops the last chunk if it is left empty, and counts the element gone.
  @inlinable
  internal mutating func _closeGap(from chunk: Int) {
    var chunk = chunk
    while chunk &+ 1 < _chunks.count {
      let first = _chunks[chunk &+ 1].removeFirst()
      _chunks[chunk].append(first)
      chunk &+= 1
    }
    if _chunks[chunk].isEmpty { _chunks.removeLast() }
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
    _chunks[chunk].withUnsafeMutableBufferPointer { $0.swapAt(position, $0.count &- 1) }
    return _chunks[chunk].removeLast()
  }

  /// Puts back an element taken at `offset`.
  @inlinable
  internal mutating func _restore(_ element: consuming Element, at offset: Int) {
    let chunk = offset &>> Self.shift
    let position = offset & Self.mask
    _chunks[chunk].append(element)
    _chunks[chunk].withUnsafeMutableBufferPointer { $0.swapAt(position, $0.count &- 1) }
  }

  /// Ends a take at `offset` without putting the element back: the element is removed.
  @inlinable
  internal mutating func _restoreRemoved(at offset: Int) {
    let chunk = offset &>> Self.shift
    let position = offset & Self.mask
    // The chunk's last element was moved to `position`: move it back to close the gap in order.
    if position < _chunks[chunk].count {
      let moved = _chunks[chunk].remove(at: position)
      _chunks[chunk].append(moved)
    }
    _closeGap(from: chunk)
  }

  @inlinable
  internal mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    _chunks.removeAll(keepingCapacity: keepCapacity)
    _count = 0
  }

  /// How many elements the list of chunks has room to reference without growing.
  @inlinable
  internal var capacity: Int { _chunks.capacity &<< Self.shift }

  @inlinable
  internal mutating func reserveCapacity(_ minimumCapacity: Int) {
    _chunks.reserveCapacity((minimumCapacity &+ Self.mask) &>> Self.shift)
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
    _chunks.removeSubrange(firstChunk...)
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
  /// Chunks that share storage compare in O(1) (`ContiguousArray`'s `==` checks identity first).
  @inlinable
  internal static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._count == rhs._count && lhs._chunks == rhs._chunks
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
  /// The address of the list of chunks, then of each chunk: unchanged by a write made in place.
  internal var _storageAddresses: [UnsafeRawPointer?] {
    [_chunks.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }]
      + _chunks.map { $0.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
  }
}

/// A broken storage invariant, as reported by `ChunkedArray._checkInvariants()`.
private struct Violation: Error, CustomStringConvertible { let description: String }

extension ChunkedArray {
  /// Throws unless every chunk but the last is full, the last is not empty, and `_count` counts
  /// them. O(chunks).
  internal func _checkInvariants() throws {
    for (index, chunk) in _chunks.enumerated() {
      let isLast = index == _chunks.count - 1
      guard isLast ? !chunk.isEmpty && chunk.count <= Self.chunkSize : chunk.count == Self.chunkSize else {
        throw Violation(description: "chunk \(index) of \(_chunks.count) holds \(chunk.count) elements")
      }
    }
    let total = _chunks.reduce(0) { $0 + $1.count }
    guard total == _count else { throw Violation(description: "count \(_count), chunks hold \(total)") }
  }
}
