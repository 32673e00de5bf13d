/// How values of a type are observed in a field or a collection: by identity, through an
/// ``ObservationIdentifiable`` type acting on them in place (FieldKind.swift), or (nil) as plain
/// values. A conforming type is its own kind; an enum with observable payloads is a ``ReflectedEnum``,
/// a wrapper (a stack element) an ``ObservationForwarding``'s. Decided once per type.
@usableFromInline
enum ObservationKind {
  @usableFromInline
  static func of(_ type: Any.Type) -> (any ObservationIdentifiable.Type)? {
    if let conforming = type as? any ObservationIdentifiable.Type { return conforming }
    return ofNonConforming(type)
  }

  @usableFromInline
  static func ofNonConforming(_ type: Any.Type) -> (any ObservationIdentifiable.Type)? {
    kinds.value(for: type) { Kind(make($0)) }.kind
  }

  private static func make(_ type: Any.Type) -> (any ObservationIdentifiable.Type)? {
    if EnumTag.isEnum(type) {
      guard EnumObservation.of(type) != nil else { return nil }
      func reflected<Enum>(_: Enum.Type) -> any ObservationIdentifiable.Type { ReflectedEnum<Enum>.self }
      return _openExistential(type, do: reflected)
    }
    return (type as? any ObservationForwarding.Type)?.forwardedKind
  }

  private struct Kind: @unchecked Sendable {  // a metatype
    let kind: (any ObservationIdentifiable.Type)?
    init(_ kind: (any ObservationIdentifiable.Type)?) { self.kind = kind }
  }

  private static let kinds = TypeCache<Kind>()
}

/// A wrapper observed as the value it wraps, when that value's kind is known only at run time
/// (a conforming wrapper is found first).
protocol ObservationForwarding {
  /// The wrapper's kind, nil when the wrapped value is plain.
  static var forwardedKind: (any ObservationIdentifiable.Type)? { get }
}
