extension Reducer {
  /// Runs a child reducer on one case of an enum state while the state is in that case, before
  /// this reducer.
  ///
  /// ```swift
  /// enum Destination { case edit(EditForm.State), detail(Detail.State) }
  /// Reduce<Destination, DestinationAction> { state, action in … }
  ///   .ifCaseLet(Destination.edit, action: DestinationAction.edit) { EditForm() }
  /// ```
  ///
  /// A child action that arrives while the state is in another case is ignored and reported as a
  /// ``RuntimeWarning``. The same as ``Scope`` on the case followed by this reducer.
  @inlinable
  public func ifCaseLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: CasePath<State, ChildState>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> ReducerBuilder<State, Action>._Sequence<Scope<State, Action, Child>, Self>
  where Child.State == ChildState, Child.Action == ChildAction {
    .init(first: Scope(state: toChildState, action: toChildAction, child: child), second: self)
  }

  /// ``ifCaseLet(_:action:then:)`` for the cases `toChildState` and `toChildAction` construct.
  @inlinable
  public func ifCaseLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: @escaping @Sendable (ChildState) -> State,
    action toChildAction: @escaping @Sendable (ChildAction) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> ReducerBuilder<State, Action>._Sequence<Scope<State, Action, Child>, Self>
  where Child.State == ChildState, Child.Action == ChildAction {
    ifCaseLet(CasePath(toChildState), action: CasePath(toChildAction), then: child)
  }
}
