/// Runs a child reducer on a child field of the state, for the parent actions that carry a child
/// action.
///
/// ```swift
/// Scope(state: \AppState.counter, action: CasePath(AppAction.counter)) {
///   CounterFeature()
/// }
/// ```
public struct Scope<State, Action, ChildState, ChildAction>: Reducer {
  /// Runs a body on the child field in place.
  let state: (inout State, (inout ChildState) -> Effect<ChildAction>) -> Effect<ChildAction>
  let action: CasePath<Action, ChildAction>
  let child: CombineReducers<ChildState, ChildAction>

  /// Scopes the reducers listed in `child` to the field at `state` and the actions `action` embeds.
  public init(
    state: WritableKeyPath<State, ChildState>,
    action: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> [Reduce<ChildState, ChildAction>]
  ) {
    self.state = { parent, body in body(&parent[keyPath: state]) }
    self.action = action
    self.child = CombineReducers(reducers: child())
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let childAction = self.action.extract(from: action) else { return .none }
    let child = self.child
    return self.state(&state) { child.reduce(into: &$0, action: childAction) }.map(self.action.embed)
  }
}

extension Scope where State: ObservableState, ChildState: ObservationIdentifiable {
  /// Scopes to an observable state's child field, mutated in place (a key path into `State`
  /// would go through its dynamic members and copy the child on every action).
  public init(
    state: WritableKeyPath<State.Fields, ChildState>,
    action: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> [Reduce<ChildState, ChildAction>]
  ) {
    self.state = { parent, body in body(&parent._$fields[slot: state]) }
    self.action = action
    self.child = CombineReducers(reducers: child())
  }
}
