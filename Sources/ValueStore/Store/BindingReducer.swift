/// Applies the feature's ``BindingAction``s to its state; other actions pass through. Put it
/// first in `body`, so that the reducers after it see the new value (TCA's `BindingReducer`).
///
/// ```swift
/// var body: some Reducer<SettingsState, Action> {
///   BindingReducer()
///   Reduce { state, action in … }
/// }
/// ```
public struct BindingReducer<State, Action: BindableAction & Sendable>: Reducer where Action.State == State {
  @usableFromInline let binding = CasePath { Action.binding($0) }

  public init() {}

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    binding.extract(from: action)?.apply(to: &state)
    return .none
  }
}
