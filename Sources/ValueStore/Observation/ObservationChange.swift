/// What an observer is told when it fires: which of the fields it read changed.
///
/// Fields are named by key paths into the observed struct's `Fields`
/// (`\Counter.Fields.count`), or `nil`-free special paths for a collection's structure.
// Key paths are immutable values; Swift 6.3 just does not mark AnyKeyPath Sendable.
public struct ObservationChange: @unchecked Sendable {
  /// The key paths of the tracked fields that changed, in the order they were first changed.
  public let keyPaths: [AnyKeyPath]

  @usableFromInline
  init(keyPaths: [AnyKeyPath]) { self.keyPaths = keyPaths }

  /// Whether `keyPath` (a path into some `Fields` type) is among the changed fields.
  ///
  /// ```swift
  /// withTracking { _ = counter.count } onChange: { change in
  ///   assert(change.contains(\Counter.Fields.count))
  /// }
  /// ```
  public func contains(_ keyPath: AnyKeyPath) -> Bool { keyPaths.contains(keyPath) }
}
