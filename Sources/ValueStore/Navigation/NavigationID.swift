/// Which presentation (or stack element) an effect belongs to: the place the child lives in, and
/// what the child is there — its type, its enum case and its `Identifiable` id (or its case's
/// payload's), as in TCA. A presented child's effects are cancellable under it and their
/// cancellation ids are prefixed with it, so two presentations never cancel each other's effects.
///
/// Not the child's ``ObservationIdentity``: that changes when a snapshot makes the child fork
/// (`TestStore` keeps one of every state), and a presentation must keep its id while it is shown.
struct NavigationID: Hashable, @unchecked Sendable {  // immutable; AnyHashable is not Sendable
  let location: AnyHashable
  let type: ObjectIdentifier?
  let tag: UInt32?
  let id: AnyHashable?

  /// The presentation of `state` at `location`.
  init<State>(location: AnyHashable, state: State) {
    self.location = location
    type = ObjectIdentifier(State.self)
    let tag = EnumTag.isEnum(State.self) ? EnumTag.tag(of: state) : nil
    self.tag = tag
    id = Self.identifier(of: state, tag: tag)
  }

  /// A stack element: its stack and its id, never reused.
  init(stack location: AnyHashable, element: StackElementID) {
    self.location = location
    type = nil
    tag = nil
    id = element
  }

  private static func identifier<State>(of state: State, tag: UInt32?) -> AnyHashable? {
    func id<Value: Identifiable>(_ value: Value) -> AnyHashable { AnyHashable(value.id) }
    if let identifiable = state as? any Identifiable { return id(identifiable) }
    guard let tag, let info = EnumPayload.caseInfo(State.self, tag: tag), info.isPayloadCase, info.isReadable,
      let payloadType = info.payloadType as? any Identifiable.Type
    else { return nil }
    func payloadID<Payload: Identifiable>(_: Payload.Type) -> AnyHashable {
      id(EnumPayload.project(state, indirect: info.isIndirect, as: Payload.self))
    }
    return payloadID(payloadType)
  }
}

extension Effect {
  /// A presented child's (or stack element's) effect as its parent runs it: its actions
  /// embedded, one dismissal at most, becoming the parent's `dismiss` action, its cancellation
  /// ids its own (prefixed with `navigation`), and all of it cancellable with the presentation.
  func presented<Parent>(
    in navigation: NavigationID, _ embed: @escaping @Sendable (Action) -> Parent,
    dismiss: @escaping @Sendable () -> Parent
  ) -> Effect<Parent> {
    dismissingOnce()
      .transformed(
        embed, dismiss: dismiss, ids: { EffectID(NavigationScopedID(navigation: navigation, id: $0)) },
        dependencies: nil
      )
      .cancellable(id: navigation)
  }
}

/// A cancellation id used inside a presentation: distinct from the same id in another one.
struct NavigationScopedID: Hashable, Sendable {
  let navigation: NavigationID
  let id: EffectID
}
