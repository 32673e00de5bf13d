extension Reducer where Action: Sendable {
  /// Runs a presented child — a sheet, an alert, a destination enum — while its state is non-nil,
  /// before this reducer, and ends its presentation when it goes away.
  ///
  /// ```swift
  /// enum Action { case destination(PresentationAction<Destination.Action>), editTapped }
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in … }
  ///     .ifLet(\.destination, action: Action.destination) { Destination() }
  /// }
  /// ```
  ///
  /// - `.presented(action)` runs the child (ignored with a ``RuntimeWarning`` while nil); an
  ///   alert or a confirmation dialog (``AlertState``) is dismissed after any of its actions.
  /// - `.dismiss` reaches this reducer, then the child's state is set to nil.
  /// - The child's effects are its own: their cancellation ids do not clash with another
  ///   presentation's, and they are cancelled when the child goes away — dismissed, replaced by
  ///   another child, or set to nil by this reducer. ``Effect/dismiss`` and ``Send/dismiss(fileID:line:)``
  ///   from the child send `.dismiss`.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toPresentationAction: @escaping @Sendable (PresentationAction<ChildAction>) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _PresentationReducer<Self, Child> where Child.State == ChildState, Child.Action == ChildAction {
    _PresentationReducer(
      parent: self, child: child(), toChildState: .keyPath(toChildState),
      toPresentationAction: CasePath(toPresentationAction))
  }

  /// ``ifLet(_:action:then:)-(WritableKeyPath<State,ChildState?>,(PresentationAction<ChildAction>)->Action,_)`` for a child with no logic
  /// of its own: an alert or a confirmation dialog, dismissed after any of its actions.
  ///
  /// ```swift
  /// .ifLet(\.alert, action: Action.alert)
  /// ```
  @inlinable
  public func ifLet<ChildState, ChildAction>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toPresentationAction: @escaping @Sendable (PresentationAction<ChildAction>) -> Action
  ) -> _PresentationReducer<Self, EmptyReducer<ChildState, ChildAction>> {
    ifLet(toChildState, action: toPresentationAction) { EmptyReducer() }
  }
}

extension Reducer where State: ObservableState, Action: Sendable {
  /// ``ifLet(_:action:)-(WritableKeyPath<State,ChildState?>,_)`` on an observable state's field.
  @inlinable
  public func ifLet<ChildState, ChildAction>(
    _ toChildState: WritableKeyPath<State.Fields, ChildState?>,
    action toPresentationAction: @escaping @Sendable (PresentationAction<ChildAction>) -> Action
  ) -> _PresentationReducer<Self, EmptyReducer<ChildState, ChildAction>> {
    ifLet(toChildState, action: toPresentationAction) { EmptyReducer() }
  }

  /// ``ifLet(_:action:then:)-(WritableKeyPath<State,ChildState?>,(PresentationAction<ChildAction>)->Action,_)`` on an observable state's
  /// field, mutated in place.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State.Fields, ChildState?>,
    action toPresentationAction: @escaping @Sendable (PresentationAction<ChildAction>) -> Action,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> _PresentationReducer<Self, Child> where Child.State == ChildState, Child.Action == ChildAction {
    _PresentationReducer(
      parent: self, child: child(), toChildState: .field(toChildState),
      toPresentationAction: CasePath(toPresentationAction))
  }
}

/// A parent reducer with a presented child (``Reducer/ifLet(_:action:then:)-(WritableKeyPath<State,ChildState?>,_,_)``
/// with a ``PresentationAction``).
public struct _PresentationReducer<Parent: Reducer, Child: Reducer>: Reducer where Parent.Action: Sendable {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: StatePath<Parent.State, Child.State?>
  @usableFromInline let toPresentationAction: CasePath<Parent.Action, PresentationAction<Child.Action>>

  @inlinable
  init(
    parent: Parent, child: Child, toChildState: StatePath<Parent.State, Child.State?>,
    toPresentationAction: CasePath<Parent.Action, PresentationAction<Child.Action>>
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toPresentationAction = toPresentationAction
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let before = toChildState.presence(in: state)
    let presentationAction = toPresentationAction.extract(from: action)
    var childEffect = Effect<Parent.Action>.none
    if case let .presented(childAction) = presentationAction {
      childEffect =
        toChildState.modify(&state) { optional -> Effect<Parent.Action> in
          guard optional != nil, let before else {
            RuntimeWarning.report("ifLet received \(childAction) while its state is nil; ignored.")
            return .none
          }
          let childEffect = child.reduce(into: &optional!, action: childAction)
          let effect = childEffect.isNone ? .none : present(childEffect, id: toChildState.navigation(before))
          if dismissesEphemeral(optional!, childAction) { optional = nil }
          return effect
        } ?? .none
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    var after = toChildState.presence(in: state)
    if case .dismiss = presentationAction {
      if before == nil { RuntimeWarning.report("ifLet received a dismiss while its state is nil; ignored.") }
      // The child it was sent for: not one the parent has just put in its place.
      if after == before {
        _ = toChildState.modify(&state) { $0 = nil }
        after = nil
      }
    }
    var effect = childEffect.merging(parentEffect)
    if let before, before != after { effect = effect.merging(.cancelScope(of: toChildState.navigation(before))) }
    return effect
  }

  /// The child's effect as the parent runs it: its actions presented, its dismissals the
  /// parent's `.dismiss`, its cancellation ids its own, and all of it cancellable with the
  /// presentation.
  @usableFromInline
  func present(_ effect: Effect<Child.Action>, id: NavigationID) -> Effect<Parent.Action> {
    let embed = toPresentationAction.embed
    return effect.scoped(to: id, { embed(.presented($0)) }, dismiss: { embed(.dismiss) })
  }
}

/// Whether `action` dismisses `state`: an alert or a dialog (or an enum in a case of one) is
/// dismissed by any of its own actions — not by an action meant for another case, which leaves it
/// presented (and is reported by the case's `Scope`), as in TCA.
@usableFromInline
func dismissesEphemeral<State, Action>(_ state: State, _ action: Action) -> Bool {
  if State.self is any _EphemeralState.Type { return true }
  guard EnumTag.isEnum(State.self), let info = EnumPayload.caseInfo(State.self, tag: EnumTag.tag(of: state)),
    info.isPayloadCase, let ephemeral = info.payloadType as? any _EphemeralState.Type
  else { return false }
  if Action.self == ephemeral._actionType { return true }
  // The case's declared payload type: an empty one (a one-case enum) makes no payload case.
  guard EnumTag.isEnum(Action.self), let actionCase = EnumPayload.caseInfo(Action.self, tag: EnumTag.tag(of: action)),
    let payloadType = actionCase.payloadType
  else { return false }
  return payloadType == ephemeral._actionType
}
