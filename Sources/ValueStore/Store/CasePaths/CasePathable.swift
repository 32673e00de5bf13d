/// An enum whose cases can be tested, read and changed through its case constructors: add the
/// conformance (no members to write) to actions and enum states.
///
/// ```swift
/// enum Destination: CasePathable { case edit(EditForm.State), detail(Detail.State) }
///
/// destination.is(Destination.edit)               // true
/// mode.is(.idle)                                  // a case without payload
/// destination[case: Destination.edit]?.title     // the payload, or nil
/// destination.modify(Destination.edit) { $0.title = "Milk" }   // in a test's expectation
/// ```
///
/// It also makes the enum ``ObservationIdentifiable``, observed as an enum that does not conform is
/// (by case, and by its observable payload, see the protocol): so an enum can be the whole state
/// of a ``Store``, a `TestStore` or an ``ObservedRoot``, as TCA's `@Reducer enum` states are.
///
/// ```swift
/// struct AppFeature: Reducer {
///   enum State: Equatable, CasePathable { case login(Login.State), main(Main.State) }
///   …
/// }
/// let store = Store(initialState: AppFeature.State.login(Login.State())) { AppFeature() }
/// ```
public protocol CasePathable: ObservationIdentifiable {}

// `ObservationIdentifiable`, as `ObservationKind` observes an enum that does not conform: through
// `ReflectedEnum` when a case carries observable state, by case alone otherwise.
extension CasePathable {
  public var observationIdentity: ObservationIdentity {
    if let kind = Self.reflected { return kind._identity(of: self) }
    guard EnumTag.isEnum(Self.self) else { return .opaque(tag: 0) }
    return .caseIdentity(tag: EnumTag.tag(of: self), of: Self.self)
  }

  public mutating func _makeIdentityUnique() { Self.reflected?._makeIdentityUnique(&self) }

  public func _adoptForks(in place: _ObservationPlace) { Self.reflected?._adoptForks(of: self, in: place) }

  public mutating func _detach() { Self.reflected?._detach(&self) }

  /// The enum's reflected kind, if a case carries observable state.
  private static var reflected: (any ObservationIdentifiable.Type)? { ObservationKind.ofNonConforming(Self.self) }
}

/// `Result` is case-pathable, as in TCA: a feature's whole state or an action's payload can be a
/// `Result`, reached through `Result.success` and `Result.failure`.
///
/// ```swift
/// let store = TestStore(initialState: Result<Int, LoadError>.success(0)) { Loader() }
/// await store.send(.reload) { $0 = .failure(.offline) }
/// ```
///
/// (The conformance lives here, not in the user's module: a conformance of a standard-library type
/// to a library protocol, declared in a third module, makes the runtime fail to build the metadata
/// of a generic type constrained by it — `TestStore<Result<…>, …>` crashed at creation. See
/// Documentation/Core.md, "Toolchain bugs worked around".)
extension Result: CasePathable {}

extension CasePathable {
  /// Whether this value is the case `embed` constructs.
  @inlinable
  public func `is`<Value>(_ embed: @escaping @Sendable (Value) -> Self) -> Bool {
    CasePath(embed).extract(from: self) != nil
  }

  /// Whether this value is in the same case as `other` (for cases without payload: `.is(.idle)`).
  @inlinable
  public func `is`(_ other: Self) -> Bool {
    EnumTag.tag(of: self) == EnumTag.tag(of: other)
  }

  /// The payload if this value is the case `embed` constructs.
  @inlinable
  public subscript<Value>(case embed: @escaping @Sendable (Value) -> Self) -> Value? {
    CasePath(embed).extract(from: self)
  }

  /// Changes the payload of the case `embed` constructs, in place; nil, changing nothing, if this
  /// value is another case.
  @inlinable @discardableResult
  public mutating func modify<Value, Result>(
    _ embed: @escaping @Sendable (Value) -> Self, _ body: (inout Value) throws -> Result
  ) rethrows -> Result? {
    try CasePath(embed).modify(&self, body)
  }
}

/// Whether `value` is an enum value in a case without payload (`TestStore.receive(.tick)` of
/// actions that are not `Equatable`).
@_spi(Testing) public func _isCaseWithoutPayload<T>(_ value: T) -> Bool {
  guard EnumTag.isEnum(T.self) else { return false }
  return EnumPayload.caseInfo(T.self, tag: EnumTag.tag(of: value))?.isPayloadCase == false
}

/// Whether two enum values are in the same case. Precondition: `T` is an enum.
@_spi(Testing) public func _isSameCase<T>(_ a: T, _ b: T) -> Bool {
  EnumTag.tag(of: a) == EnumTag.tag(of: b)
}
