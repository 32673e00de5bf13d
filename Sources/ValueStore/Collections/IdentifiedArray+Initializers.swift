// The initializers of swift-identified-collections that the core type (IdentifiedArray.swift) does
// not declare. A new array calls no observation hook; one made from another array's slice records
// a read of what it copies.

extension IdentifiedArray {
  /// Creates an array from elements whose ids are all different, as
  /// ``init(uniqueElements:id:)`` does.
  ///
  ///     let people = IdentifiedArray(uncheckedUniqueElements: directory.people, id: \.email)
  ///
  /// Named as in swift-identified-collections, where the ids are not checked. Here they are,
  /// at no extra cost (building the id index finds a duplicate): an array with a duplicate id
  /// would be corrupt, so a duplicate traps with `IdentifiedArray: duplicate id <id>`.
  ///
  /// - Complexity: O(*n*), where *n* is the number of elements.
  @inlinable
  public init(uncheckedUniqueElements elements: some Sequence<Element>, id: KeyPath<Element, ID>) {
    self.init(uniqueElements: elements, id: id)
  }

  /// Creates an array from a sequence whose ids may repeat, combining the elements that share
  /// an id.
  ///
  ///     let latest = IdentifiedArray(events, id: \.key) { _, newer in newer }
  ///
  /// The element kept for an id takes the place of the id's first occurrence.
  ///
  /// - Parameters:
  ///   - elements: The elements, in order.
  ///   - id: The key path from an element to its unique id.
  ///   - combine: Called with the element kept so far for an id and the next element with that
  ///     id; returns the element to keep, which must have that id (the initializer traps with
  ///     `IdentifiedArray: element id changed from <old> to <new> at index <offset>` otherwise).
  ///     If it throws, the error propagates and no array is made.
  /// - Complexity: O(*n*), where *n* is the number of elements, plus the calls to `combine`.
  @inlinable
  public init(
    _ elements: some Sequence<Element>,
    id: KeyPath<Element, ID>,
    uniquingIDsWith combine: (Element, Element) throws -> Element
  ) rethrows {
    self.init(id: id)
    try _append(elements, uniquingIDsWith: combine)
  }

  /// Creates a copy of an identified array.
  ///
  ///     let copy = IdentifiedArray(todos)
  ///
  /// The copy shares storage with `elements` until either is mutated.
  ///
  /// - Complexity: O(1)
  @inlinable
  public init(_ elements: Self) {
    self = elements
  }

  /// Creates an array from a contiguous range of an identified array, identified as that array
  /// is.
  ///
  ///     let rest = IdentifiedArray(todos[1...])
  ///
  /// - Complexity: O(*k*), where *k* is the number of elements in the range.
  @inlinable
  public init(_ elements: SubSequence) {
    let base = elements.base
    let offsets = elements.startIndex..<elements.endIndex
    base._recordAccess(to: offsets)
    self.init(_id: base._id)
    _elements = ChunkedArray(base._elements[offsets])
    _ids = ContiguousArray(base._ids[offsets])
    _reindex()
  }

  /// Appends `elements`; an element whose id is present is combined with the element there
  /// (`combine(present, new)`), which keeps its place. Calls no hook (for initializers).
  @inlinable
  internal mutating func _append(
    _ elements: some Sequence<Element>, uniquingIDsWith combine: (Element, Element) throws -> Element
  ) rethrows {
    reserveCapacity(_elements.count + elements.underestimatedCount)
    for element in elements {
      let id = _id(element)
      guard let offset = _offset(of: id) else {
        _appendIfAbsent(element, id: id)
        continue
      }
      let combined = try combine(_elements[offset], element)
      _checkIDUnchanged(combined, at: offset)
      _elements[offset] = combined
    }
  }
}

extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
  /// Creates an array from `Identifiable` elements whose ids are all different, as
  /// ``init(uniqueElements:)`` does.
  ///
  ///     let todos = IdentifiedArrayOf(uncheckedUniqueElements: response.todos)
  ///
  /// Named as in swift-identified-collections, where the ids are not checked. Here they are,
  /// at no extra cost: a duplicate traps with `IdentifiedArray: duplicate id <id>`.
  ///
  /// - Complexity: O(*n*), where *n* is the number of elements.
  @inlinable
  public init(uncheckedUniqueElements elements: some Sequence<Element>) {
    self.init(uniqueElements: elements)
  }

  /// Creates an array from a sequence of `Identifiable` elements whose ids are all different, as
  /// ``init(uniqueElements:)`` does (also `RangeReplaceableCollection`'s initializer).
  ///
  ///     let todos = IdentifiedArrayOf<Todo>(loadedTodos)
  ///
  /// Two elements with the same id are a programming error: the initializer traps with
  /// `IdentifiedArray: duplicate id <id>`. To merge them, use ``init(_:uniquingIDsWith:)``.
  ///
  /// - Complexity: O(*n*), where *n* is the number of elements.
  @inlinable
  public init(_ elements: some Sequence<Element>) {
    self.init(uniqueElements: elements)
  }

  /// Creates an array from a sequence of `Identifiable` elements whose ids may repeat,
  /// combining the elements that share an id.
  ///
  ///     let merged = IdentifiedArrayOf(cached + fetched) { _, fetched in fetched }
  ///
  /// The element kept for an id takes the place of the id's first occurrence.
  ///
  /// - Parameters:
  ///   - elements: The elements, in order.
  ///   - combine: Called with the element kept so far for an id and the next element with that
  ///     id; returns the element to keep, which must have that id (the initializer traps with
  ///     `IdentifiedArray: element id changed from <old> to <new> at index <offset>` otherwise).
  ///     If it throws, the error propagates and no array is made.
  /// - Complexity: O(*n*), where *n* is the number of elements, plus the calls to `combine`.
  @inlinable
  public init(
    _ elements: some Sequence<Element>,
    uniquingIDsWith combine: (Element, Element) throws -> Element
  ) rethrows {
    self.init()
    try _append(elements, uniquingIDsWith: combine)
  }
}
