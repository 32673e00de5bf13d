/// Runs a child reducer on a child field of the state, or on a case of an enum state, for the
/// parent actions that carry a child action.
///
/// ```swift
/// var body: some Reducer<AppState, AppAction> {
///   Scope(state: \.counter, action: AppAction.counter) {
///     CounterFeature()
///   }
/// }
/// ```
///
/// On an observable state, `state:` is a key path into its `Fields` (the same spelling, `\.counter`):
/// the child is then mutated in place rather than copied out and written back. `action:` is the
/// parent action's case (or any ``CasePath``).
///
/// On an enum state, `state:` is a case of it; the child runs while the state is in that case:
///
/// ```swift
/// enum Destination { case edit(EditForm.State), alert(AlertState) }
/// Scope(state: Destination.edit, action: DestinationAction.edit) { EditForm() }
/// ```
///
/// A child action that arrives while the state is in another case is ignored and reported as a
/// ``RuntimeWarning``.
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

  /// Scopes to the field at `state`, for the actions of the case `action` constructs.
  @inlinable
  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState, ChildState>,
    action: @escaping @Sendable (ChildAction) -> ParentAction,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: state, action: CasePath(action), child: child)
  }

  /// Scopes to the case `state` of an enum state, for the actions `action` embeds.
  @inlinable
  public init<ChildState, ChildAction>(
    state: CasePath<ParentState, ChildState>,
    action: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    toChildState = .case(state)
    toChildAction = action
    self.child = child()
  }

  /// Scopes to the case of an enum state that `state` constructs, for the actions of the case
  /// `action` constructs.
  @inlinable
  public init<ChildState, ChildAction>(
    state: @escaping @Sendable (ChildState) -> ParentState,
    action: @escaping @Sendable (ChildAction) -> ParentAction,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: CasePath(state), action: CasePath(action), child: child)
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard let effect = toChildState.modify(&state, { child.reduce(into: &$0, action: childAction) }) else {
      RuntimeWarning.report(
        "Scope received \(childAction) while its state is in \(EnumPayload.caseName(of: state) ?? "another case"), "
          + "not in the case of its \(Child.State.self); ignored.")
      return .none
    }
    return effect.map(toChildAction.embed)
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

  /// Scopes to an observable state's child field, for the actions of the case `action` constructs.
  @inlinable
  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState.Fields, ChildState>,
    action: @escaping @Sendable (ChildAction) -> ParentAction,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: state, action: CasePath(action), child: child)
  }
}
