@_spi(Reflection) import Swift

/// Why a case key path names no value that can be built.
struct CaseEmbedFailure: Error, CustomStringConvertible {
  let description: String
  /// The payload is of another type than the case carries.
  var isPayloadMismatch = false
}

/// Building the value a case key path names: `\.path[id: 0].detail.titleChanged` with `"Blob"`
/// is `.path(.element(id: 0, action: .detail(.titleChanged("Blob"))))`. Each step looks its case up
/// by name in the enum's descriptor (the cases ``EnumPayload`` reads), writes the payload where the
/// runtime keeps it — at the start of the value — and sets the case with the enum's own `inject`
/// value witness: the way the compiler builds an enum value.
extension Cases {
  /// The value `path` names, carrying `payload` in its last case (nil for a case without one).
  static func embed(_ path: KeyPath<Cases, Cases>, _ payload: (any Sendable)?) throws(CaseEmbedFailure) -> Root {
    let value = try build(Root.self, Cases()[keyPath: path].steps[...], payload)
    return value as! Root  // built as `Root`
  }

  private static func build(_ type: Any.Type, _ steps: ArraySlice<Step>, _ payload: (any Sendable)?) throws(CaseEmbedFailure) -> Any {
    guard let step = steps.first else { return try cast(payload, to: type) }
    if let binding = type as? any CaseKeyPathBinding.Type, case let .name(field) = step, steps.count == 1 {
      return try binding.set(field: field, to: payload)
    }
    guard EnumTag.isEnum(type) else {
      throw CaseEmbedFailure(description: "\(typeName(type)) is not an enum: it has no case \(describe(step))")
    }
    guard let cases = EnumPayload.cases(of: type)?.cases else {
      throw CaseEmbedFailure(description: "the cases of \(typeName(type)) cannot be read")
    }
    switch step {
    case let .name(name):
      if let tag = cases.firstIndex(where: { $0.name == name }) {
        let info = cases[tag]
        guard let payloadType = info.payloadType else {
          guard steps.count == 1 else {
            throw CaseEmbedFailure(description: "\(typeName(type)).\(name) has no payload to name \(describe(steps.dropFirst().first!)) in")
          }
          guard payload == nil else { throw CaseEmbedFailure(description: "\(typeName(type)).\(name) has no payload") }
          return make(type, tag: tag, payload: nil)
        }
        try checkConstructible(info, in: type)
        let value = try build(payloadType, steps.dropFirst(), payload)
        // A payload of an empty type the compiler left out of the layout has nothing to write.
        return make(type, tag: tag, payload: info.isPayloadCase ? (payloadType, value) : nil)
      }
      // `PresentationAction.presented` and `Optional.some` are stepped through unnamed.
      if type is any CaseKeyPathTransparent.Type, let tag = cases.firstIndex(where: \.isPayloadCase),
        let payloadType = cases[tag].payloadType
      {
        return make(type, tag: tag, payload: (payloadType, try build(payloadType, steps, payload)))
      }
      throw CaseEmbedFailure(description: "\(typeName(type)) has no case .\(name)")
    case let .id(id):
      guard let tag = cases.firstIndex(where: { $0.name == "element" }), let tupleType = cases[tag].payloadType,
        let elements = EnumPayload.tupleElements(tupleType), elements.count == 2
      else { throw CaseEmbedFailure(description: "\(typeName(type)) has no element(id:action:) case for [id: \(id.base)]") }
      try checkConstructible(cases[tag], in: type)
      let elementID = try Self.id(id.base, as: elements[0])
      let action = try build(elements[1], steps.dropFirst(), payload)
      return make(type, tag: tag, payload: (tupleType, makeTuple(tupleType, [elementID, action])))
    }
  }

  private static func checkConstructible(_ info: EnumPayload.CaseInfo, in type: Any.Type) throws(CaseEmbedFailure) {
    guard !info.isIndirect, info.isReadable else {
      let why = info.isIndirect ? "is an indirect case" : "carries a function or a metatype"
      throw CaseEmbedFailure(description: "\(typeName(type)).\(info.name) \(why): it cannot be built by name")
    }
  }

  /// `id` as the element id type: as is, or from the number it is written as (`[id: 0]`).
  private static func id(_ id: any Hashable, as type: Any.Type) throws(CaseEmbedFailure) -> Any {
    if let written = type as? any CaseKeyPathID.Type, let made = written.init(caseKeyPathID: AnyHashable(id)) {
      return made
    }
    return try cast(id, to: type)
  }

