/// How a field of type `T` is read and written (see `Observed[field:]`), decided from `T` alone.
///
/// A conformance known where `T` is concrete folds to a constant in optimized builds, and so does
/// `_isPOD`; only a cast that fails is a run-time lookup (cached by the runtime). The checks are
/// ordered so that the common fields never make one on a hot path: a trivial `Equatable` value
/// (`Int`, `Bool`) is recognised by two folded checks, an observable value by one.
///
/// A trivial `Equatable` value is compared by `==` even when it also conforms to
/// ``ObservationIdentifiable`` (a payload-less enum): it has no extent, and its identity is its case.
@usableFromInline
enum FieldKind<T> {
  /// `T`'s observation kind (``ObservationKind``), when a field of it is written through its slot.
  @inlinable
  static var observable: (any ObservationIdentifiable.Type)? {
    if isTrivialEquatable { return nil }
    if let conforming = T.self as? any ObservationIdentifiable.Type { return conforming }
    // Of the types observed without conforming, only enums can be a field's: the others are
    // wrappers made inside collections (a stack element). So a `String` field pays no lookup.
    guard EnumTag.isEnum(T.self) else { return nil }
    return ObservationKind.ofNonConforming(T.self)
  }

  /// Whether `T` is compared after an in-place mutation: a bitwise-copyable `Equatable` value,
  /// whose copy costs nothing.
  @inlinable
  static var isTrivialEquatable: Bool {
    _isPOD(T.self) && T.self is any Equatable.Type
  }

  /// `a == b` when `T` is `Equatable`, nil otherwise.
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

// A value of a generic type `T` known to be `Self` only at run time (`T.self as? any
// ObservationIdentifiable.Type`, opened), acted on in place as `Self`. Where `T` is concrete the
// cast and the opening fold away, and these are direct calls.
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
