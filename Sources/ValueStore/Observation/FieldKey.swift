/// What was read or written on an ``Extent``: a stored field (its byte offset in `Fields`: cheap to
/// derive, compared as an integer, no key path hashed on the notification path), or a special key.
/// A struct, so that special keys and `matches` stay off every `Int`.
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

  @inlinable
  var offset: Int? { rawValue >= 0 ? rawValue : nil }

  @inlinable
  func matches(_ other: FieldKey) -> Bool {
    self == other || (self == .any || other == .any) && self != .descendant && other != .descendant
  }
}
