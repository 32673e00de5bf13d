/// The actions of a presented child, as its parent receives them: the child's own, or its
/// dismissal.
///
/// ```swift
/// enum Action { case destination(PresentationAction<Destination.Action>), addButtonTapped }
///
/// var body: some Reducer<State, Action> {
///   Reduce { state, action in
///     if case .addButtonTapped = action { state.destination = .add(EditForm.State()) }
///     return .none
///   }
///   .ifLet(\.destination, action: Action.destination) { Destination() }
/// }
/// ```
///
/// `.dismiss` is sent by a view closing the child (a sheet swiped down), by the child itself
/// (``Effect/dismiss`` or ``Send/dismiss(fileID:line:)``), or by anyone: the parent receives it, then the
/// child's state is set to nil and its effects are cancelled.
public enum PresentationAction<Action> {
  /// An action of the presented child.
  case presented(Action)
  /// Dismisses the child.
  case dismiss
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
extension PresentationAction: CasePathable {}

/// `\.destination.alert.confirm` steps through `.presented`, as TCA's case key paths do.
extension PresentationAction: CaseKeyPathTransparent {}
