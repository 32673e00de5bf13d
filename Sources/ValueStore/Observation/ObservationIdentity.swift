import Synchronization

/// What a parent compares, before and after a mutation of one of its fields, to tell an in-place
/// mutation of the same value from its replacement by another value.
///
/// For an observable struct it is its ``Extent``; for an optional, the payload's (or none); for an
/// enum, the case and its payload's; for a collection, its structure's. Two identities are equal
/// only when they denote the same value in the same place: a freshly made value never has the
/// identity of the value it replaces, even when the two are equal.
@frozen
public struct ObservationIdentity: Equatable, Sendable {
  @usableFromInline let serial: UInt64
  @usableFromInline let tag: Int
  /// Valid only while the value that produced this identity is alive and unchanged.
  ///
  /// `Unmanaged`, not `unowned(unsafe) let extent: Extent?`: with Swift 6.3.1 at `-Onone`, a loop
  /// over an array of structs holding an `unowned(unsafe)` optional never ends (the iterator does
  /// not advance; `EnumTagTests` found it).
  @usableFromInline let unmanagedExtent: Unmanaged<Extent>?

  @inlinable
  var extent: Extent? { unmanagedExtent?.takeUnretainedValue() }

  @inlinable
  init(serial: UInt64, tag: Int, extent: Extent?) {
    self.serial = serial
    self.tag = tag
    self.unmanagedExtent = extent.map { .passUnretained($0) }
  }

  @inlinable
  init(_ extent: Extent, tag: Int = 0) {
    self.init(serial: extent.serial, tag: tag, extent: extent)
  }

  /// The identity of `value`'s case, an enum case without observable payload: its case, as the
  /// runtime numbers it — no integers to pick, none to collide.
  ///
  /// ```swift
  /// enum Mode: ObservationIdentifiable {
  ///   case idle, loading, editing(Editor)
  ///   var observationIdentity: ObservationIdentity {
  ///     switch self {
  ///     case .idle, .loading: ObservationIdentity(caseOf: self)
  ///     case let .editing(editor): ObservationIdentity(caseOf: self, editor)
  ///     }
  ///   }
  ///   mutating func _detach() { … }   // see ObservationIdentifiable
  /// }
  /// ```
  ///
  /// A case with a payload that is not observable (`case note(String)`) is described by its case
  /// alone, which cannot tell `.note("a")` from `.note("b")`: its identity is *opaque* — equal to
  /// no other, so writing such a value is a change, unless the place it is written to can compare
  /// the values (the enum is `Equatable`), which it then does.
  @inlinable
  public init<Enum>(caseOf value: Enum) {
    self = Self.caseIdentity(tag: EnumTag.tag(of: value), of: Enum.self)
  }

  @usableFromInline
  static func caseIdentity(tag: UInt32, of type: Any.Type) -> Self {
    EnumPayload.caseInfo(type, tag: tag)?.isPayloadCase == false ? Self(case: Int(tag)) : opaque(tag: Int(tag))
  }

  /// An identity that does not describe its value (see ``init(caseOf:)``): its serial is one no
  /// extent, no other opaque identity and not `absent` ever has.
  @usableFromInline
  static func opaque(tag: Int) -> Self {
    Self(serial: opaqueSerials | nextOpaqueSerial.wrappingAdd(1, ordering: .relaxed).newValue, tag: tag, extent: nil)
  }

  @usableFromInline static let opaqueSerials: UInt64 = 1 << 63

  /// Whether this identity does not describe its value: two values with opaque identities may be
  /// equal; only comparing them tells.
  @inlinable
  var isOpaque: Bool { serial & Self.opaqueSerials != 0 && serial != Self.absent.serial }

  /// The identity of `value`'s case and of its observable `payload`.
  @inlinable
  public init<Enum>(caseOf value: Enum, _ payload: some ObservationIdentifiable) {
    self.init(case: Int(EnumTag.tag(of: value)), payload)
  }

