/// Applies the feature's ``BindingAction``s to its state; other actions pass through. Put it
/// first in `body`, so that the reducers after it see the new value (TCA's `BindingReducer`).
///
/// ```swift
/// var body: some Reducer<SettingsState, Action> {
///   BindingReducer()
///   Reduce { state, action in … }
/// }
/// ```
///
/// When the binding case is in a nested action (TCA's view actions), name the case that holds it:
///
/// ```swift
/// enum Action { case view(View); enum View: BindableAction { case binding(BindingAction<State>), tapped } }
/// BindingReducer(action: Action.view)
/// ```
public struct BindingReducer<State, Action: Sendable, ViewAction: BindableAction & Sendable>: Reducer
where ViewAction.State == State {
  @usableFromInline let binding: CasePath<Action, BindingAction<State>>

  /// Applies the binding actions of `Action` itself.
  public init() where Action == ViewAction {
    binding = CasePath { Action.binding($0) }
  }

  /// Applies the binding actions of the case `toViewAction` embeds.
  public init(action toViewAction: @escaping @Sendable (ViewAction) -> Action) {
    binding = CasePath(toViewAction).appending { ViewAction.binding($0) }
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    binding.extract(from: action)?.apply(to: &state)
    return .none
  }
}
