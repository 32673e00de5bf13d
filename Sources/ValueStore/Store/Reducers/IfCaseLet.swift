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
  /// ``RuntimeWarning``. The child's effects are cancelled when the state leaves the case (or
  /// the case's state is replaced by another one), as in TCA: a timer of a logged-in screen stops
  /// at logout. ``Scope`` on the case, which cannot see the state leave it, does not cancel.
  @inlinable
  public func ifCaseLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: CasePath<State, ChildState>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _IfCaseLetReducer<Self, Child> where Child.State == ChildState, Child.Action == ChildAction {
    _IfCaseLetReducer(parent: self, child: child(), toChildState: toChildState, toChildAction: toChildAction)
  }

  /// ``ifCaseLet(_:action:then:)`` for the cases `toChildState` and `toChildAction` construct.
  @inlinable
  public func ifCaseLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: @escaping @Sendable (ChildState) -> State,
    action toChildAction: @escaping @Sendable (ChildAction) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _IfCaseLetReducer<Self, Child> where Child.State == ChildState, Child.Action == ChildAction {
    ifCaseLet(CasePath(toChildState), action: CasePath(toChildAction), then: child)
  }
}

/// A parent reducer with a child on one case of its enum state (``Reducer/ifCaseLet(_:action:then:)-(CasePath<State,ChildState>,_,_)``).
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: CasePath<Parent.State, Child.State>
  @usableFromInline let toChildAction: CasePath<Parent.Action, Child.Action>

  @inlinable
  init(
    parent: Parent, child: Child, toChildState: CasePath<Parent.State, Child.State>,
    toChildAction: CasePath<Parent.Action, Child.Action>
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let before = presence(state)
    let caseTag = EnumTag.tag(of: state)
    var childEffect = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(from: action) {
      if let before, let effect = toChildState.modify(&state, { child.reduce(into: &$0, action: childAction) }) {
        if !effect.isNone { childEffect = effect.scoped(to: navigation(before, caseTag), toChildAction.embed) }
      } else {
        RuntimeWarning.report(
          "ifCaseLet received \(childAction) while its state is in \(EnumPayload.caseName(of: state) ?? "another case"), "
            + "not in \(toChildState); ignored.")
      }
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    let effect = childEffect.merging(parentEffect)
    guard let before, before != presence(state) else { return effect }
    return effect.merging(.cancelScope(of: navigation(before, caseTag)))
  }

  /// The case's state, if `state` is in the case: which value it is (its type, case and id).
  @inlinable
  func presence(_ state: Parent.State) -> NavigationID.Presence? {
    if NavigationID.Presence.isTypeOnly(Child.State.self) {
      return toChildState.matches(state) ? NavigationID.Presence(only: Child.State.self) : nil
    }
    return toChildState.extract(from: state).map(NavigationID.Presence.init(of:))
  }

  /// The case's state as a presentation: which case (`caseTag`) of which enum, and which value.
  @usableFromInline
  func navigation(_ presence: NavigationID.Presence, _ caseTag: UInt32) -> NavigationID {
    NavigationID(location: [ObjectIdentifier(Parent.State.self), caseTag] as [AnyHashable], presence: presence)
  }
}
