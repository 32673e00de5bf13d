/// Runs a child reducer on a child field of the state, for the parent actions that carry a child
/// action.
///
/// ```swift
/// Scope(state: \AppState.counter, action: CasePath(AppAction.counter)) {
///   CounterFeature()
/// }
/// ```
public struct Scope<State, Action, ChildState, ChildAction>: Reducer {
  let state: WritableKeyPath<State, ChildState>
  let action: CasePath<Action, ChildAction>
  let child: CombineReducers<ChildState, ChildAction>

  /// Scopes the reducers listed in `child` to the field at `state` and the actions `action` embeds.
  public init(
    state: WritableKeyPath<State, ChildState>,
    action: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> [Reduce<ChildState, ChildAction>]
  ) {
    self.state = state
    self.action = action
    self.child = CombineReducers(reducers: child())
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let childAction = self.action.extract(from: action) else { return .none }
    return child.reduce(into: &state[keyPath: self.state], action: childAction).map(self.action.embed)
  }
}
