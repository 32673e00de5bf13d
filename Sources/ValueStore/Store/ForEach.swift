extension Reducer {
  /// Runs an element reducer on the element an ``IdentifiedAction`` names, before this reducer.
  ///
  /// ```swift
  /// var body: some Reducer<AppState, AppAction> {
  ///   Reduce { state, action in … }
  ///     .forEach(\.rows, action: AppAction.rows) { RowFeature() }
  /// }
  /// ```
  ///
  /// An action for an id that is not in the array is ignored and reported as a ``RuntimeWarning``
  /// (it usually means an effect outlived its row).
  @inlinable
  public func forEach<ID, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> _ForEachReducer<Self, ID, Element> where Element.State == ElementState, Element.Action == ElementAction {
    _ForEachReducer(
      parent: self, element: element(), toElements: .keyPath(toElements), toElementAction: toElementAction)
  }

  /// ``forEach(_:action:element:)`` for the actions of the case `toElementAction` constructs.
  @inlinable
  public func forEach<ID, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: @escaping @Sendable (IdentifiedAction<ID, ElementAction>) -> Action,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> _ForEachReducer<Self, ID, Element> where Element.State == ElementState, Element.Action == ElementAction {
    forEach(toElements, action: CasePath(toElementAction), element: element)
  }
}

extension Reducer where State: ObservableState {
  /// ``forEach(_:action:element:)`` on an observable state's field, mutated in place.
  @inlinable
  public func forEach<ID, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State.Fields, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> _ForEachReducer<Self, ID, Element> where Element.State == ElementState, Element.Action == ElementAction {
    _ForEachReducer(
      parent: self, element: element(),
      toElements: .field(toElements),
      toElementAction: toElementAction)
  }

  /// ``forEach(_:action:element:)`` on an observable state's field, for the actions of the case
  /// `toElementAction` constructs.
  @inlinable
  public func forEach<ID, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State.Fields, IdentifiedArray<ID, ElementState>>,
    action toElementAction: @escaping @Sendable (IdentifiedAction<ID, ElementAction>) -> Action,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> _ForEachReducer<Self, ID, Element> where Element.State == ElementState, Element.Action == ElementAction {
    forEach(toElements, action: CasePath(toElementAction), element: element)
  }
}

/// A parent reducer with an element reducer run on the elements of an ``IdentifiedArray``
/// (``Reducer/forEach(_:action:element:)``).
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer
where Element.Action: Sendable {
  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let toElements: StatePath<Parent.State, IdentifiedArray<ID, Element.State>>
  @usableFromInline let toElementAction: CasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>

  @inlinable
  init(
    parent: Parent, element: Element, toElements: StatePath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: CasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  ) {
    self.parent = parent
    self.element = element
    self.toElements = toElements
    self.toElementAction = toElementAction
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var effect: Effect<Parent.Action>? = nil
    if case let .element(id, elementAction)? = toElementAction.extract(from: action) {
      effect = toElements.modify(&state) { elements in
        guard elements.contains(id: id) else {
          RuntimeWarning.report(
            "forEach received \(elementAction) for element \(id), which is not in the array; ignored.")
          return .none
        }
        let embed = toElementAction.embed
        return element.reduce(into: &elements[id: id]!, action: elementAction)
          .map { embed(.element(id: id, action: $0)) }
      }
    }
    return (effect ?? .none).merging(parent.reduce(into: &state, action: action))
  }
}
