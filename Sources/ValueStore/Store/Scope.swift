/// Runs a child reducer on a child field of the state, for the parent actions that carry a child
/// action.
///
/// ```swift
/// var body: some Reducer<AppState, AppAction> {
///   Scope(state: \.counter, action: CasePath(AppAction.counter)) {
///     CounterFeature()
///   }
/// }
/// ```
///
/// On an observable state, `state:` is a key path into its `Fields` (the same spelling, `\.counter`):
/// the child is then mutated in place rather than copied out and written back.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: StatePath<ParentState, Child.State>
  @usableFromInline let toChildAction: CasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Scopes the reducers listed in `child` to the field at `state` and the actions `action` embeds.
  @inlinable
  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState, ChildState>,
    action: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    toChildState = .keyPath(state)
    toChildAction = action
    self.child = child()
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    return toChildState.modify(&state) { child.reduce(into: &$0, action: childAction) }.map(toChildAction.embed)
  }
}

extension Scope where ParentState: ObservableState {
  /// Scopes to an observable state's child field, mutated in place.
  @inlinable
  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState.Fields, ChildState>,
    action: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    toChildState = .field(state)
    toChildAction = action
    self.child = child()
  }
}
