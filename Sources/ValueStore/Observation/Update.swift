// Updating a value from another writes only the leaves that differ (struct fields, elements by id,
// optional and enum payloads), through the usual accessors (`StateHistory` undoing): unlike a
// replacement, readers of what is equal hear nothing, and values keep their extents.
@_spi(Reflection) import Swift

extension ObservationIdentifiable {
  /// `value._update(from: other)`, `T` being `Self` at run time (see FieldKind.swift).
  @inlinable @inline(__always)
  static func _update<T>(_ value: inout T, from other: T) {
    withUnsafePointer(to: other) { other in
      withUnsafeMutablePointer(to: &value) {
        UnsafeMutableRawPointer($0).assumingMemoryBound(to: Self.self).pointee
          ._update(from: UnsafeRawPointer(other).assumingMemoryBound(to: Self.self).pointee)
      }
    }
  }
}

@inlinable
func update<T>(_ value: inout T, from other: T) {
  if let kind = FieldKind<T>.observable { return kind._update(&value, from: other) }
  if FieldKind<T>.isEqual(value, other) != true { value = other }
}

extension ObservableState {
  public mutating func _update(from other: Self) { _$fields.update(from: other._$fields) }
}

extension Observed {
  /// Updates each field from `other`'s, through the field accessor (so with its semantics).
  @usableFromInline
  mutating func update(from other: Observed) {
    if _extent === other._extent { return }  // copies not written since: equal
    let fields = FieldUpdaters.of(Fields.self)
    // A `let` field (an id) cannot be written: a value that differs there is another value,
    // replaced whole — and so is one whose `let` fields cannot be compared.
    guard fields.constantsAreEqual.allSatisfy({ $0(_value, other._value) == true }) else {
      self = other
      return
    }
    for update in fields.updaters { update(&self, other) }
  }

  @usableFromInline
  mutating func updateField<T>(_ keyPath: WritableKeyPath<Fields, T>, from new: T) {
    if let kind = FieldKind<T>.observable { return kind._update(&self[field: keyPath], from: new) }
    if FieldKind<T>.isEqual(_value[keyPath: keyPath], new) != true { self[field: keyPath] = new }
  }
}

/// Updaters of each writable stored field of `Fields`; reflected once per type.
final class FieldUpdaters<Fields>: AnyFieldUpdaters, @unchecked Sendable {  // immutable
  let updaters: [(inout Observed<Fields>, Observed<Fields>) -> Void]
  /// For each `let` field: whether two values have it equal (nil: cannot compare). A field without
  /// a key path (`weak`, `unowned(unsafe)`, a function, a metatype) counts as one that cannot.
  let constantsAreEqual: [(Fields, Fields) -> Bool?]

  private override init() {
    var updaters: [(inout Observed<Fields>, Observed<Fields>) -> Void] = []
    var constantsAreEqual: [(Fields, Fields) -> Bool?] = []
    _ = _forEachFieldWithKeyPath(of: Fields.self, options: .skippingFieldsWithoutKeyPaths) { _, keyPath in
      func add<Value>(_: Value.Type) {
        if let writable = keyPath as? WritableKeyPath<Fields, Value> {
          updaters.append { $0.updateField(writable, from: $1._value[keyPath: writable]) }
        } else if let constant = keyPath as? KeyPath<Fields, Value> {
          constantsAreEqual.append { FieldKind<Value>.isEqual($0[keyPath: constant], $1[keyPath: constant]) }
        }
      }
      _openExistential(type(of: keyPath).valueType, do: add)
      return true
    }
    // Without skipping, the walk stops (returns false) at a field it has no key path for.
    if !_forEachFieldWithKeyPath(of: Fields.self, body: { _, _ in true }) {
      constantsAreEqual.append { _, _ in nil }
    }
    self.updaters = updaters
    self.constantsAreEqual = constantsAreEqual
  }

  static func of(_: Fields.Type) -> FieldUpdaters {
    unsafeDowncast(byType.value(for: Fields.self) { _ in FieldUpdaters<Fields>() }, to: FieldUpdaters.self)
  }
}

class AnyFieldUpdaters: @unchecked Sendable {}
private let byType = TypeCache<AnyFieldUpdaters>()

extension Optional where Wrapped: ObservationIdentifiable {
  public mutating func _update(from other: Self) {
    if self != nil, let other { return self!._update(from: other) }
    if FieldKind<Self>.isEqual(self, other) != true { self = other }
  }
}

extension Array where Element: ObservationIdentifiable {
  public mutating func _update(from other: Self) {
    guard count == other.count else { return self = other }
    for offset in indices { self[offset]._update(from: other[offset]) }
  }
}

extension ReflectedEnum {
  mutating func _update(from other: Self) {
    let tag = EnumTag.tag(of: value)
    if tag == EnumTag.tag(of: other.value), let kind = EnumObservation.of(Enum.self)!.payloadKinds[Int(tag)] {
      return kind._updatePayload(in: &value, tag: tag, from: other.value)
    }
    if FieldKind<Enum>.isEqual(value, other.value) != true { value = other.value }
  }
}

extension ObservationIdentifiable {
  static func _updatePayload<Root>(in root: inout Root, tag: UInt32, from other: Root) {
    let new = EnumPayload.project(other, indirect: false, as: Self.self)
    EnumPayload.modify(&root, tag: tag, as: Self.self) { $0._update(from: new) }
  }
}
