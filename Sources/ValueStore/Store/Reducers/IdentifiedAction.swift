/// An action for one element of an ``IdentifiedArray``: the element's id and its action.
///
/// ```swift
/// enum AppAction { case rows(IdentifiedAction<Row.ID, RowFeature.Action>) }
/// store.send(.rows(.element(id: 3, action: .increment)))
/// ```
///
/// It is `Sendable` when its action is, as in TCA, rather than requiring a `Sendable` action: a
/// requirement on the generic parameter made a recursive action that leaves its conformance
/// implicit (`indirect enum Action { case rows(IdentifiedAction<Int, Action>) }`) fail with
/// "circular reference", since checking the requirement needed the conformance being inferred.
public enum IdentifiedAction<ID: Hashable & Sendable, Action> {
  /// `action` for the element with `id`.
  case element(id: ID, action: Action)
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}

/// The ``IdentifiedAction`` of an element feature `R`, by its reducer: TCA's spelling.
///
/// ```swift
/// enum Action { case rows(IdentifiedActionOf<RowFeature>) }
/// // the same as: case rows(IdentifiedAction<RowFeature.State.ID, RowFeature.Action>)
/// ```
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable
