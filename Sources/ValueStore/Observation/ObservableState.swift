/// A struct whose fields are observed one by one, through copies, without macros.
///
/// Keep the fields in a nested `Fields` struct stored in ``Observed``; use them as the struct's own
/// (`state.count += 1`, `\Counter.count`; inside the type `self.count`: dynamic members need `self`).
/// Declare computed properties on the struct: they are tracked through the fields they read (one on
/// `Fields` reads them unseen, so reading it counts as reading every field).
///
/// ```swift
/// struct Counter: ObservableState, Equatable, Codable {
///   struct Fields: Equatable, Codable { var count = 0; var fact: String? }
///   var _$fields = Observed(Fields())
///   var isEven: Bool { self.count.isMultiple(of: 2) }   // tracked through `count` only
/// }
/// ```
///
/// Make one with `Fields`' memberwise initializer, no initializer of your own:
///
/// ```swift
/// let counter = Counter(.init(count: 3))      // fact = nil
/// ```
///
/// `Equatable`, `Hashable`, `Codable` (under the key `_$fields`) and `Sendable` are synthesized
/// from `Fields`; so is `Identifiable` when `Fields` is (declare it, nothing else).
///
/// A stored property beside `_$fields` (not in `Fields`) is never tracked (`@ObservationIgnored`);
/// such a type declares `init(_$fields:)`, as its memberwise one takes the property too.
///
/// Holders' own properties do not hide fields (`store.state`, `root.value`, `store.isPresent` read
/// fields): they are ``Store/currentState``, ``ObservedRoot/currentValue`` and ``Store/hasState``.
@dynamicMemberLookup
public protocol ObservableState: ObservationIdentifiable {
  /// The stored fields.
  associatedtype Fields
  /// The fields and their observation record. Declare it as `var _$fields = Observed(Fields())`.
  var _$fields: Observed<Fields> { get set }

  /// A state with these fields (the memberwise initializer). Declare it, `self._$fields = _$fields`,
  /// in a public type, or one with initializers in its body (or move those to an extension).
  init(_$fields: Observed<Fields>)
}

extension ObservableState {
  @inlinable
  public var observationIdentity: ObservationIdentity { _$fields.identity }

  @inlinable
  public mutating func _makeIdentityUnique() { _$fields.makeExtentUnique() }

  @inlinable
  public mutating func _detach() { _$fields.detach() }

  /// A field, with its type's semantics: an observable value (a child, an optional, a collection,
  /// an enum) by identity — replacing it notifies this field's observers, mutating it in place those
  /// of what changed inside; an `Equatable` value by equality — an equal value (or `count += 0`)
  /// notifies nobody; anything else on every write. One accessor: any chain type-checks in linear time.
  @inlinable
  public subscript<T>(dynamicMember keyPath: WritableKeyPath<Fields, T>) -> T {
    get { _$fields.read(keyPath) }
    @inline(__always) set { _$fields[field: keyPath] = newValue }
    _modify { yield &_$fields[field: keyPath] }
  }
}

extension ObservableState {
  /// A state with `fields`; `Fields`' memberwise initializer does the rest.
  ///
  /// ```swift
  /// struct Counter: ObservableState {
  ///   struct Fields { var count = 0; var step = 1 }
  ///   var _$fields = Observed(Fields())
  /// }
  /// let counter = Counter(.init(count: 3))   // step = 1
  /// ```
  @inlinable
  public init(_ fields: Fields) { self.init(_$fields: Observed(fields)) }
}

// On `Identifiable` (not `ObservableState`) so that `ID` is inferred from `Fields.ID`.
extension Identifiable where Self: ObservableState, Fields: Identifiable, ID == Fields.ID {
  /// The fields' id; never tracked (an id names the value, it is not state that changes).
  @inlinable
  public var id: Fields.ID { _$fields._value.id }
}
