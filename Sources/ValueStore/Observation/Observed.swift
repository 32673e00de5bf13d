import Synchronization

/// The storage of an observable struct: its fields and the ``Extent`` that records who observes them.
///
/// Declare it as the struct's only stored property and conform to ``ObservableState``; the fields
/// then read and write like the struct's own:
///
/// ```swift
/// struct Counter: ObservableState, Equatable {
///   struct Fields: Equatable { var count = 0; var fact: String? }
///   var _$fields = Observed(Fields())
///   var isEven: Bool { self.count.isMultiple(of: 2) }
/// }
/// ```
///
/// The extent never takes part in equality, hashing, coding or reflection: two `Observed` values
/// are equal when their fields are.
@frozen
public struct Observed<Fields> {
  @usableFromInline var _value: Fields
  @usableFromInline var _extent: Extent

  /// Wraps `fields` with a new extent. Observable values in `fields` that share an extent with
  /// another value (`Parent(child: c, sibling: c)`) are detached: each field is a location of its
  /// own from the start.
  @inlinable
  public init(_ fields: Fields) {
    _value = fields
    _extent = Extent()
    detachFields()
  }

  /// All fields, read without recording an access.
  @inlinable
  public var fields: Fields { _value }

  @inlinable
  var identity: ObservationIdentity { ObservationIdentity(_extent) }

  /// Forks a shared extent. The fork keeps the lineage, so a copy written back is still
  /// recognised as a descendant of the value it was copied from.
  @inlinable
  mutating func makeExtentUnique() {
    if !isKnownUniquelyReferenced(&_extent) { _extent = Extent.fork(of: _extent) }
  }
}

// MARK: - Hot paths

