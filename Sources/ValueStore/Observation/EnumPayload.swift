import Foundation

/// Reads enum payloads without reflection: the case from ``EnumTag``, each case's payload type (and
/// indirectness) from the field descriptor, once per type, and the payload through the value
/// witnesses that project it in place. Payload types are compared by *shape*, without tuple labels
/// (a case constructor's are unlabeled). What it cannot decide (an unreadable descriptor, a payload
/// stored unlike a generic `Value`) its user, ``CaseExtractor``, leaves to reflection.
@usableFromInline
enum EnumPayload {
  /// Which case of an enum carries a payload type.
  @usableFromInline
  enum Carrier: Sendable {
    case unique(tag: UInt32, isIndirect: Bool)
    /// Several cases (`.a(Int)`, `.b(Int)`): a value's case tells which.
    case shared
    case unknown
  }

  @usableFromInline
  static func carrier<Root, Value>(of _: Value.Type, in _: Root.Type) -> Carrier {
    guard EnumTag.isEnum(Root.self), let cases = cases(of: Root.self) else { return .unknown }
    // A case path made with each `body` asks on every action: a payload type that is not a tuple
    // is found by its metadata address, without hashing a `Shape`.
    if let found = cases.carrier(ofType: Value.self) { return found }
    return cases.carriers[Shape(Value.self)] ?? .unknown
  }

  /// A type without tuple labels: a one-element tuple is its element.
  enum Shape: Hashable {
    case type(ObjectIdentifier)
    case tuple([ObjectIdentifier])

    init(_ type: Any.Type) {
      let elements = EnumPayload.tupleElements(type)
      switch elements?.count {
      case nil: self = .type(ObjectIdentifier(type))
      case 1: self = .type(ObjectIdentifier(elements![0]))
      default: self = .tuple(elements!.map(ObjectIdentifier.init))
      }
    }
  }

