extension Reducer {
  /// Runs an element reducer on the element an ``IdentifiedAction`` names, before this reducer.
  ///
  /// ```swift
  /// Reduce<AppState, AppAction> { state, action in … }
  ///   .forEach(\.rows, action: CasePath(AppAction.rows)) { RowFeature() }
  /// ```
  ///
  /// An action for an id that is not in the array is ignored and reported as a ``RuntimeWarning``
  /// (it usually means an effect outlived its row).
  public func forEach<ID, ElementState, ElementAction>(
    _ elements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action: CasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> [Reduce<ElementState, ElementAction>]
  ) -> Reduce<State, Action> {
    let element = CombineReducers(reducers: element())
    return Reduce { state, parentAction in
      var effect = Effect<Action>.none
      if case let .element(id, elementAction)? = action.extract(from: parentAction) {
        if state[keyPath: elements].contains(id: id) {
          effect = element.reduce(into: &state[keyPath: elements][id: id]!, action: elementAction)
            .map { action.embed(.element(id: id, action: $0)) }
        } else {
          RuntimeWarning.report(
            "forEach received \(elementAction) for element \(id), which is not in the array; ignored.")
        }
      }
      return .merge(effect, self.reduce(into: &state, action: parentAction))
    }
  }

  /// Runs a child reducer on an optional child while it is non-nil, before this reducer.
  ///
  /// ```swift
  /// Reduce<AppState, AppAction> { state, action in … }
  ///   .ifLet(\.detail, action: CasePath(AppAction.detail)) { DetailFeature() }
  /// ```
  ///
  /// A child action received while the child is nil is ignored and reported as a
  /// ``RuntimeWarning``.
  public func ifLet<ChildState, ChildAction>(
    _ child: WritableKeyPath<State, ChildState?>,
    action: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then: () -> [Reduce<ChildState, ChildAction>]
  ) -> Reduce<State, Action> {
    let reducer = CombineReducers(reducers: then())
    return Reduce { state, parentAction in
      var effect = Effect<Action>.none
      if let childAction = action.extract(from: parentAction) {
        if state[keyPath: child] != nil {
          effect = reducer.reduce(into: &state[keyPath: child]!, action: childAction).map(action.embed)
        } else {
          RuntimeWarning.report("ifLet received \(childAction) while its state is nil; ignored.")
        }
      }
      return .merge(effect, self.reduce(into: &state, action: parentAction))
    }
  }
}
