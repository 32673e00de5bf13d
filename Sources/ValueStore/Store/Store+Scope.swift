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
          toState: { $0[keyPath: state] }, fromAction: action.embed))
    }
  }

  /// A child store for an optional child field, or nil while the field is nil.
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState?>,
    action: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    guard let initial = withState({ $0[keyPath: state] }) else {
      children[ScopeKey(state: state, action: ChildAction.self)] = nil
      return nil
    }
    return cachedChild(ScopeKey(state: state, action: ChildAction.self)) {
      Store<ChildState, ChildAction>(
        core: ScopedCore(
          base: core, path: "\(core.path) → \(ChildState.self)",
          initial: initial, canDisappear: true,
          toState: { $0[keyPath: state] }, fromAction: action.embed))
    }
  }

  /// A child store for a child field and the actions of the case `action` constructs.
  ///
  /// ```swift
  /// let counterStore = appStore.scope(state: \.counter, action: AppAction.counter)
  /// ```
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
  let state: AnyKeyPath
  let action: ObjectIdentifier

  init<Action>(state: AnyKeyPath, action: Action.Type) {
    self.state = state
    self.action = ObjectIdentifier(action)
  }
}
