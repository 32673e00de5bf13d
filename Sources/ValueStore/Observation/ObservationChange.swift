/// What an observer is told when it fires: which of the fields it read changed.
///
/// Key paths into the observed struct's `Fields` (`\Counter.Fields.count`), or a collection's
/// special paths.
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
  // Disfavored: a key path on an observable state must reach the overload that understands it.
  @_disfavoredOverload
  public func contains(_ keyPath: AnyKeyPath) -> Bool { keyPaths.contains(keyPath) }

  /// Whether the field `keyPath` names, as you write it on the state, is among the changed fields.
  ///
  /// ```swift
  /// withTracking { _ = person.firstName } onChange: { change in
  ///   assert(change.contains(\Person.firstName))   // the same as \Person.Fields.firstName
  /// }
  /// ```
  public func contains<Root: ObservableState, Value>(_ keyPath: KeyPath<Root, Value>) -> Bool {
    keyPaths.contains { changed in
      changed == keyPath
        || (changed as? WritableKeyPath<Root.Fields, Value>).map { \Root.[dynamicMember: $0] == keyPath } == true
    }
  }

  /// The changed fields of `Root` as you write them on it (`\Person.firstName`), in the order
  /// they were first changed; fields of other types are left out.
  ///
  /// ```swift
  /// withTracking { _ = (person.firstName, person.age) } onChange: { change in
  ///   print(change.keyPaths(of: Person.self) == [\Person.age])   // after `age += 1`
  /// }
  /// ```
  public func keyPaths<Root: ObservableState>(of _: Root.Type) -> [PartialKeyPath<Root>] {
    keyPaths.compactMap { changed in
      func field<Value>(_: Value.Type) -> PartialKeyPath<Root>? {
        (changed as? WritableKeyPath<Root.Fields, Value>).map { \Root.[dynamicMember: $0] }
      }
      return _openExistential(type(of: changed).valueType, do: field)
    }
  }
}
