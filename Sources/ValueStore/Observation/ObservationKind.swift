/// How values of a type are observed where a field or a collection holds them: by identity —
/// through an ``ObservationIdentifiable`` type that acts on them in place (FieldKind.swift) — or,
/// for nil, as plain values (any change notifies every reader).
///
/// A conforming type is its own kind. A type that does not conform may still be observed by
/// identity: an enum with a case carrying observable state (``ReflectedEnum``: a destination or a
/// stack's path enum needs no hand-written conformance), and a wrapper whose content is
/// (``ObservationForwarding``, a stack element). Decided once per type.
@usableFromInline
enum ObservationKind {
  @usableFromInline
  static func of(_ type: Any.Type) -> (any ObservationIdentifiable.Type)? {
    if let conforming = type as? any ObservationIdentifiable.Type { return conforming }
    return ofNonConforming(type)
  }

  /// The kind of a type that does not conform to ``ObservationIdentifiable``.
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
