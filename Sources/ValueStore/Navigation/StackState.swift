/// The state of a navigation stack: its elements in order, each with a ``StackElementID`` given
/// when it is pushed and never reused.
///
/// ```swift
/// struct State: ObservableState, Equatable {
///   struct Fields: Equatable { var path = StackState<Path.State>() }
///   var _$fields = Observed(Fields())
/// }
/// state.path.append(.detail(Detail.State()))   // id 0
/// state.path[id: 0, case: Path.State.detail]?.title = "Milk"   // another case: reported
/// state.path.pop(from: 0)                      // 0 and everything above it
/// ```
///
/// Observation is the identified array's: reading one element (`path[id: 3]`) and changing
/// another notify nobody; pushing and popping notify the readers of the stack's structure
/// (`count`, `ids`, iteration). Every operation by id is O(1) except popping (O(popped)).
public struct StackState<Element> {
  @usableFromInline var _elements: IdentifiedArray<StackElementID, StackElement<Element>>
  /// The id the next pushed element gets.
  @usableFromInline var _nextID: Int

  /// An empty stack.
  public init() {
    _elements = IdentifiedArray(id: \.id)
    _nextID = 0
  }

  /// A stack of `elements`, bottom first, with ids 0, 1, 2…
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { append(element) }
  }

  /// The ids, bottom first.
  public var ids: [StackElementID] { Array(_elements.ids) }

  /// The element with `id`, nil if there is none; setting nil removes it.
  @inlinable
  public subscript(id id: StackElementID) -> Element? {
    get { _elements[id: id]?.element }
    // Assigning replaces through the array's setter, which compares plain elements (an equal
    // value is no change); nil pops just that element.
    set {
      if let newValue {
        if _elements._offset(of: id) != nil {
          _elements[id: id] = StackElement(id: id, element: newValue)
        } else {
          pushReporting(newValue, id: id)
        }
      } else {
        _elements.remove(id: id)
      }
    }
    _modify {
      if let offset = _elements._offset(of: id) {
        yield &_elements[_offset: offset][element: id]  // in place: observed as the element's slot
      } else {
        var element: Element?
        defer { if let element { pushReporting(element, id: id) } }
        yield &element
      }
    }
  }

  /// Pushes `element` on top, with a new id: in an app the next of
  /// ``DependencyValues/stackElementID`` (one counter for the process, so an id that generator
  /// gives later is new to this stack too), never below ``nextID``; in tests and previews
  /// ``nextID`` (each stack counts from 0, whatever the test did with the generator).
  ///
  /// ```swift
  /// var path = StackState<Path.State>()
  /// path.append(.detail(Detail.State()))   // #0 in a test
  /// ```
  public mutating func append(_ element: Element) {
    var id = _nextID
    let dependencies = DependencyValues.current
    if dependencies.context == .live { id = Swift.max(id, dependencies.stackElementID().rawValue) }
    push(element, id: StackElementID(integerLiteral: id))
  }

  /// Pushes `element` with `id` (a ``StackAction/push(id:state:)``); false if the id was used
  /// before (it is in the stack, or was popped): ids only grow, so that an id always names one
  /// element — its stores and its effects' cancellation belong to it alone.
  @usableFromInline @discardableResult
  mutating func push(_ element: Element, id: StackElementID) -> Bool {
    guard id.rawValue >= _nextID else { return false }
    _ = _elements.append(StackElement(id: id, element: element))
    _nextID = Swift.max(_nextID, id.rawValue + 1)
    return true
  }

  /// ``push(_:id:)``, reporting an id that cannot be pushed.
  @usableFromInline
  mutating func pushReporting(_ element: Element, id: StackElementID) {
    if !push(element, id: id) {
      RuntimeWarning.report("StackState: \(id) was used before and is never reused; the element was not pushed.")
    }
  }

  /// The id the next pushed element gets.
  public var nextID: StackElementID { StackElementID(integerLiteral: _nextID) }

  /// Removes the element with `id` and every element above it; false if there is none.
  @discardableResult
  public mutating func pop(from id: StackElementID) -> Bool {
    guard let offset = _elements._offset(of: id) else { return false }
    _elements._removeLast(_elements._elements.count - offset)
    return true
  }

  /// Removes every element above the one with `id`; false if there is none.
  @discardableResult
  public mutating func pop(to id: StackElementID) -> Bool {
    guard let offset = _elements._offset(of: id) else { return false }
    _elements._removeLast(_elements._elements.count - offset - 1)
    return true
  }

  /// Removes and returns the top element, nil if the stack is empty.
  @discardableResult
  public mutating func popLast() -> Element? {
    _elements._elements.isEmpty ? nil : _elements.remove(at: _elements._elements.count - 1).element
  }

  /// Removes and returns the top element (TCA's `path.removeLast()`: pops the top screen).
  /// Precondition: the stack is not empty.
  ///
  /// ```swift
  /// case .backTapped:
  ///   state.path.removeLast()
  /// ```
  @discardableResult
  public mutating func removeLast() -> Element {
    require(!_elements._elements.isEmpty, "StackState: removeLast() on an empty stack")
    return _elements.remove(at: _elements._elements.count - 1).element
  }

  /// Removes the top `k` elements. Precondition: `0 <= k <= count`.
  public mutating func removeLast(_ k: Int) {
    require(k >= 0 && k <= _elements._elements.count, "StackState: cannot remove \(k) elements of \(_elements._elements.count)")
    _elements._removeLast(k)
  }

  /// Removes every element.
  public mutating func removeAll() { _elements.removeAll() }
}

