extension Reducer {
  /// This reducer, and the effects it returns, with the dependency at `keyPath` set to `value`;
  /// its siblings and parent keep theirs.
  ///
  /// ```swift
  /// Scope(state: \.timer, action: Action.timer) {
  ///   TimerFeature().dependency(\.continuousClock, ImmediateClock())
  /// }
  /// ```
  @inlinable
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable, _ value: Value
  ) -> _DependencyReducer<Self> where Value: Sendable {
    _DependencyReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// This reducer, and the effects it returns, with the dependencies `update` changes.
  @inlinable
  public func dependencies(
    _ update: @escaping @Sendable (inout DependencyValues) -> Void
  ) -> _DependencyReducer<Self> {
    _DependencyReducer(base: self, update: update)
  }
}

/// A reducer run with dependencies of its own (``Reducer/dependency(_:_:)``).
public struct _DependencyReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let update: @Sendable (inout DependencyValues) -> Void

  @inlinable
  init(base: Base, update: @escaping @Sendable (inout DependencyValues) -> Void) {
    self.base = base
    self.update = update
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var values = DependencyValues.current
    update(&values)
    let effect = DependencyValues.$current.withValue(values) { base.reduce(into: &state, action: action) }
    // The effect's tasks start later, from the store: they take the values with them.
    return effect.isNone ? effect : effect.transformed({ $0 }, dismiss: nil, ids: nil, dependencies: values)
  }
}