extension Observed {
  /// Reads a field, recording the access when a tracking scope is open anywhere.
  @inlinable
  func read<T>(_ keyPath: KeyPath<Fields, T>) -> T {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) {
      _extent.recordAccess(.field(keyPath as PartialKeyPath<Fields>), keyPath)
    }
    return _value[keyPath: keyPath]
  }

  /// Reads a field holding observable values, anchoring them when this value is read through a
  /// holder.
  @inlinable
  func readSlot<T: ObservationIdentifiable>(_ keyPath: KeyPath<Fields, T>) -> T {
    let value = _value[keyPath: keyPath]
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) {
      if _extent.recordAccess(.field(keyPath as PartialKeyPath<Fields>), keyPath) { value._anchor() }
    }
    return value
  }

  /// Makes the extent this value's own before a write (forking a shared one) and says whether the
  /// write needs bookkeeping afterwards.
  @inlinable
  mutating func prepareToWrite() -> Bool {
    if _fastPath(isKnownUniquelyReferenced(&_extent)) { return !_extent.isQuiet }
    _extent = Extent.fork(of: _extent)
    return true
  }

  @inlinable
  func didWrite(_ keyPath: PartialKeyPath<Fields>) {
    _extent.didChange(.field(keyPath), keyPath)
  }

  /// Writes a field, recording the change for its observers.
  @inlinable
  subscript<T>(unconditional keyPath: WritableKeyPath<Fields, T>) -> T {
    get { read(keyPath) }
    set {
      let bookkeeping = prepareToWrite()
      _value[keyPath: keyPath] = newValue
      if _slowPath(bookkeeping) { didWrite(keyPath) }
    }
    _modify {
      let bookkeeping = prepareToWrite()
      yield &_value[keyPath: keyPath]
      if _slowPath(bookkeeping) { didWrite(keyPath) }
    }
  }

  /// Writes an `Equatable` field: setting an equal value is not a change (S3).
  @inlinable
  subscript<T: Equatable>(equatable keyPath: WritableKeyPath<Fields, T>) -> T {
    get { read(keyPath) }
    set {
      if _value[keyPath: keyPath] == newValue { return }
      self[unconditional: keyPath] = newValue
    }
    _modify { yield &self[unconditional: keyPath] }
  }

  /// Writes a trivial `Equatable` field (`Int`, `Bool`, a small enum): an in-place mutation that
  /// leaves it equal (`count += 0`) is not a change either (S3). The value is mutated as a local
  /// copy, which costs nothing for a trivial value, and written back only if it differs.
  ///
  /// Each accessor has a single `yield`: with two, the compiler stops inlining it and the key
  /// path is applied at run time (≈140 ns instead of ≈3 ns per `+=`).
  @inlinable
  subscript<T: Equatable & BitwiseCopyable>(trivial keyPath: WritableKeyPath<Fields, T>) -> T {
    get { read(keyPath) }
    set {
      if _value[keyPath: keyPath] == newValue { return }
      self[unconditional: keyPath] = newValue
    }
    _modify {
      var value = _value[keyPath: keyPath]
      yield &value
      if value != _value[keyPath: keyPath] { self[unconditional: keyPath] = value }
    }
  }

  /// Writes a field that holds observable values: afterwards the field's slot is reconciled, so an
  /// in-place mutation of the child notifies only the child's observers, a fork of the child
  /// (a snapshot was alive, or a copy was written back) carries its observers over, and anything
  /// else is a replacement that notifies this field's observers.
  @inlinable
  subscript<T: ObservationIdentifiable>(slot keyPath: WritableKeyPath<Fields, T>) -> T {
    get { readSlot(keyPath) }
    set {
      _ = prepareToWrite()
      let before = _value[keyPath: keyPath].observationIdentity
      _value[keyPath: keyPath] = newValue
      _value[keyPath: keyPath]._makeIdentityUnique()
      reconcile(keyPath, before: before)
    }
    _modify {
      _ = prepareToWrite()
      let before = _value[keyPath: keyPath].observationIdentity
      yield &_value[keyPath: keyPath]
      reconcile(keyPath, before: before)
    }
  }

  @inlinable
  mutating func reconcile<T: ObservationIdentifiable>(_ keyPath: WritableKeyPath<Fields, T>, before: ObservationIdentity) {
    let after = _value[keyPath: keyPath].observationIdentity
    _value[keyPath: keyPath]._adoptForks(owner: identity)
    if _fastPath(after == before) { return }
    if let extent = after.extent, extent.flags.load(ordering: .relaxed) & Extent.isFork != 0,
      extent.adopt(ancestor: after.tag == before.tag ? before.serial : 0, owner: _extent)
    {
      return
    }
    // A replacement: the new value may come from another location (Detach.swift).
    _value[keyPath: keyPath]._detach()
    if !_extent.isQuiet { didWrite(keyPath) }
  }
}

// MARK: - Conformances: the extent is not part of the value

// Comparing, hashing, encoding or reflecting a value reads all of its fields: inside a tracking
// scope that is a read of every field (`.any`). Children record their own, as their conformances
// run in turn.

extension Observed {
  /// Records a read of every field, when someone tracks.
  @inlinable
  func recordWholeRead() {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) { _extent.recordAccess(.any, nil) }
  }
}

extension Observed: Equatable where Fields: Equatable {
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.recordWholeRead()
    rhs.recordWholeRead()
    return lhs._value == rhs._value
  }
}

extension Observed: Hashable where Fields: Hashable {
  @inlinable
  public func hash(into hasher: inout Hasher) {
    recordWholeRead()
    hasher.combine(_value)
  }
}

extension Observed: Sendable where Fields: Sendable {}

extension Observed: Encodable where Fields: Encodable {
  public func encode(to encoder: any Encoder) throws {
    recordWholeRead()
    try _value.encode(to: encoder)
  }
}

extension Observed: Decodable where Fields: Decodable {
  public init(from decoder: any Decoder) throws { self.init(try Fields(from: decoder)) }
}

extension Observed: CustomReflectable {
  public var customMirror: Mirror {
    recordWholeRead()
    return Mirror(reflecting: _value)
  }
}
