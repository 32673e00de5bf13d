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
  /// An action for an id that is not in the array is ignored and reported as a ``RuntimeWarning``.
  ///
  /// Each element's effects are its own, as in TCA: their cancellation ids do not reach another
  /// element's (two rows' `.cancellable(id: CancelID.timer)` are two timers), the same id in this
  /// reducer reaches every row's, and they are cancelled when the element leaves the array —
  /// removed by its own action or by this reducer, the array replaced or emptied.
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
    var idsBefore: ContiguousArray<ID>?
    var effect = Effect<Parent.Action>.none
    if case let .element(id, elementAction)? = toElementAction.extract(from: action) {
      let embed = toElementAction.embed
      effect =
        toElements.modify(&state) { elements in
          idsBefore = elements._ids  // read here: a second projection of the array costs more
          guard elements.contains(id: id) else {
            RuntimeWarning.report(
              "forEach received \(elementAction) for element \(id), which is not in the array; ignored.")
            return .none
          }
          let effect = element.reduce(into: &elements[id: id]!, action: elementAction)
          return effect.isNone ? .none : effect.scoped(to: navigation(id)) { embed(.element(id: id, action: $0)) }
        } ?? .none
    } else {
      idsBefore = toElements.read(state) { $0._ids }
    }
    effect = effect.merging(parent.reduce(into: &state, action: action))
    // Unchanged or appended to (one buffer, or a prefix compared as memory): nothing was removed.
    guard let idsBefore, let idsAfter = toElements.read(state, { $0._ids }), !idsAfter.isAppended(to: idsBefore)
    else { return effect }
    let remaining = Set(idsAfter)
    for id in idsBefore where !remaining.contains(id) { effect = effect.merging(.cancelScope(of: navigation(id))) }
    return effect
  }

  /// The element `id` as a child whose effects are its own.
  @usableFromInline
  func navigation(_ id: ID) -> NavigationID { NavigationID(collection: toElements.location, element: id) }
}