  private static func cast(_ value: Any?, to type: Any.Type) throws(CaseEmbedFailure) -> Any {
    func open<T>(_: T.Type) -> Any? {
      guard let value else { return T.self == Void.self ? () : nil }
      if value is _NilPayload { return (T.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ()) }
      return value as? T ?? integerLiteral(value, as: T.self) ?? tuple(value, as: T.self)
    }
    guard let cast = _openExistential(type, do: open) else {
      let given = value.map { typeName(Swift.type(of: $0)) }
      throw CaseEmbedFailure(
        description: "the case carries \(typeName(type)), " + (given.map { "not \($0)" } ?? "but no value was given"),
        isPayloadMismatch: given != nil)
    }
    return cast
  }

  /// `value`, a tuple of as many elements as the tuple type `T`, unlabeled or with `T`'s labels,
  /// with each element cast as a payload is (`(id: 0, state: 5)` for `push(id: StackElementID, state: Int)`).
  private static func tuple<T>(_ value: Any, as _: T.Type) -> T? {
    let given = Mirror(reflecting: value)
    guard given.displayStyle == .tuple, let types = EnumPayload.tupleElements(T.self), types.count == given.children.count,
      zip(given.children, EnumPayload.tupleLabels(T.self)).allSatisfy({ $0.label?.first == "." || $0.label == $1 }),
      let elements = try? zip(given.children, types).map({ (element, type) throws(CaseEmbedFailure) in
        try cast(element.value, to: type)
      })
    else { return nil }
    return makeTuple(T.self, elements) as? T
  }

  private static func describe(_ step: Step) -> String {
    switch step {
    case let .name(name): ".\(name)"
    case let .id(id): "[id: \(id.base)]"
    }
  }
}

/// An enum value of `type` in case `tag`, with `payload` (its declared type and a value of it).
private func make(_ type: Any.Type, tag: Int, payload: (type: Any.Type, value: Any)?) -> Any {
  func open<Enum>(_: Enum.Type) -> Any {
    withUnsafeTemporaryAllocation(of: Enum.self, capacity: 1) { buffer in
      let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
      if let payload { write(payload.value, as: payload.type, to: raw) }
      let witnesses = EnumPayload.Witnesses(Enum.self)
      witnesses.inject(raw, UInt32(tag), witnesses.type)
      return buffer.baseAddress!.move()
    }
  }
  return _openExistential(type, do: open)
}

/// A tuple of `type` from its elements, each already of its element type.
private func makeTuple(_ type: Any.Type, _ elements: [Any]) -> Any {
  func open<Tuple>(_: Tuple.Type) -> Any {
    withUnsafeTemporaryAllocation(of: Tuple.self, capacity: 1) { buffer in
      let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
      for (index, element) in elements.enumerated() {
        let (elementType, offset) = EnumPayload.tupleElement(type, index)
        write(element, as: elementType, to: raw + offset)
      }
      return buffer.baseAddress!.move()
    }
  }
  return _openExistential(type, do: open)
}

/// Initializes `raw` with `value`, which is a `type`.
private func write(_ value: Any, as type: Any.Type, to raw: UnsafeMutableRawPointer) {
  func open<T>(_: T.Type) { raw.initializeMemory(as: T.self, repeating: value as! T, count: 1) }
  _openExistential(type, do: open)
}

/// A type as written in its module, without module names: `Row.Action`,
/// `(id: Int, action: Row.Action)`, `Optional<Row>`.
func typeName(_ type: Any.Type) -> String {
  var name = "", run = ""
  func flush() {
    name += run.firstIndex(of: ".").map { run[run.index(after: $0)...] }.map(String.init) ?? run
    run = ""
  }
  for character in String(reflecting: type) {
    if character.isLetter || character.isNumber || character == "_" || character == "." {
      run.append(character)
    } else {
      flush()
      name.append(character)
    }
  }
  flush()
  return name
}

/// `value`, an integer, as the integer-literal type `T` would take it (`Double`, `UInt8`,
/// `StackElementID`): what the same literal written in the action would be.
func integerLiteral<T>(_ value: Any, as _: T.Type) -> T? {
  guard let integer = value as? any BinaryInteger, let literal = T.self as? any ExpressibleByIntegerLiteral.Type else {
    return nil
  }
  func make<L: ExpressibleByIntegerLiteral>(_: L.Type) -> Any? {
    guard let literalType = L.IntegerLiteralType.self as? any BinaryInteger.Type,
      let converted = literalType.init(exactly: integer) as? L.IntegerLiteralType
    else { return nil }
    return L(integerLiteral: converted)
  }
  return make(literal) as? T
}

/// The payload `nil` (`send(\.optionalCase, nil)`): the case's optional, empty.
@_spi(Testing) public struct _NilPayload: Sendable {
  public init() {}
}
