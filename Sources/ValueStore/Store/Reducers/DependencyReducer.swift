extension Reducer {
  /// This reducer, and the effects it returns, with the dependency at `keyPath` set to `value`;
  /// its siblings and parent keep theirs.
  ///
  /// ```swift
  /// Scope(state: \.timer, action: Action.timer) {
  ///   TimerFeature().dependency(\.continuousClock, ImmediateClock())
  /// }
  /// ```
  ///
  /// Chained calls make one reducer, not one per call; the innermost call wins
  /// (`Feature().dependency(\.x, 1).dependency(\.x, 2)` runs with 1).
  @inlinable
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable, _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> where Value: Sendable {
    _DependencyKeyWritingReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// This reducer with `value` as the dependency whose key is its own type
  /// (`@Dependency(Client.self)`).
  @inlinable
  public func dependency<Value: TestDependencyKey>(_ value: Value) -> _DependencyKeyWritingReducer<Self>
  where Value.Value == Value {
    _DependencyKeyWritingReducer(base: self) { $0[Value.self] = value }
  }

  /// This reducer, and the effects it returns, with the dependency at `keyPath` changed by
  /// `transform`.
  ///
  /// ```swift
  /// Child().transformDependency(\.apiClient) { $0.fetch = { _ in "cached" } }
  /// ```
  @inlinable
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    transform: @escaping @Sendable (_ dependency: inout Value) -> Void
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { transform(&$0[keyPath: keyPath]) }
  }

  /// This reducer, and the effects it returns, with the dependencies `update` changes.
  @inlinable
  public func dependencies(
    _ update: @escaping @Sendable (inout DependencyValues) -> Void
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self, update: update)
  }
}

/// A reducer run with dependencies of its own (``Reducer/dependency(_:_:)``). Its effects keep
/// them: an effect keeps the values in force where it is made.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let update: @Sendable (inout DependencyValues) -> Void

  @inlinable
  init(base: Base, update: @escaping @Sendable (inout DependencyValues) -> Void) {
    self.base = base
    self.update = update
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var values = DependencyValues.current
    values.override(update)
    return DependencyValues.withCurrent(values) { base.reduce(into: &state, action: action) }
  }

  /// Fused with this one's: the values this sets, then those it already set (which win).
  @inlinable
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable, _ value: Value
  ) -> Self where Value: Sendable {
    Self(base: base) { [update] values in
      values[keyPath: keyPath] = value
      update(&values)
    }
  }

  /// Fused with this one's: `transform` runs first, then what it already changed.
  @inlinable
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    transform: @escaping @Sendable (_ dependency: inout Value) -> Void
  ) -> Self {
    Self(base: base) { [update] values in
      transform(&values[keyPath: keyPath])
      update(&values)
    }
  }
}
