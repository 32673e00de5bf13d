/// An enum observed by identity without conforming to ``ObservationIdentifiable``, as a hand-written
/// conformance would be, its layout read at run time: its case and that case's observable payload
/// (opaque for a plain payload, `absent` for `nil`); a replacement detaches the payload. It has
/// `Enum`'s layout, so an `Enum` is acted on in place as one (FieldKind.swift). `indirect` cases (a
/// heap box shared by copies) are observed as plain payloads.
struct ReflectedEnum<Enum>: ObservationIdentifiable {
  var value: Enum

  private static var observation: EnumObservation { EnumObservation.of(Enum.self)! }

  var observationIdentity: ObservationIdentity {
    let tag = EnumTag.tag(of: value)
    let observation = Self.observation
    guard let kind = observation.payloadKinds[Int(tag)] else {
      if observation.isOptional { return .absent }
      return observation.hasPayload[Int(tag)] ? .opaque(tag: Int(tag)) : ObservationIdentity(case: Int(tag))
    }
    let payload = kind._payloadIdentity(in: value)
    return observation.isOptional ? .wrapping(payload) : ObservationIdentity(case: Int(tag), payloadIdentity: payload)
  }

  mutating func _makeIdentityUnique() {
    let tag = EnumTag.tag(of: value)
    Self.observation.payloadKinds[Int(tag)]?._makePayloadIdentityUnique(in: &value, tag: tag)
  }

  func _adoptForks(in place: _ObservationPlace) {
    Self.observation.payloadKinds[Int(EnumTag.tag(of: value))]?._adoptPayloadForks(in: value, place)
  }

  mutating func _detach() {
    let tag = EnumTag.tag(of: value)
    Self.observation.payloadKinds[Int(tag)]?._detachPayload(in: &value, tag: tag)
  }
}

/// Each case's observable payload, for ``ReflectedEnum``; exists only if some case has one.
final class EnumObservation: @unchecked Sendable {  // immutable; holds metatypes
  /// By case tag: the payload's kind, nil for a case without an observable payload.
  let payloadKinds: [(any ObservationIdentifiable.Type)?]
  let hasPayload: [Bool]
  /// An optional: `nil` is `absent`, a wrapped value its payload's identity (as `Optional`'s own).
  let isOptional: Bool

  private init(payloadKinds: [(any ObservationIdentifiable.Type)?], hasPayload: [Bool], isOptional: Bool) {
    self.payloadKinds = payloadKinds
    self.hasPayload = hasPayload
    self.isOptional = isOptional
  }

  /// Precondition: `type` is an enum.
  static func of(_ type: Any.Type) -> EnumObservation? {
    byType.value(for: type, make: make)
  }

  private static let byType = TypeCache<EnumObservation?>()

  private static func make(_ type: Any.Type) -> EnumObservation? {
    guard let cases = EnumPayload.cases(of: type)?.cases else { return nil }
    let kinds = cases.map { info -> (any ObservationIdentifiable.Type)? in
      guard info.isPayloadCase, !info.isIndirect, info.isReadable, let payload = info.payloadType else { return nil }
      return ObservationKind.of(payload)
    }
    guard kinds.contains(where: { $0 != nil }) else { return nil }
    return EnumObservation(
      payloadKinds: kinds, hasPayload: cases.map(\.isPayloadCase),
      isOptional: EnumTag.metadata(type).load(as: Int.self) == EnumTag.optionalKind)
  }
}

// A payload stored in place, as `Self` (the case's payload kind, opened).
extension ObservationIdentifiable {
  static func _payloadIdentity<Root>(in root: Root) -> ObservationIdentity {
    EnumPayload.withPayload(of: root, indirect: false, as: Self.self) { $0.pointee.observationIdentity }
  }

  static func _adoptPayloadForks<Root>(in root: Root, _ place: _ObservationPlace) {
    EnumPayload.withPayload(of: root, indirect: false, as: Self.self) { $0.pointee._adoptForks(in: place) }
  }

  static func _makePayloadIdentityUnique<Root>(in root: inout Root, tag: UInt32) {
    EnumPayload.modify(&root, tag: tag, as: Self.self) { $0._makeIdentityUnique() }
  }

  static func _detachPayload<Root>(in root: inout Root, tag: UInt32) {
    EnumPayload.modify(&root, tag: tag, as: Self.self) { $0._detach() }
  }
}
