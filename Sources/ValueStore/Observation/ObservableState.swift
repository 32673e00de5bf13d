/// A struct whose fields are observed one by one, through copies, without macros.
///
/// Keep the fields in a nested `Fields` struct stored in ``Observed``; read and write them as if
/// they were the struct's own (`state.count += 1`, `state.child?.title = "x"`, key paths like
/// `\Counter.count`). Computed properties and methods are tracked through the fields they read.
/// Inside the type, write `self.count`: dynamic members need an explicit `self`.
///
/// ```swift
/// struct Counter: ObservableState, Equatable, Codable {
///   struct Fields: Equatable, Codable { var count = 0; var fact: String? }
///   var _$fields = Observed(Fields())
///   var isEven: Bool { self.count.isMultiple(of: 2) }   // tracked through `count` only
/// }
/// ```
///
/// `Equatable`, `Hashable`, `Codable` and `Sendable` are synthesized from `Fields`; when `Fields` is
/// `Identifiable`, so is the state (declare `Identifiable`, nothing else). Codable encodes the
/// fields under the key `_$fields`.
@dynamicMemberLookup
public protocol ObservableState: ObservationIdentifiable {
  /// The stored fields.
  associatedtype Fields
  /// The fields and their observation record. Declare it as `var _$fields = Observed(Fields())`.
  var _$fields: Observed<Fields> { get set }
}

extension ObservableState {
  @inlinable
  public var observationIdentity: ObservationIdentity { _$fields.identity }

  @inlinable
  public mutating func _makeIdentityUnique() { _$fields.makeExtentUnique() }

  @inlinable
  public mutating func _detach() { _$fields.detach() }

  /// A field.
  @inlinable
  public subscript<T>(dynamicMember keyPath: WritableKeyPath<Fields, T>) -> T {
    get { _$fields.read(keyPath) }
    set { _$fields[unconditional: keyPath] = newValue }
    _modify { yield &_$fields[unconditional: keyPath] }
  }

  /// An `Equatable` field: assigning an equal value notifies nobody.
  @inlinable
  public subscript<T: Equatable>(dynamicMember keyPath: WritableKeyPath<Fields, T>) -> T {
    get { _$fields.read(keyPath) }
    set { _$fields[equatable: keyPath] = newValue }
    _modify { yield &_$fields[equatable: keyPath] }
  }

  /// A trivial `Equatable` field: assigning an equal value, or mutating it back to an equal value
  /// (`count += 0`), notifies nobody.
  @inlinable
  public subscript<T: Equatable & BitwiseCopyable>(dynamicMember keyPath: WritableKeyPath<Fields, T>) -> T {
    get { _$fields.read(keyPath) }
    set { _$fields[trivial: keyPath] = newValue }
    _modify { yield &_$fields[trivial: keyPath] }
  }

  /// A field holding observable state (a child, an optional child, a collection, an enum).
  @inlinable
  public subscript<T: ObservationIdentifiable>(dynamicMember keyPath: WritableKeyPath<Fields, T>) -> T {
    get { _$fields.readSlot(keyPath) }
    set { _$fields[slot: keyPath] = newValue }
    _modify { yield &_$fields[slot: keyPath] }
  }

  /// Disambiguates observable fields that are also `Equatable`: identity, not equality, decides.
  @inlinable
  public subscript<T: ObservationIdentifiable & Equatable>(
    dynamicMember keyPath: WritableKeyPath<Fields, T>
  ) -> T {
    get { _$fields.readSlot(keyPath) }
    set { _$fields[slot: keyPath] = newValue }
    _modify { yield &_$fields[slot: keyPath] }
  }

  /// Disambiguates trivial observable fields (a payload-less enum conforming to
  /// `ObservationIdentifiable`): identity decides.
  @inlinable
  public subscript<T: ObservationIdentifiable & Equatable & BitwiseCopyable>(
    dynamicMember keyPath: WritableKeyPath<Fields, T>
  ) -> T {
    get { _$fields.readSlot(keyPath) }
    set { _$fields[slot: keyPath] = newValue }
    _modify { yield &_$fields[slot: keyPath] }
  }
}

// On `Identifiable` (not `ObservableState`) so that `ID` is inferred from `Fields.ID`.
extension Identifiable where Self: ObservableState, Fields: Identifiable, ID == Fields.ID {
  /// The fields' id; never tracked (an id names the value, it is not state that changes).
  @inlinable
  public var id: Fields.ID { _$fields._value.id }
}