  /// The identity of a payload-less enum case, by a number of your choosing (prefer
  /// ``init(caseOf:)``, which numbers cases for you).
  ///
  /// ```swift
  /// enum Mode: ObservationIdentifiable {
  ///   case idle, editing(Editor)
  ///   var observationIdentity: ObservationIdentity {
  ///     switch self {
  ///     case .idle: ObservationIdentity(case: 0)
  ///     case let .editing(editor): ObservationIdentity(case: 1, editor)
  ///     }
  ///   }
  /// }
  /// ```
  @inlinable
  public init(case tag: Int) {
    self.init(serial: 0, tag: tag, extent: nil)
  }

  /// The identity of `nil`: its serial is one no extent and no `init(case:)` ever has, so `nil`
  /// never equals a wrapped payload-less case (`Mode?.none` vs `.some(.idle)`).
  @usableFromInline
  static let absent = ObservationIdentity(serial: .max, tag: 0, extent: nil)

  /// An identity that is opaque when `isOpaque` (a container of values with opaque identities).
  @inlinable
  init(case tag: Int, opaque isOpaque: Bool) {
    self = isOpaque ? Self.opaque(tag: tag) : Self(case: tag)
  }

  /// The identity of an enum case whose payload is observable: the case and the payload's identity.
  @inlinable
  public init(case tag: Int, _ payload: some ObservationIdentifiable) {
    self.init(case: tag, payloadIdentity: payload.observationIdentity)
  }

  /// The payload's serial and extent, and a tag mixing the case's with the payload's. A mix, not
  /// an arithmetic combination: `case + 31 × inner case` made `.inner(.x)` (0 + 31 × 1) the
  /// identity of an outer payload-less case 31, and a change from one to the other was lost (an
  /// adversarial probe found it). A 64-bit mix of both hits a given tag with probability 2⁻⁶⁴.
  @inlinable
  init(case tag: Int, payloadIdentity identity: ObservationIdentity) {
    self.init(serial: identity.serial, tag: Self.mix(tag, identity.tag), extent: identity.extent)
  }

  /// SplitMix64's finalizer over both values: every output bit depends on every input bit.
  @inlinable
  static func mix(_ outer: Int, _ inner: Int) -> Int {
    var z = UInt64(bitPattern: Int64(outer)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(inner))
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(bitPattern: UInt(z ^ (z >> 31)))
  }

  /// A wrapped value's identity in an optional: its own, but for a wrapped `nil` (`Child??`
  /// holding `.some(nil)`), which would be `absent` like the outer `nil`: one level deeper.
  @inlinable
  static func wrapping(_ identity: ObservationIdentity) -> ObservationIdentity {
    identity.serial == absent.serial ? Self(serial: absent.serial, tag: identity.tag &+ 1, extent: nil) : identity
  }

  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.serial == rhs.serial && lhs.tag == rhs.tag
  }

  /// What stays the same while a value stays in its place — through its copies and the forks
  /// they cause — and differs for another value put there (a child presented anew). An opaque
  /// identity (a plain payload: an alert) cannot tell its values apart: its value id is its case,
  /// so that at least another case is another value.
  var valueID: ValueID {
    if let extent { return ValueID(serial: extent.valueID, tag: tag) }
    return ValueID(serial: isOpaque ? Self.opaqueSerials : serial, tag: tag)
  }

  struct ValueID: Equatable {
    let serial: UInt64
    let tag: Int
  }
}

