// MARK: - Collection

// `MutableCollection`'s algorithms (`reverse()`, `partition(by:)`, `shuffle()`, …) go through
// `swapAt(_:_:)` and so keep the ids in sync; the array has its own versions of them, which also
// record no read (IdentifiedArray+Mutations.swift). The type deliberately does not implement
// `withContiguousMutableStorageIfAvailable`, which would let them bypass it. The standard
// library's generic `sort()` (and so Foundation's `sort(using:)`), and a mutating algorithm on a
// slice (`rows[0..<2].reverse()`), write the elements back by position through
// `subscript(position:)`, which moves an element whose id is elsewhere to the position written.
extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  /// An offset into the array; `startIndex` is always `0`.
  public typealias Index = Int

  /// The offsets of the elements, `0 ..< count`.
  public typealias Indices = Range<Int>

  /// A contiguous range of the array's elements.
  public typealias SubSequence = Slice<Self>

  /// An iterator over the elements, in order. It reads through the array's own subscripts, so
  /// iterating inside a tracking scope records the structure and each element it yields.
  public typealias Iterator = IndexingIterator<Self>

  /// The offset of the first element: always `0`.
  ///
  /// - Complexity: O(1)
  @inlinable
  public var startIndex: Int { 0 }

  /// The offset one past the last element, equal to `count`.
  ///
  /// - Complexity: O(1)
  @inlinable
  public var endIndex: Int {
    _recordStructureAccess()
    return _elements.count
  }

  /// The number of elements.
  ///
  ///     todos.count  // 2
  ///
  /// - Complexity: O(1)
  @inlinable
  public var count: Int {
    _recordStructureAccess()
    return _elements.count
  }

  /// Whether the array has no elements.
  ///
  ///     IdentifiedArrayOf<Todo>().isEmpty  // true
  ///
  /// - Complexity: O(1)
  @inlinable
  public var isEmpty: Bool {
    _recordStructureAccess()
    return _elements.isEmpty
  }

  /// Calls `body` with the elements in contiguous memory (read-only): the storage itself up to 32
  /// elements, a temporary copy above (the elements live in chunks).
  ///
  ///     let total = scores.withContiguousStorageIfAvailable { $0.reduce(0, +) }
  ///
  /// - Complexity: O(1) up to 32 elements, O(*n*) above, plus the cost of `body`.
  @inlinable
  public func withContiguousStorageIfAvailable<R>(
    _ body: (UnsafeBufferPointer<Element>) throws -> R
  ) rethrows -> R? {
    // The standard library's bulk reads (`Array(rows)`, `filter`, `map`, …) come through here.
    _recordWholeAccess()
    return try _elements.withUnsafeBufferPointer(body)
  }
}

// MARK: - Value conformances

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Returns whether two arrays have equal elements in the same order.
  ///
  ///     IdentifiedArrayOf<Todo>(uniqueElements: [a, b]) == [a, b]  // true
  ///
  /// How the arrays identify elements (`id` or a key path) is not compared.
  ///
  /// - Complexity: O(*n*)
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._recordWholeAccess()
    rhs._recordWholeAccess()
    return lhs._elements == rhs._elements
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the elements, in order.
  ///
  ///     let seen: Set<IdentifiedArrayOf<Todo>> = [todos]
  ///
  /// - Complexity: O(*n*)
  @inlinable
  public func hash(into hasher: inout Hasher) {
    _recordWholeAccess()
    hasher.combine(_elements)
  }
}

extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as an unkeyed container (like an `Array`), in order.
  ///
  ///     let data = try JSONEncoder().encode(todos)  // [{"id":1,…},{"id":2,…}]
  ///
  /// - Complexity: O(*n*)
  @inlinable
  public func encode(to encoder: any Encoder) throws {
    _recordWholeAccess()
    var container = encoder.unkeyedContainer()
    for element in _elements { try container.encode(element) }
  }
}

extension IdentifiedArray: Decodable where Element: Decodable & Identifiable, ID == Element.ID {
  /// Decodes an array of elements, in order.
  ///
  ///     let todos = try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: data)
  ///
  /// - Throws: `DecodingError.dataCorrupted` with the description
  ///   `IdentifiedArray: duplicate id <id>` if two elements have the same id, or any error
  ///   from decoding the elements.
  /// - Complexity: O(*n*)
  @inlinable
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    self.init()
    if let count = container.count { reserveCapacity(count) }
    while !container.isAtEnd {
      let element = try container.decode(Element.self)
      guard _appendIfAbsent(element, id: element.id).inserted else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: container.codingPath,
            debugDescription: Self._duplicateIDMessage(element.id)))
      }
    }
  }
}

// `_id` is a pure function that reads `Identifiable.id` or applies a key path (immutable once
// formed) and captures nothing mutable, so sharing it across concurrency domains is safe; the
// compiler cannot know that about a non-`@Sendable` closure.
extension IdentifiedArray: @unchecked Sendable where ID: Sendable, Element: Sendable {}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, ID == Element.ID {
  /// Creates an array from a literal of `Identifiable` elements whose ids are all different.
  ///
  ///     let todos: IdentifiedArrayOf<Todo> = [milk, eggs]
  ///
  /// Two elements with the same id are a programming error: the initializer traps with
  /// `IdentifiedArray: duplicate id <id>`.
  ///
  /// - Complexity: O(*n*)
  @inlinable
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
  }
}

// MARK: - Description and reflection

extension IdentifiedArray: CustomStringConvertible {
  /// The elements, formatted like an `Array`'s description.
  ///
  ///     print(scores)  // [3, 1, 2]
  ///
  /// - Complexity: O(*n*)
  public var description: String {
    _recordWholeAccess()
    return Array(_elements).description
  }
}

extension IdentifiedArray: CustomDebugStringConvertible {
  /// The element type and the elements, as swift-identified-collections prints them.
  ///
  ///     debugPrint(scores)  // IdentifiedArray<Int>([3, 1, 2])
  ///
  /// - Complexity: O(*n*)
  public var debugDescription: String {
    _recordWholeAccess()
    return "IdentifiedArray<\(Element.self)>(\(Array(_elements).description))"
  }
}

extension IdentifiedArray: CustomReflectable {
  /// A mirror whose children are the elements, in order, labelled `id: <id>`, with the
  /// `.collection` display style.
  ///
  ///     Mirror(reflecting: todos).children.first?.label  // "id: 1"
  ///
  /// - Complexity: O(*n*)
  public var customMirror: Mirror {
    _recordWholeAccess()
    return Mirror(self, unlabeledChildren: _elements, displayStyle: .collection)
  }
}

/// A collection whose elements a dump addresses by id (`[id: 5]: Row(…)`), not by offset.
protocol IdentifiedElements {
  /// The elements' ids, in order.
  var _elementIDs: [Any] { get }
}

extension IdentifiedArray: IdentifiedElements {
  var _elementIDs: [Any] { _ids.map { $0 } }
}
