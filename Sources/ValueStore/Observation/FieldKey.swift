/// Identifies what was read or written on an ``Extent``: a stored field of the observed struct
/// (its byte offset in `Fields`), or one of the special keys below.
///
/// Offsets are cheap to derive from a key path (`MemoryLayout.offset(of:)`) and compare as
/// integers, which avoids hashing key paths on the notification path (Apple's cost).
@usableFromInline
typealias FieldKey = Int

extension FieldKey {
  /// Matches every key: used for key paths that are not plain stored properties.
  @usableFromInline static let any = Int.min
  /// The identity of a value in its slot (an element of a collection being replaced or removed).
  @usableFromInline static let identity = -1
  /// The structure of a collection: its ids, their order and its count.
  @usableFromInline static let structure = -2

  @inlinable
  static func field<Fields>(_ keyPath: PartialKeyPath<Fields>) -> FieldKey {
    MemoryLayout<Fields>.offset(of: keyPath) ?? .any
  }

  @inlinable
  func matches(_ other: FieldKey) -> Bool {
    self == other || self == .any || other == .any
  }
}
