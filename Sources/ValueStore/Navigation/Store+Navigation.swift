extension Store {
  /// The store of a presented child, nil while it is not presented; it sends the child's actions
  /// as `.presented` actions.
  ///
  /// ```swift
  /// if let destination = store.scope(state: \.destination, action: Action.destination),
  ///   let edit = destination.scope(case: Destination.State.edit, action: Destination.Action.edit)
  /// {
  ///   EditView(store: edit)
  /// }
  /// store.send(.destination(.dismiss))   // what closing the sheet sends
  /// ```
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState?>,
    action: @escaping @Sendable (PresentationAction<ChildAction>) -> Action
  ) -> Store<ChildState, ChildAction>? {
    optionalChild(
      ScopeKey(state: state, action: PresentationAction<ChildAction>.self), { $0[keyPath: state] },
      embed: { action(.presented($0)) })
  }

  /// The store of one case of an enum state, nil while the state is in another case.
  ///
  /// ```swift
  /// destinationStore.scope(case: Destination.State.edit, action: Destination.Action.edit)
  /// ```
  public func scope<ChildState, ChildAction>(
    case toChildState: @escaping @Sendable (ChildState) -> State,
    action: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    let casePath = CasePath(toChildState)
    // Cached by the case (its tag, known from a state in it): several cases may carry one type.
    guard let tag = withState({ casePath.extract(from: $0) == nil ? nil : EnumTag.tag(of: $0) }) else {
      dropCaseStoresGone(ChildState.self, ChildAction.self)
      return nil
    }
    return optionalChild(
      ScopeKey(state: [AnyHashable(ObjectIdentifier(State.self)), AnyHashable(tag)], action: ChildAction.self),
      casePath.extract(from:), embed: action)
  }

  /// Forgets the cached stores of this child type whose state is gone — a case the state has
  /// left, whose cache key (its tag) is known only while the state is in it — as a dismissed
  /// child's store goes.
  private func dropCaseStoresGone<ChildState, ChildAction: Sendable>(_: ChildState.Type, _: ChildAction.Type) {
    for (key, child) in children {
      guard let store = child as? Store<ChildState, ChildAction>, !store.core.isPresent else { continue }
      children[key] = nil
    }
  }

  /// The stores of a navigation stack's elements, bottom first (what a `NavigationStack`
  /// iterates); each sends its element's actions as `.element(id:action:)`.
  ///
  /// ```swift
  /// for element in store.scope(state: \.path, action: Action.path) { … }
  /// store.scope(state: \.path, action: Action.path)[id: 0]?.send(.saveTapped)
  /// ```
  public func scope<ElementState, ElementAction>(
    state: KeyPath<State, StackState<ElementState>>,
    action: @escaping @Sendable (StackAction<ElementState, ElementAction>) -> Action
  ) -> StoreCollection<StackElementID, ElementState, ElementAction> {
    elementStores(
      key: ScopeKey(state: state, action: StackAction<ElementState, ElementAction>.self),
      ids: { $0[keyPath: state]._elements.ids },
      elements: { ChunkedArray($0[keyPath: state]._elements._elements.lazy.map(\.element)) },
      element: { $0[keyPath: state][id: $1] },
      embed: { action(.element(id: $0, action: $1)) })
  }
}
