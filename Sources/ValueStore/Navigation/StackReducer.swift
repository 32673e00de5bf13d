extension Reducer where Action: Sendable {
  /// Runs an element reducer on the elements of a navigation stack, before this reducer, and
  /// pushes and pops elements for ``StackAction``s.
  ///
  /// ```swift
  /// enum Action { case path(StackAction<Path.State, Path.Action>) }
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in … }
  ///     .forEach(\.path, action: Action.path) { Path() }
  /// }
  /// ```
  ///
  /// - `.element(id:action:)` runs the element (ignored with a ``RuntimeWarning`` if it is gone).
  /// - `.popFrom(id:)` and `.push(id:state:)` reach this reducer, then the stack changes. A push
  ///   of an id the stack has used is ignored with a ``RuntimeWarning``; in tests, a push of an id
  ///   past the stack's ``StackState/nextID`` is pushed with one (a test's ids count from 0).
  /// - Each element's effects are its own (their cancellation ids do not clash with another
  ///   element's, even of the same feature) and are cancelled when it is popped, however that
  ///   happens. ``Effect/dismiss`` and ``Send/dismiss(fileID:line:)`` from an element pop it.
  @inlinable
  public func forEach<ElementState, ElementAction, Element: Reducer>(
    _ toStack: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: @escaping @Sendable (StackAction<ElementState, ElementAction>) -> Action,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> _StackReducer<Self, Element> where Element.State == ElementState, Element.Action == ElementAction {
    _StackReducer(parent: self, element: element(), toStack: .keyPath(toStack), toStackAction: CasePath(toStackAction))
  }
}

extension Reducer where State: ObservableState, Action: Sendable {
  /// ``forEach(_:action:element:)-(WritableKeyPath<State,StackState<ElementState>>,_,_)`` on an
  /// observable state's field, mutated in place.
  @inlinable
  public func forEach<ElementState, ElementAction, Element: Reducer>(
    _ toStack: WritableKeyPath<State.Fields, StackState<ElementState>>,
    action toStackAction: @escaping @Sendable (StackAction<ElementState, ElementAction>) -> Action,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> _StackReducer<Self, Element> where Element.State == ElementState, Element.Action == ElementAction {
    _StackReducer(parent: self, element: element(), toStack: .field(toStack), toStackAction: CasePath(toStackAction))
  }
}

/// A parent reducer with a navigation stack (``Reducer/forEach(_:action:element:)-(WritableKeyPath<State,StackState<ElementState>>,_,_)``).
public struct _StackReducer<Parent: Reducer, Element: Reducer>: Reducer where Parent.Action: Sendable {
  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let toStack: StatePath<Parent.State, StackState<Element.State>>
  @usableFromInline let toStackAction: CasePath<Parent.Action, StackAction<Element.State, Element.Action>>

  @inlinable
  init(
    parent: Parent, element: Element, toStack: StatePath<Parent.State, StackState<Element.State>>,
    toStackAction: CasePath<Parent.Action, StackAction<Element.State, Element.Action>>
  ) {
    self.parent = parent
    self.element = element
    self.toStack = toStack
    self.toStackAction = toStackAction
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let location = toStack.location
    let idsBefore = toStack.get(state)?.ids ?? []
    let stackAction = toStackAction.extract(from: action)
    var elementEffect = Effect<Parent.Action>.none
    if case let .element(id, elementAction) = stackAction {
      let embed = toStackAction.embed
      elementEffect =
        toStack.modify(&state) { stack -> Effect<Parent.Action> in
          guard stack[id: id] != nil else {
            RuntimeWarning.report("forEach received \(elementAction) for stack element \(id), which is gone; ignored.")
            return .none
          }
          let navigation = NavigationID(collection: location, element: id)
          return element.reduce(into: &stack[id: id]!, action: elementAction)
            .scoped(to: navigation, { embed(.element(id: id, action: $0)) }, dismiss: { embed(.popFrom(id: id)) })
        } ?? .none
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    switch stackAction {
    case let .popFrom(id):
      _ = toStack.modify(&state) { stack in
        if !stack.pop(from: id) { RuntimeWarning.report("forEach received popFrom(id: \(id)), which is not in the stack; ignored.") }
      }
    case let .push(id, elementState):
      _ = toStack.modify(&state) { stack in
        let expected = stack.nextID
        if !stack.push(elementState, id: id) {
          RuntimeWarning.report("forEach received push(id: \(id)), an id the stack has used (ids are never reused); ignored.")
        } else if id > expected, DependencyValues.current.context == .test {
          // In a test each stack counts from 0, so an id past the next one is one no `append`
          // would give: reported, as TCA does, and pushed (later ids count on from it).
          RuntimeWarning.report(
            "forEach received push(id: \(id)), an unexpected id: the stack's next is \(expected). "
              + "In tests a stack's ids count from 0 (push with the stack's nextID); pushed.")
        }
      }
    case .element, nil:
      break
    }
    let idsAfter = Set(toStack.get(state)?.ids ?? [])
    var effect = elementEffect.merging(parentEffect)
    for id in idsBefore where !idsAfter.contains(id) {
      effect = effect.merging(.cancelScope(of: NavigationID(collection: location, element: id)))
    }
    return effect
  }
}