extension StackState: RandomAccessCollection, MutableCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { _elements.count }

  public subscript(position: Int) -> Element {
    get { _elements[position].element }
    _modify { yield &_elements[position].element }
  }
}

extension StackState: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension StackState: Equatable where Element: Equatable {
  /// Equal when the ids and the elements are (not the next id: a stack popped back to where it
  /// was is the same stack).
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs._elements == rhs._elements }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(_elements) }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: CustomReflectable {
  /// The elements, bottom first, labelled with their ids (`#0`).
  public var customMirror: Mirror {
    Mirror(
      self, children: _elements.map { (label: $0.id.description, value: $0.element) as Mirror.Child },
      displayStyle: .collection)
  }
}

extension StackState: ElementsByID {
  func _elementBelow(id: AnyHashable) -> Below? { _elements._elementBelow(id: id) }
}

extension StackState: ObservationIdentifiable {
  @inlinable public var observationIdentity: ObservationIdentity { _elements.observationIdentity }
  @inlinable public mutating func _makeIdentityUnique() { _elements._makeIdentityUnique() }
  @inlinable public func _adoptForks(in place: _ObservationPlace) { _elements._adoptForks(in: place) }
  public mutating func _detach() { _elements._detach() }
}

extension Optional {
  /// The element of a stack slot taken out of its array (so unique), put back with its id.
  @inlinable
  subscript<Element>(element id: StackElementID) -> Element? where Wrapped == StackElement<Element> {
    get { self?.element }
    _modify {
      var element = self.take()?.element
      defer { self = element.map { StackElement(id: id, element: $0) } }
      yield &element
    }
  }
}

/// An element of a stack with its id: what the stack's identified array holds. Observed as its
/// element is.
public struct StackElement<Element> {
  public let id: StackElementID
  public var element: Element

  @inlinable
  init(id: StackElementID, element: Element) {
    self.id = id
    self.element = element
  }
}

extension StackElement: Equatable where Element: Equatable {}
extension StackElement: Hashable where Element: Hashable {}
extension StackElement: Sendable where Element: Sendable {}

extension StackElement: ObservationIdentifiable where Element: ObservationIdentifiable {
  @inlinable public var observationIdentity: ObservationIdentity { element.observationIdentity }
  @inlinable public mutating func _makeIdentityUnique() { element._makeIdentityUnique() }
  @inlinable public func _adoptForks(in place: _ObservationPlace) { element._adoptForks(in: place) }
  public mutating func _detach() { element._detach() }
}

extension StackElement: ObservationForwarding {
  static var forwardedKind: (any ObservationIdentifiable.Type)? {
    ObservationKind.of(Element.self).map { _ in ObservedStackElement<Element>.self }
  }
}

/// A ``StackElement`` (the same layout) whose element's kind is known only at run time: a path
/// enum observed by reflection (``ReflectedEnum``).
struct ObservedStackElement<Element>: ObservationIdentifiable {
  let id: StackElementID
  var element: Element

  private static var kind: any ObservationIdentifiable.Type { ObservationKind.of(Element.self)! }

  var observationIdentity: ObservationIdentity { Self.kind._identity(of: element) }
  mutating func _makeIdentityUnique() { Self.kind._makeIdentityUnique(&element) }
  func _adoptForks(in place: _ObservationPlace) { Self.kind._adoptForks(of: element, in: place) }
  mutating func _detach() { Self.kind._detach(&element) }
}
