/// How a field of type `T` is read and written (see `Observed[field:]`), decided from `T` alone so
/// that common fields make no run-time lookup on a hot path (known conformances and `_isPOD` fold to
/// constants in optimized builds). A trivial `Equatable` value is compared by `==` even if it
/// conforms to ``ObservationIdentifiable`` (a payload-less enum: no extent; its identity is its case).
@usableFromInline
enum FieldKind<T> {
  /// `T`'s observation kind (``ObservationKind``), when a field of it is written through its slot.
  @inlinable
  static var observable: (any ObservationIdentifiable.Type)? {
    if isTrivialEquatable { return nil }
    if let conforming = T.self as? any ObservationIdentifiable.Type { return conforming }
    // Non-conforming observed types other than enums are wrappers made inside collections, never a
    // field's: a `String` field pays no lookup.
    guard EnumTag.isEnum(T.self) else { return nil }
    return ObservationKind.ofNonConforming(T.self)
  }

  /// Compared after an in-place mutation: a bitwise-copyable `Equatable` value, whose copy is free.
  @inlinable
  static var isTrivialEquatable: Bool {
    _isPOD(T.self) && T.self is any Equatable.Type
  }

  /// `==` for a trivially comparable `T`, found once by a caller that keeps it.
  static var trivialEquality: ((T, T) -> Bool)? {
    guard isTrivialEquatable, let equatable = T.self as? any Equatable.Type else { return nil }
    func equality<U: Equatable>(_: U.Type) -> (T, T) -> Bool { { a, b in areEqual(a, b, as: U.self) } }
    return equality(equatable)
  }

  @inlinable
  static func isEqual(_ a: T, _ b: T) -> Bool? {
    guard let equatable = T.self as? any Equatable.Type else { return nil }
    return areEqual(a, b, as: equatable)
  }
}

// The opened type `U` is `T` itself: values of `T` are compared in place as `U`.

@inlinable
func areEqual<T, U: Equatable>(_ a: T, _ b: T, as _: U.Type) -> Bool {
  withUnsafePointer(to: a) { a in
    withUnsafePointer(to: b) { b in
      UnsafeRawPointer(a).assumingMemoryBound(to: U.self).pointee
        == UnsafeRawPointer(b).assumingMemoryBound(to: U.self).pointee
    }
  }
}

// A value of generic type `T` that is `Self` at run time, acted on in place as `Self`. Where `T`
// is concrete, the cast and the opening fold away.
extension ObservationIdentifiable {
  @inlinable @inline(__always)
  static func _identity<T>(of value: T) -> ObservationIdentity {
    withUnsafePointer(to: value) { UnsafeRawPointer($0).assumingMemoryBound(to: Self.self).pointee.observationIdentity }
  }

  @inlinable @inline(__always)
  static func _adoptForks<T>(of value: T, in place: _ObservationPlace) {
    withUnsafePointer(to: value) {
      UnsafeRawPointer($0).assumingMemoryBound(to: Self.self).pointee._adoptForks(in: place)
    }
  }

  @inlinable @inline(__always)
  static func _unindexedElements<T>(of value: T) -> [ObservationIdentity] {
    withUnsafePointer(to: value) { UnsafeRawPointer($0).assumingMemoryBound(to: Self.self).pointee._unindexedElements() }
  }

  @inlinable @inline(__always)
  static func _makeIdentityUnique<T>(_ value: inout T) {
    withUnsafeMutablePointer(to: &value) {
      UnsafeMutableRawPointer($0).assumingMemoryBound(to: Self.self).pointee._makeIdentityUnique()
    }
  }

  @inlinable @inline(__always)
  static func _detach<T>(_ value: inout T) {
    withUnsafeMutablePointer(to: &value) { UnsafeMutableRawPointer($0).assumingMemoryBound(to: Self.self).pointee._detach() }
  }
}
