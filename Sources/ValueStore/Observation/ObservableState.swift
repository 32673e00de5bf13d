@_spi(Reflection) import Swift

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
/// A stored property beside `_$fields` (not in `Fields`) is never tracked: declare there a `let`
/// (it never changes, so nothing is lost), a keyless `@Shared` (it has its own observers) or
/// what `@ObservationIgnored` would mark. Such a state is made with its memberwise initializer,
/// as in TCA:
///
/// ```swift
/// struct Detail: ObservableState {
///   let id: UUID
///   @Shared var syncUp: SyncUp
///   struct Fields { var isEditing = false }
///   var _$fields = Observed(Fields())
/// }
/// let detail = Detail(id: id, syncUp: $syncUp)
/// ```
///
/// Holders' own properties do not hide fields (`store.state`, `root.value`, `store.isPresent` read
/// fields): they are ``Store/currentState``, ``ObservedRoot/currentValue`` and ``Store/hasState``.
@dynamicMemberLookup
public protocol ObservableState: ObservationIdentifiable {
  /// The stored fields.
  associatedtype Fields
  /// The fields and their observation record. Declare it as `var _$fields = Observed(Fields())`.
  var _$fields: Observed<Fields> { get set }

  /// A state with these fields: the memberwise initializer, or the default below.
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
  /// A state with these fields, for a type whose one stored property is `_$fields` and that
  /// declares initializers in its body (which take Swift's memberwise one away). A public type
  /// declares `public init(_$fields:)`: Swift picks its internal memberwise one and rejects it.
  ///
  /// - Precondition: `Self` stores nothing but `_$fields`. A state with other stored properties
  ///   (a `let`, a `@Shared`) cannot be made from its fields alone: use its memberwise initializer,
  ///   or declare this one.
  @inlinable
  public init(_$fields: Observed<Fields>) {
    guard storesFieldsOnly(Self.self, Observed<Fields>.self) else {
      fatalError("\(Self.self) has stored properties beside `_$fields`: make it with its memberwise initializer, or declare init(_$fields:)")
    }
    self = unsafeBitCast(_$fields, to: Self.self)
  }

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

/// Whether `state`'s only stored property is `_$fields` (so the two share a layout).
@usableFromInline
func storesFieldsOnly(_ state: Any.Type, _ observed: Any.Type) -> Bool {
  layouts.value(for: state) { state in
    var count = 0
    var isObserved = false
    let isStruct = _forEachField(of: state) { name, _, type, _ in
      count += 1
      isObserved = String(cString: name) == "_$fields" && type == observed
      return count == 1
    }
    return isStruct && count == 1 && isObserved && !(state is AnyObject.Type)
  }
}

private let layouts = TypeCache<Bool>()

// On `Identifiable` (not `ObservableState`) so that `ID` is inferred from `Fields.ID`.
extension Identifiable where Self: ObservableState, Fields: Identifiable, ID == Fields.ID {
  /// The fields' id; never tracked (an id names the value, it is not state that changes).
  @inlinable
  public var id: Fields.ID { _$fields._value.id }
}