/// A value that a parent field observes by identity: replacing it notifies the field's observers,
/// mutating it in place notifies only the observers of what changed inside it.
///
/// Observable structs, optionals of them, ``IdentifiedArray`` and arrays of observable elements
/// conform already. An enum whose cases carry observable state needs nothing: where it is stored
/// (a field, an optional field, an identified array, a ``StackState``, another enum's payload) it
/// is observed exactly as if it conformed as below, its layout read at run time — so
/// `enum Destination { case edit(EditFeature.State), alert(AlertState<Alert>) }` is enough.
///
/// Observed as one plain value instead (any change in it notifies all its readers, and a copy
/// assigned elsewhere is not detached: its readers may hear the other place's changes — spurious,
/// never lost): a case declared `indirect`, a case carrying several values (`case edit(Form.State,
/// Int)`), a plain `Array` of such an enum, and any plain struct or tuple wrapping observable state.
/// Make such a payload an ``ObservableState`` to observe it field by field.
///
/// To conform by hand (the same behaviour, checked by the compiler), return the case and
/// its observable payload (see ``ObservationIdentity/init(caseOf:_:)``), the case alone for the
/// other cases (payload-less or with a plain payload, ``ObservationIdentity/init(caseOf:)``), and
/// by detaching the observable payload; then an action that leaves a case unchanged notifies
/// nobody, and mutating an observable payload in place notifies only the payload's observers.
/// Make the enum `Equatable`: a plain payload is then compared by value (otherwise every write of
/// such a case through a field notifies its readers).
///
/// ```swift
/// enum Mode: Equatable, ObservationIdentifiable {
///   case idle, note(String), editing(Editor)
///   var observationIdentity: ObservationIdentity {
///     switch self {
///     case .idle, .note: ObservationIdentity(caseOf: self)
///     case let .editing(editor): ObservationIdentity(caseOf: self, editor)
///     }
///   }
///   mutating func _detach() {
///     if case var .editing(editor) = self {
///       editor._detach()
///       self = .editing(editor)
///     }
///   }
/// }
/// ```
public protocol ObservationIdentifiable {
  /// This value's identity; must be O(1) and must not record a tracked access.
  var observationIdentity: ObservationIdentity { get }

  /// Gives this value an identity of its own if it shares one with another value, so two places
  /// never share observers. Called on a value just assigned into a field. The default does nothing.
  mutating func _makeIdentityUnique()

  /// Reconciles values this one contains in slots that no accessor of theirs reconciles (the
  /// elements of a plain array), at `place`, where this value sits. Called after every write
  /// through a field. The default does nothing.
  func _adoptForks(in place: _ObservationPlace)

  /// The identities of the observable values this one holds where no accessor of theirs records
  /// reads (the elements of a plain array), in order: a tracked read of this value hands them out
  /// by position. The default has none.
  func _unindexedElements() -> [ObservationIdentity]

  /// Gives this value, and every observable value inside it, an identity that no other value
  /// has. Called on a value that *replaces* another in a field or collection (`draft = saved`,
  /// `mode = .editing(child)`, an inserted element): the place it came from keeps its observers.
  /// An enum forwards to its payload (see the example above); there is no default, so that an
  /// enum cannot forget it.
  mutating func _detach()

  /// Makes this value equal to `other` by writing only what differs, in place, so that the
  /// readers of what is equal hear nothing (``StateHistory`` undoing). The default replaces the
  /// value when the two differ, or cannot be compared.
  mutating func _update(from other: Self)
}

extension ObservationIdentifiable {
  @inlinable
  public mutating func _makeIdentityUnique() {}

  @inlinable
  public func _adoptForks(in place: _ObservationPlace) {}

  @inlinable
  public func _unindexedElements() -> [ObservationIdentity] { [] }

  public mutating func _update(from other: Self) {
    if FieldKind<Self>.isEqual(self, other) != true { self = other }
  }
}

extension Optional: ObservationIdentifiable where Wrapped: ObservationIdentifiable {
  @inlinable
  public var observationIdentity: ObservationIdentity {
    switch self {
    case .none: .absent
    case let .some(wrapped): .wrapping(wrapped.observationIdentity)
    }
  }

  @inlinable
  public mutating func _makeIdentityUnique() { self?._makeIdentityUnique() }

  @inlinable
  public mutating func _detach() { self?._detach() }

  @inlinable
  public func _adoptForks(in place: _ObservationPlace) { self?._adoptForks(in: place) }

  @inlinable
  public func _unindexedElements() -> [ObservationIdentity] { self?._unindexedElements() ?? [] }
}

/// Where a value sits, for ``ObservationIdentifiable/_adoptForks(in:)``: the holder's location of
/// the value, if the holder observes it.
public struct _ObservationPlace {
  @usableFromInline let location: Location?

  @inlinable
  init(_ location: Location?) { self.location = location }
}

/// The counter of opaque identities' serials (``ObservationIdentity/opaque(tag:)``).
@usableFromInline
let nextOpaqueSerial = Atomic<UInt64>(0)
