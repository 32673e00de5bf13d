extension Store {
  /// A child store for a child field and the actions that carry the child's actions.
  ///
  /// ```swift
  /// let counterStore = appStore.scope(state: \.counter, action: AppAction.counter)
  /// counterStore.send(.increment)   // sends AppAction.counter(.increment) to the app store
  /// ```
  ///
  /// Child stores are cached: scoping twice with the same key path returns the same store.
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>,
    action: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    cachedChild(ScopeKey(state: state, action: ChildAction.self)) {
      Store<ChildState, ChildAction>(
        core: ScopedCore(
          base: core, path: "\(core.path) → \(ChildState.self)",
          initial: withState { $0[keyPath: state] }, canDisappear: false,
          withChild: { $1($0[keyPath: state]) }, fromAction: action.embed))
    }
  }

  /// A child store for an optional child field, or nil while the field is nil.
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState?>,
    action: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    optionalChild(ScopeKey(state: state, action: ChildAction.self), { $0[keyPath: state] }, embed: action.embed)
  }

  /// The child store of a child that can be absent (cached under `key`), nil while it is.
  func optionalChild<ChildState, ChildAction>(
    _ key: ScopeKey, _ toState: @escaping (State) -> ChildState?,
    embed: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    // A store whose own value is gone presents nothing.
    guard core.isPresent, let initial = withState(toState) else {
      children[key] = nil
      return nil
    }
    // A child store stands for the child it was made for: another one presented since gets its own.
    if let cached = children[key], !unsafeDowncast(cached, to: Store<ChildState, ChildAction>.self).core.isPresent {
      children[key] = nil
    }
    return cachedChild(key) {
      Store<ChildState, ChildAction>(
        core: ScopedCore(
          base: core, path: "\(core.path) → \(ChildState.self)",
          initial: initial, standsForItsValue: true, toState: toState, fromAction: embed))
    }
  }

  /// A child store for a child field and the actions of the case `action` constructs.
  ///
  /// ```swift
  /// let counterStore = appStore.scope(state: \.counter, action: AppAction.counter)
  /// ```
  // Disfavored: a collection, stack or presentation field matches it too (its child being the
  // whole collection), and their own overloads must win.
  @_disfavoredOverload
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>,
    action: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    scope(state: state, action: CasePath(action))
  }

  /// A child store for an optional child field, or nil while the field is nil; for the actions of
  /// the case `action` constructs.
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState?>,
    action: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    scope(state: state, action: CasePath(action))
  }

  func cachedChild<Child: AnyObject>(_ key: ScopeKey, make: () -> Child) -> Child {
    if let cached = children[key] { return unsafeDowncast(cached, to: Child.self) }
    let child = make()
    children[key] = child
    return child
  }
}

/// Identifies a cached child store.
struct ScopeKey: Hashable {
  /// The key path to the child, or another description of where it is (a case).
  let state: AnyHashable
  let action: ObjectIdentifier

  init<Action>(state: AnyHashable, action: Action.Type) {
    self.state = state
    self.action = ObjectIdentifier(action)
  }
}
