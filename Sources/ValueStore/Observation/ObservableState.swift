/// A struct whose fields are observed one by one, through copies, without macros.
///
/// Keep the fields in a nested `Fields` struct stored in ``Observed``; read and write them as if
/// they were the struct's own (`state.count += 1`, `state.child?.title = "x"`, key paths like
/// `\Counter.count`). Computed properties and methods are tracked through the fields they read.
/// Inside the type, write `self.count`: dynamic members need an explicit `self`. Declare them on
/// the struct, not on `Fields`: one on `Fields` reads the fields directly, unseen, so reading it
/// through a store counts as a read of every field (any change of the value notifies it).
///
/// ```swift
/// struct Counter: ObservableState, Equatable, Codable {
///   struct Fields: Equatable, Codable { var count = 0; var fact: String? }
///   var _$fields = Observed(Fields())
///   var isEven: Bool { self.count.isMultiple(of: 2) }   // tracked through `count` only
/// }
/// ```
///
/// Make one with values through `Fields`' memberwise initializer — no initializer of your own:
///
/// ```swift
/// let counter = Counter(.init(count: 3))      // fact = nil
/// ```
///
/// `Equatable`, `Hashable`, `Codable` and `Sendable` are synthesized from `Fields`; when `Fields` is
/// `Identifiable`, so is the state (declare `Identifiable`, nothing else). Codable encodes the
/// fields under the key `_$fields`.
///
/// To keep a stored property out of observation (Observation's `@ObservationIgnored`), declare it
/// on the struct beside `_$fields` instead of in `Fields`: it is read and written as a plain
/// property, never tracked, and changing it notifies nobody. Such a type declares
/// `init(_$fields:)` itself, as its memberwise initializer then takes the property too.
///
/// The holders' own properties are named so that they do not hide fields: `store.state`,
/// `root.value` and `store.isPresent` read fields of those names (the holders' are
/// ``Store/currentState``, ``ObservedRoot/currentValue`` and ``Store/hasState``).
@dynamicMemberLookup
public protocol ObservableState: ObservationIdentifiable {
  /// The stored fields.
  associatedtype Fields
  /// The fields and their observation record. Declare it as `var _$fields = Observed(Fields())`.
  var _$fields: Observed<Fields> { get set }

  /// A state with these fields. Swift's memberwise initializer provides it; declare it yourself
  /// (one line, `self._$fields = _$fields`) in a public type, or in one with initializers of its
  /// own in its body (or move those to an extension).
  init(_$fields: Observed<Fields>)
}

extension ObservableState {
  @inlinable
  public var observationIdentity: ObservationIdentity { _$fields.identity }

  @inlinable
  public mutating func _makeIdentityUnique() { _$fields.makeExtentUnique() }

  @inlinable
  public mutating func _detach() { _$fields.detach() }

  /// A field, read and written with the semantics its type calls for: an observable value (a child,
  /// an optional child, a collection, an enum) by identity — replacing it notifies this field's
  /// observers, mutating it in place only the observers of what changed inside it; an `Equatable`
  /// value by equality — assigning an equal value, or mutating a trivial one back to an equal value
  /// (`count += 0`), notifies nobody; anything else on every write.
  ///
  /// A single accessor, so that a chain of any length (`s.a.b.c.d.e.count += 1`) type-checks in
  /// linear time.
  @inlinable
  public subscript<T>(dynamicMember keyPath: WritableKeyPath<Fields, T>) -> T {
    get { _$fields.read(keyPath) }
    @inline(__always) set { _$fields[field: keyPath] = newValue }
    _modify { yield &_$fields[field: keyPath] }
  }
}

extension ObservableState {
  /// A state with `fields`: the memberwise initializer of `Fields` does the rest.
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
