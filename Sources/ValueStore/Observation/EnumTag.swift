/// The case of an enum value as the Swift runtime numbers it (payload cases first, in declaration
/// order, then the others; stable within a process): read through the enum's `getEnumTag` value
/// witness, without reflection.
@usableFromInline
enum EnumTag {
  /// Metadata kinds of enums (`MetadataKind::Enum` and `MetadataKind::Optional`), and of structs.
  @usableFromInline static let enumKind = 0x201
  @usableFromInline static let optionalKind = 0x202
  static let structKind = 0x200

  /// Whether `T` is an enum (or an optional), whose values have a case.
  @inlinable
  static func isEnum<T>(_: T.Type) -> Bool {
    let kind = metadata(T.self).load(as: Int.self)
    return kind == enumKind || kind == optionalKind
  }

  /// The case of `value`, an enum. Precondition: `T` is an enum.
  @inlinable
  static func tag<T>(of value: T) -> UInt32 {
    let type = metadata(T.self)
    require(isEnum(T.self), "\(T.self) is not an enum: it has no cases")
    // The value witness table sits just before the metadata; an enum's has, after the eight
    // common witnesses and the size, stride, flags and extra-inhabitant count, `getEnumTag`.
    let witnesses = type.load(fromByteOffset: -MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
    let getEnumTag = witnesses.load(
      fromByteOffset: getEnumTagOffset, as: (@convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32).self)
    return withUnsafePointer(to: value) { getEnumTag(UnsafeRawPointer($0), type) }
  }

  /// Where `getEnumTag` is in a value witness table; the project and inject witnesses follow it.
  @usableFromInline
  static let getEnumTagOffset =
    8 * MemoryLayout<UnsafeRawPointer>.size + 2 * MemoryLayout<Int>.size + 2 * MemoryLayout<UInt32>.size

  @inlinable
  static func metadata<T>(_ type: T.Type) -> UnsafeRawPointer {
    unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
  }
}
