extension Reducer {
  /// Runs a child reducer on an optional child while it is non-nil, before this reducer.
  ///
  /// ```swift
  /// var body: some Reducer<AppState, AppAction> {
  ///   Reduce { state, action in … }
  ///     .ifLet(\.detail, action: AppAction.detail) { DetailFeature() }
  /// }
  /// ```
  ///
  /// A child action received while the child is nil is ignored and reported as a
  /// ``RuntimeWarning``.
  ///
  /// The child's effects are its own, as in TCA: its cancellation ids do not reach this reducer's
  /// (the same id here reaches the child's), and they are cancelled when the child goes away — set
  /// to nil by its own action or by this reducer, or replaced by a child with another id.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _IfLetReducer<Self, Child> where Child.State == ChildState, Child.Action == ChildAction {
    _IfLetReducer(parent: self, child: child(), toChildState: .keyPath(toChildState), toChildAction: toChildAction)
  }

  /// ``ifLet(_:action:then:)`` for the actions of the case `toChildAction` constructs.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: @escaping @Sendable (ChildAction) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _IfLetReducer<Self, Child> where Child.State == ChildState, Child.Action == ChildAction {
    ifLet(toChildState, action: CasePath(toChildAction), then: child)
  }
}

extension Reducer where State: ObservableState {
  /// ``ifLet(_:action:then:)`` on an observable state's field, mutated in place.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State.Fields, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _IfLetReducer<Self, Child> where Child.State == ChildState, Child.Action == ChildAction {
    _IfLetReducer(
      parent: self, child: child(), toChildState: .field(toChildState),
      toChildAction: toChildAction)
  }

  /// ``ifLet(_:action:then:)`` on an observable state's field, for the actions of the case
  /// `toChildAction` constructs.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State.Fields, ChildState?>,
    action toChildAction: @escaping @Sendable (ChildAction) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _IfLetReducer<Self, Child> where Child.State == ChildState, Child.Action == ChildAction {
    ifLet(toChildState, action: CasePath(toChildAction), then: child)
  }
}

/// A parent reducer with a child reducer run on an optional child state (``Reducer/ifLet(_:action:then:)``).
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: StatePath<Parent.State, Child.State?>
  @usableFromInline let toChildAction: CasePath<Parent.Action, Child.Action>

  @inlinable
  init(
    parent: Parent, child: Child, toChildState: StatePath<Parent.State, Child.State?>,
    toChildAction: CasePath<Parent.Action, Child.Action>
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let before = toChildState.presence(in: state)
    var effect = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(from: action) {
      effect =
        toChildState.modify(&state) { optional in
          guard optional != nil, let before else {
            RuntimeWarning.report("ifLet received \(childAction) while its state is nil; ignored.")
            return .none
          }
          let effect = child.reduce(into: &optional!, action: childAction)
          return effect.isNone ? .none : effect.scoped(to: toChildState.navigation(before), toChildAction.embed)
        } ?? .none
    }
    effect = effect.merging(parent.reduce(into: &state, action: action))
    guard let before, before != toChildState.presence(in: state) else { return effect }
    return effect.merging(.cancelScope(of: toChildState.navigation(before)))
  }

}
