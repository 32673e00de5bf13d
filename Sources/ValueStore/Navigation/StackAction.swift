/// The actions of a navigation stack, as its parent receives them.
///
/// ```swift
/// enum Action { case path(StackAction<Path.State, Path.Action>), detailTapped }
///
/// var body: some Reducer<State, Action> {
///   Reduce { state, action in
///     if case .detailTapped = action { state.path.append(.detail(Detail.State())) }
///     return .none
///   }
///   .forEach(\.path, action: Action.path) { Path() }
/// }
/// ```
public enum StackAction<State, Action> {
  /// An action of the element with `id`.
  case element(id: StackElementID, action: Action)
  /// Pops the element with `id` and every element above it (a back button; ``Effect/dismiss``
  /// from the element). The parent receives it before the elements are removed.
  case popFrom(id: StackElementID)
  /// Pushes `state` with `id`, which must not be in use (a navigation link). The parent receives
  /// it before the element is pushed.
  case push(id: StackElementID, state: State)
}

/// The ``StackAction`` of a stack of `R`'s elements, by its reducer: TCA's spelling.
///
/// ```swift
/// enum Action { case path(StackActionOf<Path>) }
/// // the same as: case path(StackAction<Path.State, Path.Action>)
/// ```
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}
extension StackAction: CasePathable {}

extension CasePath {
  /// The action of the stack element with `id`.
  ///
  /// ```swift
  /// let detail = CasePath(Action.path)[id: 0]
  /// await store.send(detail, .detail(.saveTapped))
  /// ```
  public subscript<ElementState, ElementAction>(id id: StackElementID) -> CasePath<Root, ElementAction>
  where Value == StackAction<ElementState, ElementAction> {
    appending(
      CasePath<Value, ElementAction>(
        embed: { .element(id: id, action: $0) },
        extract: { if case let .element(elementID, action) = $0, elementID == id { action } else { nil } },
        describe: { "element(id: \(id))" }))
  }
}
