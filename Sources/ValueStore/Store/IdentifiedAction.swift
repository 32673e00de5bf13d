/// An action for one element of an ``IdentifiedArray``: the element's id and its action.
///
/// ```swift
/// enum AppAction { case rows(IdentifiedAction<Row.ID, RowFeature.Action>) }
/// store.send(.rows(.element(id: 3, action: .increment)))
/// ```
public enum IdentifiedAction<ID: Hashable & Sendable, Action: Sendable>: Sendable {
  /// `action` for the element with `id`.
  case element(id: ID, action: Action)
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
