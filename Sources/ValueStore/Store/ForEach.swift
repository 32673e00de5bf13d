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
    forEach(action: action, element: element()) { state, body in body(&state[keyPath: elements]) }
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
    ifLet(action: action, then: then()) { state, body in body(&state[keyPath: child]) }
  }
}

// Observable state: the same operators on key paths into `Fields`. A key path into the state
// itself goes through its dynamic members, which key paths apply with get and set — a copy of the
// child (of the whole collection, for `forEach`) on every action. A stored-property path into
// `Fields` is projected in place.
extension Reducer where State: ObservableState {
  /// ``forEach(_:action:element:)`` on an observable state's field, mutated in place.
  public func forEach<ID, ElementState, ElementAction>(
    _ elements: WritableKeyPath<State.Fields, IdentifiedArray<ID, ElementState>>,
    action: CasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> [Reduce<ElementState, ElementAction>]
  ) -> Reduce<State, Action> {
    forEach(action: action, element: element()) { state, body in body(&state._$fields[slot: elements]) }
  }

  /// ``ifLet(_:action:then:)`` on an observable state's field, mutated in place.
  public func ifLet<ChildState: ObservationIdentifiable, ChildAction>(
    _ child: WritableKeyPath<State.Fields, ChildState?>,
    action: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then: () -> [Reduce<ChildState, ChildAction>]
  ) -> Reduce<State, Action> {
    ifLet(action: action, then: then()) { state, body in body(&state._$fields[slot: child]) }
  }
}

extension Reducer {
  /// `forEach`, given how to reach the array in place.
  func forEach<ID, ElementState, ElementAction>(
    action: CasePath<Action, IdentifiedAction<ID, ElementAction>>,
    element: [Reduce<ElementState, ElementAction>],
    elements: @escaping (inout State, (inout IdentifiedArray<ID, ElementState>) -> Effect<Action>) -> Effect<Action>
  ) -> Reduce<State, Action> {
    let element = CombineReducers(reducers: element)
    return Reduce { state, parentAction in
      var effect = Effect<Action>.none
      if case let .element(id, elementAction)? = action.extract(from: parentAction) {
        effect = elements(&state) { array in
          guard array.contains(id: id) else {
            RuntimeWarning.report(
              "forEach received \(elementAction) for element \(id), which is not in the array; ignored.")
            return .none
          }
          return element.reduce(into: &array[id: id]!, action: elementAction)
            .map { action.embed(.element(id: id, action: $0)) }
        }
      }
      return .merge(effect, self.reduce(into: &state, action: parentAction))
    }
  }

  /// `ifLet`, given how to reach the optional child in place.
  func ifLet<ChildState, ChildAction>(
    action: CasePath<Action, ChildAction>,
    then: [Reduce<ChildState, ChildAction>],
    child: @escaping (inout State, (inout ChildState?) -> Effect<Action>) -> Effect<Action>
  ) -> Reduce<State, Action> {
    let reducer = CombineReducers(reducers: then)
    return Reduce { state, parentAction in
      var effect = Effect<Action>.none
      if let childAction = action.extract(from: parentAction) {
        effect = child(&state) { optional in
          guard optional != nil else {
            RuntimeWarning.report("ifLet received \(childAction) while its state is nil; ignored.")
            return .none
          }
          return reducer.reduce(into: &optional!, action: childAction).map(action.embed)
        }
      }
      return .merge(effect, self.reduce(into: &state, action: parentAction))
    }
  }
}
