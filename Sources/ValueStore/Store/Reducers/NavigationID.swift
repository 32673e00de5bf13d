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

    /// A child of type `State` told apart by its type alone (see ``isTypeOnly(_:)``).
    @inlinable
    init<State>(only _: State.Type) {
      type = ObjectIdentifier(State.self)
      tag = nil
      id = nil
    }

    /// Whether children of type `State` are told apart by their type alone: a struct, not
    /// `Identifiable` (a class or an existential may be `Identifiable` by its dynamic type, an enum
    /// has cases): which child is there needs no copy of it. Once per type (a conformance check
    /// costs a lookup in the runtime's table each time).
    @usableFromInline
    static func isTypeOnly(_ type: Any.Type) -> Bool {
      typeOnly.value(for: type) { $0 is any Identifiable.Type ? false : EnumTag.metadata($0).load(as: Int.self) == EnumTag.structKind }
    }

    private static let typeOnly = TypeCache<Bool>()

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

  /// The child's `Identifiable` id, or its case's payload's. Inlinable: specialized, the cast of
  /// a child that is not `Identifiable` folds away and only an enum's payload is looked up.
  @inlinable
  static func identifier<State>(of state: State, tag: UInt32?) -> AnyHashable? {
    if let identifiable = state as? any Identifiable { return id(of: identifiable) }
    guard let tag else { return nil }
    return payloadIdentifier(of: state, tag: tag)
  }

  @usableFromInline
  static func id<Value: Identifiable>(of value: Value) -> AnyHashable { AnyHashable(value.id) }

  /// The `Identifiable` id of the payload of `state`'s case `tag`, if it has one.
  @usableFromInline
  static func payloadIdentifier<State>(of state: State, tag: UInt32) -> AnyHashable? {
    guard let info = EnumPayload.caseInfo(State.self, tag: tag), info.isPayloadCase, info.isReadable,
      let payloadType = info.payloadType as? any Identifiable.Type
    else { return nil }
    func payloadID<Payload: Identifiable>(_: Payload.Type) -> AnyHashable {
      id(of: EnumPayload.project(state, indirect: info.isIndirect, as: Payload.self))
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
    if NavigationID.Presence.isTypeOnly(Child.self) {
      return isPresent(in: root) ? NavigationID.Presence(only: Child.self) : nil
    }
    return get(root).flatMap { $0 }.map(NavigationID.Presence.init(of:))
  }

  /// Whether the optional child at this path in `root` is there, read in place.
  @inlinable
  func isPresent<Child>(in root: Root) -> Bool where Value == Child? {
    read(root) { $0 != nil } ?? false
  }

  /// The child `presence` describes, at this path: a child whose effects are its own. Not
  /// inlined: only an effect or a cancellation needs it.
  @usableFromInline
  func navigation(_ presence: NavigationID.Presence) -> NavigationID {
    NavigationID(location: location, presence: presence)
  }
}