  /// A tuple type's element types, from its metadata (kind, count, labels, (type, offset) pairs).
  static func tupleElements(_ type: Any.Type) -> [Any.Type]? {
    let metadata = EnumTag.metadata(type)
    guard metadata.load(as: Int.self) == 0x301 else { return nil }
    let count = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: Int.self)
    return (0..<count).map { tupleElement(type, $0).type }
  }

  /// A tuple type's labels, one per element (`""` for an unlabeled one).
  static func tupleLabels(_ type: Any.Type) -> [String] {
    let metadata = EnumTag.metadata(type)
    let count = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: Int.self)
    guard let labels = metadata.load(fromByteOffset: 2 * MemoryLayout<Int>.size, as: UnsafePointer<CChar>?.self) else {
      return Array(repeating: "", count: count)
    }
    // Each label is followed by a space: "id value ".
    return String(cString: labels).split(separator: " ", omittingEmptySubsequences: false).prefix(count).map(String.init)
  }

  /// A tuple type's element `index`: its type and its offset in the tuple.
  static func tupleElement(_ type: Any.Type, _ index: Int) -> (type: Any.Type, offset: Int) {
    let element = EnumTag.metadata(type) + 3 * MemoryLayout<Int>.size + index * 2 * MemoryLayout<Int>.size
    return (unsafeBitCast(element.load(as: UnsafeRawPointer.self), to: Any.Type.self),
      Int(element.load(fromByteOffset: MemoryLayout<Int>.size, as: UInt32.self)))  // a 32-bit offset off Apple platforms
  }

  /// Whether a `type` value stored in a non-generic enum has a generic `Value`'s layout. Functions
  /// and metatypes do not (stored thin, without reabstraction), also inside tuples and optionals.
  static func isStoredAsGeneric(_ type: Any.Type) -> Bool {
    let metadata = EnumTag.metadata(type)
    switch metadata.load(as: Int.self) {
    case 0x302:  // function: only `() -> ()` is the same in every representation
      let parameterCount = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UInt32.self) & 0xFFFF
      let result = unsafeBitCast(
        metadata.load(fromByteOffset: 2 * MemoryLayout<Int>.size, as: UnsafeRawPointer.self), to: Any.Type.self)
      return parameterCount == 0 && result == Void.self
    case 0x304: return false  // metatype
    case 0x301: return tupleElements(type)!.allSatisfy(isStoredAsGeneric)
    case EnumTag.optionalKind:
      let wrapped = metadata.load(fromByteOffset: 2 * MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
      return isStoredAsGeneric(unsafeBitCast(wrapped, to: Any.Type.self))
    default: return true
    }
  }

  /// The value witnesses that take an enum value apart in place: `project` leaves the case's payload
  /// at its start (clearing tag bits stored in its spare bits); `inject` sets the tag again.
  @usableFromInline
  struct Witnesses {
    @usableFromInline typealias Project = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    @usableFromInline typealias Inject = @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void
    @usableFromInline let type: UnsafeRawPointer
    @usableFromInline let project: Project
    @usableFromInline let inject: Inject

    @inlinable
    init<Root>(_: Root.Type) {
      let metadata = EnumTag.metadata(Root.self)
      let table = metadata.load(fromByteOffset: -MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
      let word = MemoryLayout<UnsafeRawPointer>.size
      type = metadata
      project = table.load(fromByteOffset: EnumTag.getEnumTagOffset + word, as: Project.self)
      inject = table.load(fromByteOffset: EnumTag.getEnumTagOffset + 2 * word, as: Inject.self)
    }
  }

  /// A copy of `root`'s payload (case `tag`).
  @inlinable
  static func project<Root, Value>(_ root: Root, indirect: Bool, as _: Value.Type) -> Value {
    withPayload(of: root, indirect: indirect, as: Value.self) { $0.pointee }
  }

  /// Runs `body` on `root`'s payload (case `tag`), projected in a bitwise copy of `root`: projecting
  /// only clears tag bits, so the copy owns nothing and is never destroyed. A small enum is copied
  /// to the stack (no generic helper: unspecialized, one costs a metadata lookup per call).
  @inlinable
  static func withPayload<Root, Value, Result>(
    of root: Root, indirect: Bool, as _: Value.Type, _ body: (UnsafePointer<Value>) -> Result
  ) -> Result {
    withUnsafeBytes(of: root) { bytes in
      let size = MemoryLayout<Root>.size
      func read(_ raw: UnsafeMutableRawPointer) -> Result {
        raw.copyMemory(from: bytes.baseAddress!, byteCount: size)
        let witnesses = Witnesses(Root.self)
        witnesses.project(raw, witnesses.type)
        guard indirect else { return body(UnsafePointer(raw.assumingMemoryBound(to: Value.self))) }
        // An indirect payload lives in a heap box: after the object header, aligned for `Value`.
        let box = raw.load(as: UnsafeRawPointer.self)
        let alignment = MemoryLayout<Value>.alignment
        return body(box.advanced(by: (2 * MemoryLayout<Int>.size + alignment - 1) & ~(alignment - 1)).assumingMemoryBound(to: Value.self))
      }
      if size <= MemoryLayout<StackBuffer>.size, MemoryLayout<Root>.alignment <= MemoryLayout<StackBuffer>.alignment {
        var buffer = StackBuffer()
        return withUnsafeMutableBytes(of: &buffer) { read($0.baseAddress!) }
      }
      let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<Root>.alignment)
      defer { raw.deallocate() }
      return read(raw)
    }
  }

  /// Room for an enum of up to eight words.
  @usableFromInline
  struct StackBuffer {
    @usableFromInline var words: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    @inlinable init() {}
  }

  /// Runs `body` on `root`'s (non-indirect) payload in place: no copy, so its storage stays unique.
  static func modify<Root, Value, Result>(
    _ root: inout Root, tag: UInt32, as _: Value.Type, _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    try withUnsafeMutablePointer(to: &root) { pointer in
      let raw = UnsafeMutableRawPointer(pointer)
      let witnesses = Witnesses(Root.self)
      witnesses.project(raw, witnesses.type)
      defer { witnesses.inject(raw, tag, witnesses.type) }
      return try body(&raw.assumingMemoryBound(to: Value.self).pointee)
    }
  }

  struct CaseInfo: @unchecked Sendable {  // an immutable metatype
    let name: String
    /// The payload's type; a one-element tuple's element (`case a(x: Int)`: `Int`).
    let payloadType: Any.Type?
    let isIndirect: Bool
    /// Whether values of this case hold a payload (not a payload-less case, not an empty one).
    var isPayloadCase = false

    /// Whether the payload can be read as a generic value of its type.
    let isReadable: Bool
    /// Whether the payload is declared as a bare generic parameter (`case loaded(T)`).
    let isDeclaredGeneric: Bool

    init(name: String, payloadType: Any.Type?, isIndirect: Bool, isDeclaredGeneric: Bool = false) {
      self.name = name
      self.payloadType = payloadType.map { type in tupleElements(type).flatMap { $0.count == 1 ? $0[0] : nil } ?? type }
      self.isIndirect = isIndirect
      self.isDeclaredGeneric = isDeclaredGeneric
      isReadable = isDeclaredGeneric || (payloadType.map(isStoredAsGeneric) ?? true)
    }

    var shape: Shape? { payloadType.map(Shape.init) }
  }

  final class EnumCases: @unchecked Sendable {  // immutable
    let cases: [CaseInfo]
    let carriers: [Shape: Carrier]
    /// The carriers of payload types that are not tuples, by metadata address.
    private let typeCarriers: [(type: UInt, carrier: Carrier)]

    init(_ cases: [CaseInfo]) {
      self.cases = cases
      var carriers: [Shape: Carrier] = [:]
      for (tag, info) in cases.enumerated() {
        guard let shape = info.shape else { continue }
        switch carriers[shape] {
        case nil:
          carriers[shape] = info.isReadable ? .unique(tag: UInt32(tag), isIndirect: info.isIndirect) : .unknown
        case .unique?: carriers[shape] = .shared
        case .shared?, .unknown?: break
        }
      }
      self.carriers = carriers
      typeCarriers = carriers.compactMap { shape, carrier in
        guard case let .type(type) = shape else { return nil }
        return (UInt(bitPattern: Int(bitPattern: type)), carrier)
      }
    }

    /// The carrier of `Value` if it is a payload type that is not a tuple; nil: ask `carriers`.
    func carrier<Value>(ofType _: Value.Type) -> Carrier? {
      let type = UInt(bitPattern: unsafeBitCast(Value.self as Any.Type, to: Int.self))
      return typeCarriers.first { $0.type == type }?.carrier
    }
  }
  static func caseInfo(_ type: Any.Type, tag: UInt32) -> CaseInfo? {
    guard let cases = cases(of: type)?.cases, Int(tag) < cases.count else { return nil }
    return cases[Int(tag)]
  }

  /// Each case of `type` by tag, read once; nil if this cannot reproduce its layout. Precondition: an enum.
  static func cases(of type: Any.Type) -> EnumCases? {
    casesByType.value(for: type) { readCases($0).map(EnumCases.init) }
  }

  private static let casesByType = TypeCache<EnumCases?>()

  /// The name of `value`'s case (`.login`), for messages; nil when `T` is not an enum.
  @usableFromInline static func caseName<T>(of value: T) -> String? {
    guard EnumTag.isEnum(T.self), let info = caseInfo(T.self, tag: EnumTag.tag(of: value)) else { return nil }
    return ".\(info.name)"
  }

  /// `Root`'s case `tag`, or the cases carrying a `Value`, for messages (`AppAction.a or .b`).
  static func describe<Root, Value>(_: Root.Type, _: Value.Type, tag: UInt32?) -> String {
    let type = String(reflecting: Root.self).split(separator: ".", maxSplits: 1).last.map(String.init) ?? "\(Root.self)"
    let cases = EnumTag.isEnum(Root.self) ? cases(of: Root.self)?.cases ?? [] : []
    let shape = Shape(Value.self)
    let named = tag.map { tag in cases.indices.contains(Int(tag)) ? [cases[Int(tag)]] : [] }
      ?? cases.filter { $0.shape == shape }
    guard !named.isEmpty else { return "a case of \(type) with a \(Value.self)" }
    return "\(type)." + named.map(\.name).joined(separator: " or .")
  }

  /// The enum's cases in the runtime's numbering (payload cases first; a payload known to be empty
  /// makes none, except in a generic enum), from its descriptor's field records; nil where neither
  /// reading matches the descriptor's payload-case count.
  static func readCases(_ type: Any.Type) -> [CaseInfo]? {
    let metadata = EnumTag.metadata(type)
    let descriptor = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
    let payloadCaseCount = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF)
    guard let fields = relative(descriptor, 16) else { return nil }
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    let arguments = metadata + 2 * MemoryLayout<Int>.size  // a value type's generic arguments
    var cases: [(info: CaseInfo, isSized: Bool)] = []
    for index in 0..<count {
      let record = fields + 16 + index * recordSize
      let caseName = relative(record, 8).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "?"
      guard let name = relative(record, 4) else {
        cases.append((CaseInfo(name: caseName, payloadType: nil, isIndirect: false), false))
        continue
      }
      guard
        let payloadType = _getTypeByMangledNameInContext(
          name.assumingMemoryBound(to: UInt8.self), UInt(mangledNameLength(name)),
          genericContext: descriptor, genericArguments: arguments)
      else { return nil }
      let isIndirect = record.load(as: UInt32.self) & 0x1 != 0
      let info = CaseInfo(
        name: caseName, payloadType: payloadType, isIndirect: isIndirect,
        isDeclaredGeneric: isGenericParameter(name))
      cases.append((info, isIndirect || storedSize(of: payloadType) > 0))
    }
    // The compiler makes a case whose payload type is known to be empty a payload-less one; a
    // payload of a generic parameter counts whatever it is instantiated with. Where that reading
    // disagrees with the descriptor's count (a payload generic in a nested way), every declared
    // payload counts if that agrees.
    let counted = cases.map { $0.isSized || $0.info.isDeclaredGeneric }
    let declared = cases.map { $0.info.payloadType != nil }
    let isPayload = counted.count(where: { $0 }) == payloadCaseCount ? counted : declared
    for index in cases.indices { cases[index].info.isPayloadCase = isPayload[index] }
    let withPayload = cases.map(\.info).filter(\.isPayloadCase)
    guard withPayload.count == payloadCaseCount else { return nil }
    return withPayload + cases.map(\.info).filter { !$0.isPayloadCase }
  }

  /// Whether a mangled type name is a bare generic parameter (`x`, `q_`, `qd__`…): a payload
  /// declared so is stored as any generic value is, whatever it is instantiated with.
  static func isGenericParameter(_ name: UnsafeRawPointer) -> Bool {
    let length = mangledNameLength(name)
    let bytes = UnsafeRawBufferPointer(start: name, count: length)
    guard let first = bytes.first, first == UInt8(ascii: "x") || first == UInt8(ascii: "q") else { return false }
    return length <= 6 && bytes.allSatisfy { $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
  }

  /// `root`'s case if it carries a payload of `Value`'s shape that cannot be read as a `Value`
  /// (a function in a non-generic enum): for a clear error instead of a misread value.
  static func unreadableCase<Root, Value>(of root: Root, as _: Value.Type) -> CaseInfo? {
    guard EnumTag.isEnum(Root.self), let info = caseInfo(Root.self, tag: EnumTag.tag(of: root)),
      !info.isReadable, info.shape == Shape(Value.self)
    else { return nil }
    return info
  }

  /// The size of a `type` value stored as itself: a value type's metatype (`Int.Type`) is stored
  /// thin, in no bytes (generically it is a pointer).
  static func storedSize(of type: Any.Type) -> Int {
    let metadata = EnumTag.metadata(type)
    if metadata.load(as: Int.self) == 0x304 {
      let instance = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
      if [0x200, 0x201, 0x202, 0x301].contains(instance.load(as: Int.self)) { return 0 }
    }
    return size(of: type)
  }

  static func size(of type: Any.Type) -> Int {
    func measure<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    return _openExistential(type, do: measure)
  }

  /// The target of the 32-bit relative pointer at `offset` from `base`, nil when it is null.
  static func relative(_ base: UnsafeRawPointer, _ offset: Int) -> UnsafeRawPointer? {
    let field = base + offset
    let distance = field.load(as: Int32.self)
    return distance == 0 ? nil : field + Int(distance)
  }

  /// A mangled name's length: up to its terminating zero, skipping the symbolic references
  /// embedded in it (a marker byte, then a 4-byte relative or pointer-sized absolute reference).
  static func mangledNameLength(_ name: UnsafeRawPointer) -> Int {
    var length = 0
    while true {
      let byte = name.load(fromByteOffset: length, as: UInt8.self)
      switch byte {
      case 0: return length
      case 0x01...0x17: length += 1 + 4
      case 0x18...0x1F: length += 1 + MemoryLayout<Int>.size
      default: length += 1
      }
    }
  }
}

/// The runtime's resolver of a mangled type name in a generic context (what `Mirror` uses), looked
/// up by name: its symbol is reserved, so it cannot be declared. Called as a C function.
private let getTypeByMangledNameInContext:
  (@convention(c) (UnsafePointer<UInt8>, UInt, UnsafeRawPointer?, UnsafeRawPointer?) -> UnsafeRawPointer?)? = {
    #if canImport(Darwin)
      let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
      let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    guard let symbol = dlsym(everywhere, "swift_getTypeByMangledNameInContext") else {
      return nil
    }
    return unsafeBitCast(
      symbol,
      to: (@convention(c) (UnsafePointer<UInt8>, UInt, UnsafeRawPointer?, UnsafeRawPointer?) -> UnsafeRawPointer?).self)
  }()

private func _getTypeByMangledNameInContext(
  _ name: UnsafePointer<UInt8>, _ nameLength: UInt,
  genericContext: UnsafeRawPointer?, genericArguments: UnsafeRawPointer?
) -> Any.Type? {
  guard let resolve = getTypeByMangledNameInContext,
    let metadata = resolve(name, nameLength, genericContext, genericArguments)
  else { return nil }
  return unsafeBitCast(metadata, to: Any.Type.self)
}
