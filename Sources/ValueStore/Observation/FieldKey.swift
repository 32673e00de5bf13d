/// Identifies what was read or written on an ``Extent``: a stored field of the observed struct
/// (its byte offset in `Fields`), or one of the special keys below.
///
/// Offsets are cheap to derive from a key path (`MemoryLayout.offset(of:)`) and compare as
/// integers, which avoids hashing key paths on the notification path (Apple's cost). A struct,
/// not an `Int`, so that its special keys and `matches` stay off every integer.
@usableFromInline @frozen
struct FieldKey: Hashable, Sendable {
  /// A field's byte offset (≥ 0), or a negative special key.
  @usableFromInline let rawValue: Int

  @inlinable
  init(rawValue: Int) { self.rawValue = rawValue }

  /// Matches every key: used for key paths that are not plain stored properties.
  @usableFromInline static let any = FieldKey(rawValue: .min)
  /// The identity of a value in its slot (an element of a collection being replaced or removed).
  @usableFromInline static let identity = FieldKey(rawValue: -1)
  /// The structure of a collection: its ids, their order and its count.
  @usableFromInline static let structure = FieldKey(rawValue: -2)
  /// Names no field and matches no key (not even `any`): a change below a field (`Change.below`).
  @usableFromInline static let descendant = FieldKey(rawValue: .min + 1)

  /// The key of the stored field at `keyPath`, or `any` for a key path that is not one.
  @inlinable
  static func field<Fields>(_ keyPath: PartialKeyPath<Fields>) -> FieldKey {
    MemoryLayout<Fields>.offset(of: keyPath).map(FieldKey.init(rawValue:)) ?? .any
  }

  /// The field's byte offset, if this key names a stored field.
  @inlinable
  var offset: Int? { rawValue >= 0 ? rawValue : nil }

  @inlinable
  func matches(_ other: FieldKey) -> Bool {
    self == other || (self == .any || other == .any) && self != .descendant && other != .descendant
  }
}
