import Synchronization

/// What a parent compares before and after a field's mutation to tell mutation in place from
/// replacement.
///
/// An observable struct's `Extent`, an optional's or enum case's payload's, a collection's
/// structure's. Equal only for the same value in the same place (a fresh value never has the
/// identity of the one it replaces, even if the two are equal).
@frozen
public struct ObservationIdentity: Equatable, Sendable {
  @usableFromInline let serial: UInt64
  @usableFromInline let tag: Int
  /// Valid only while the value that produced this identity is alive and unchanged. `Unmanaged`,
  /// not `unowned(unsafe)`: a Swift 6.3.1 `-Onone` miscompile (Documentation/Core.md, "Identity").
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

  /// The identity of `value`'s case as the runtime numbers it, for a case without observable payload.
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
  /// A case with a plain payload (`case note(String)`) has an *opaque* identity, equal to no other:
  /// writing it is a change unless the place can compare the values (the enum is `Equatable`).
  @inlinable
  public init<Enum>(caseOf value: Enum) {
    self = Self.caseIdentity(tag: EnumTag.tag(of: value), of: Enum.self)
  }

  @usableFromInline
  static func caseIdentity(tag: UInt32, of type: Any.Type) -> Self {
    EnumPayload.caseInfo(type, tag: tag)?.isPayloadCase == false ? Self(case: Int(tag)) : opaque(tag: Int(tag))
  }

  /// An identity that does not describe its value; its serial is no extent's, `absent`'s or another's.
  @usableFromInline
  static func opaque(tag: Int) -> Self {
    Self(serial: opaqueSerials | nextOpaqueSerial.wrappingAdd(1, ordering: .relaxed).newValue, tag: tag, extent: nil)
  }

  @usableFromInline static let opaqueSerials: UInt64 = 1 << 63

  /// Two values with opaque identities may be equal; only comparing them tells.
  @inlinable
  var isOpaque: Bool { serial & Self.opaqueSerials != 0 && serial != Self.absent.serial }

  /// The identity of `value`'s case and of its observable `payload`.
  @inlinable
  public init<Enum>(caseOf value: Enum, _ payload: some ObservationIdentifiable) {
    self.init(case: Int(EnumTag.tag(of: value)), payload)
  }

  /// A payload-less case's identity, by a number of your choosing (prefer ``init(caseOf:)``).
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

  /// The identity of `nil`: its serial is no extent's nor `init(case:)`'s, so `nil` never equals a
  /// wrapped payload-less case (`Mode?.none` vs `.some(.idle)`).
  @usableFromInline
  static let absent = ObservationIdentity(serial: .max, tag: 0, extent: nil)

  /// An identity that is opaque when `isOpaque` (a container of values with opaque identities).
  @inlinable
  init(case tag: Int, opaque isOpaque: Bool) {
    self = isOpaque ? Self.opaque(tag: tag) : Self(case: tag)
  }

  /// An enum case with an observable payload: the case and the payload's identity.
  @inlinable
  public init(case tag: Int, _ payload: some ObservationIdentifiable) {
    self.init(case: tag, payloadIdentity: payload.observationIdentity)
  }

  /// The payload's serial and extent, with a tag mixing the case's and the payload's: an arithmetic
  /// combination lets distinct cases collide; a 64-bit mix hits a given tag with probability 2⁻⁶⁴.
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

  /// A wrapped value's identity in an optional: its own, but a wrapped `nil` (`Child??` holding
  /// `.some(nil)`) is `absent` one level deeper.
  @inlinable
  static func wrapping(_ identity: ObservationIdentity) -> ObservationIdentity {
    identity.serial == absent.serial ? Self(serial: absent.serial, tag: identity.tag &+ 1, extent: nil) : identity
  }

  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.serial == rhs.serial && lhs.tag == rhs.tag
  }

  /// Stays the same while a value stays in its place (through copies and forks) and differs for
  /// another value put there. An opaque identity's is its case: another case is another value.
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
/// mutating it in place only the observers of what changed inside it.
///
/// Observable structs, optionals of them, ``IdentifiedArray`` and arrays of observable elements
/// conform; an enum whose cases carry observable state needs nothing (its layout is read at run
/// time). Observed as one plain value instead (any change notifies all readers; a copy assigned
/// elsewhere is not detached: spurious notifications, never lost ones): an `indirect` case, a case
/// of several values, a plain `Array` of such enums, a plain struct or tuple wrapping observable
/// state (make it an ``ObservableState``). To conform by hand, return the case with its observable
/// payload, or the case alone, and detach the payload. Make the enum `Equatable`, or every write
/// of a plain-payload case through a field notifies its readers.
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

  /// Gives this value an identity of its own if it shares one, so two places never share observers.
  /// Called on a value just assigned into a field. Default: nothing.
  mutating func _makeIdentityUnique()

  /// Reconciles values held where no accessor of theirs does (a plain array's elements), at
  /// `place`, where this value sits. Called after every write through a field. Default: nothing.
  func _adoptForks(in place: _ObservationPlace)

  /// The identities of observable values held where no accessor records reads (a plain array's
  /// elements), in order: a tracked read of this value hands them out by position. Default: none.
  func _unindexedElements() -> [ObservationIdentity]

  /// Gives this value, and every observable value inside it, an identity no other value has. Called
  /// on a value that *replaces* another (`draft = saved`, an inserted element): the place it came
  /// from keeps its observers. No default, so that an enum cannot forget its payload.
  mutating func _detach()

  /// Makes this value equal to `other` by writing only what differs, so readers of what is equal
  /// hear nothing (``StateHistory`` undoing). Default: replace unless equal.
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

/// Where a value sits, for ``ObservationIdentifiable/_adoptForks(in:)``: its holder's location,
/// if the holder observes it.
public struct _ObservationPlace {
  @usableFromInline let location: Location?

  @inlinable
  init(_ location: Location?) { self.location = location }
}

@usableFromInline
let nextOpaqueSerial = Atomic<UInt64>(0)
