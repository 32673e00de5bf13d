/// Which child an effect belongs to — a presentation, a stack element, an `ifLet` child, a
/// `forEach` row, an `ifCaseLet` case: the place the child lives in, and what the child is there —
/// its type, its enum case and its `Identifiable` id (or its case's payload's), as in TCA. A
/// child's effects are cancellable under it and their cancellation ids are scoped to it, so two
/// children never cancel each other's effects.
///
/// Not the child's ``ObservationIdentity``: that changes when a snapshot makes the child fork
/// (`TestStore` keeps one of every state), and a presentation must keep its id while it is shown.
@usableFromInline
struct NavigationID: Hashable, @unchecked Sendable {  // immutable; AnyHashable is not Sendable
  let location: AnyHashable
  let type: ObjectIdentifier?
  let tag: UInt32?
  let id: AnyHashable?

  /// The child `presence` describes, at `location`.
  @usableFromInline
  init(location: AnyHashable, presence: Presence) {
    self.location = location
    type = presence.type
    tag = presence.tag
    id = presence.id
  }

  /// Which child a state is, without where it lives: what a reducer compares before and after an
  /// action (its place is the same both times), building the whole id only for an effect to scope
  /// or a cancellation.
  @usableFromInline
  struct Presence: Equatable, @unchecked Sendable {  // immutable; AnyHashable is not Sendable
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let tag: UInt32?
    @usableFromInline let id: AnyHashable?

    /// Inlinable: specialized where the reducer is, a child's type and case are read directly.
    @inlinable
    init<State>(of state: State) {
      type = ObjectIdentifier(State.self)
      let tag = EnumTag.isEnum(State.self) ? EnumTag.tag(of: state) : nil
      self.tag = tag
      id = NavigationID.identifier(of: state, tag: tag)
    }
  }

  /// An element of a collection (a stack, an identified array): where the collection is and the
  /// element's id.
  init(collection location: AnyHashable, element: some Hashable & Sendable) {
    self.location = location
    type = nil
    tag = nil
    id = element
  }

  @usableFromInline
  static func identifier<State>(of state: State, tag: UInt32?) -> AnyHashable? {
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
  /// A child's effect as its parent runs it: its actions embedded, its cancellation ids its own
  /// (scoped to `navigation`), and all of it cancellable with the child
  /// (``EffectID/scope(of:)``). For a presented child or a stack element, one dismissal at most,
  /// becoming the parent's `dismiss` action; for another child, a dismissal goes on to whatever
  /// presents the parent.
  @usableFromInline
  func scoped<Parent>(
    to navigation: NavigationID, _ embed: @escaping @Sendable (Action) -> Parent,
    dismiss: (@Sendable () -> Parent)? = nil
  ) -> Effect<Parent> {
    if isNone { return .none }
    return (dismiss == nil ? self : dismissingOnce())
      .transformed(embed, dismiss: dismiss, scope: navigation)
      .cancellable(scope: .scope(of: navigation))
  }
}

extension Effect {
  /// Cancels the effects of the child `navigation`, which has gone away.
  @usableFromInline
  static func cancelScope(of navigation: NavigationID) -> Self { Self(.cancel(.scope(of: navigation))) }

  /// Marks this effect with `id` (an ``EffectID`` already made).
  func cancellable(scope id: EffectID) -> Self { isNone ? self : Self(.cancellable(id, cancelInFlight: false, self)) }
}

extension StatePath {
  /// Which child the optional child at this path in `root` is, if any (its type, case and id).
  @inlinable
  func presence<Child>(in root: Root) -> NavigationID.Presence? where Value == Child? {
    get(root).flatMap { $0 }.map(NavigationID.Presence.init(of:))
  }

  /// The child `presence` describes, at this path: a child whose effects are its own. Not
  /// inlined: only an effect or a cancellation needs it.
  @usableFromInline
  func navigation(_ presence: NavigationID.Presence) -> NavigationID {
    NavigationID(location: location, presence: presence)
  }
}
