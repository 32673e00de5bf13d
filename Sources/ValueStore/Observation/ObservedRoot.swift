import Synchronization

/// A reference that owns an observable value and runs every mutation of it: the "location" its
/// observers subscribe to.
///
/// Observation is exact at any depth: a copy taken out and mutated notifies nobody, a mutation
/// while a snapshot is alive notifies, and a copy written back notifies exactly the fields it
/// changed. A mutation is a transaction: each affected observer is called once, after it.
///
/// ```swift
/// let model = ObservedRoot(AppState())
/// let token = observe { print(model.counter.count) }
/// let snapshot = model.currentValue             // an undo history, a test's "before"
/// model.mutate { $0.counter.count += 1 } // prints 1; the snapshot is untouched
/// ```
///
/// Reads through the root (`model.counter.count`, `model.read { … }`, `model.currentValue…`), and
/// reads made later on the value they returned, are *anchored*: they belong to the root, not a copy.
///
/// Thread-safe (a lock). Inside a `mutate` or `read` body use the value the closure receives:
/// touching the same root there stops with a message. Observers run after the body, unrestricted.
@dynamicMemberLookup
public final class ObservedRoot<Value: ObservationIdentifiable>: @unchecked Sendable where Value: Sendable {
  @usableFromInline let lock = Lock(reentryMessage: """
    ObservedRoot was read or mutated from inside its own `mutate` or `read` body on the same thread \
    (e.g. `root.mutate { $0.count = root.count + 1 }`); use the value the closure receives
    """)
  /// Guarded by `lock` (which also excludes overlapping accesses: no dynamic exclusivity check).
  @exclusivity(unchecked) @usableFromInline var storage: Value
  @usableFromInline let root = HolderRoot(for: Value.self)
  /// The root's probe, at hand: every untracked read asks it.
  @usableFromInline let probe: TrackingProbe

  /// Makes a root owning `value`, detached: it shares no observers with where it came from.
  public init(_ value: Value) {
    probe = root.probe
    storage = value
    storage._detach()
  }

  /// A copy of the value, read through the root (tracked reads on it belong here); set: replaces it.
  /// Not `value`: the root's members would shadow fields of that name. See ``Store/currentState``.
  public var currentValue: Value {
    get { read { $0 } }
    set { mutate { $0 = newValue } }
  }

  /// Reads through the root; tracked reads are anchored to it.
  @inlinable
  public func read<T, E: Error>(_ body: (Value) throws(E) -> T) throws(E) -> T {
    try lock.withLock { () throws(E) -> T in try holderRead(storage, root, body) }
  }

  /// Reads a computed property of the value through the root.
  public subscript<T>(dynamicMember keyPath: KeyPath<Value, T>) -> T {
    read { $0[keyPath: keyPath] }
  }

  /// Runs `body` on the value in place as one transaction, notifying exactly what changed.
  ///
  /// ```swift
  /// root.mutate { $0.rows[id: 3]?.title = "Done" }   // readers of row 3's title hear it
  /// let total = other.total                          // another root: read it before, not inside
  /// root.mutate { $0.total = total }
  /// ```
  ///
  /// - Precondition: `body` does not touch this root (it stops with a message). Touching *another*
  ///   root inside holds both locks: two threads doing so in opposite orders deadlock.
  @inlinable @discardableResult
  public func mutate<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    let context = ThreadContext.current
    return try withTransaction(context) { () throws(E) -> R in
      try lock.withLock { () throws(E) -> R in try mutateHeld(&storage, root, context, body) }
    }
  }
}

/// What a holder (an ``ObservedRoot``, a store's state box) keeps beside its value: its root
/// location, under which all read through it is observed, and its probe for Apple's Observation.
@usableFromInline
final class HolderRoot: Sendable {
  @usableFromInline let location: Location
  @usableFromInline let probe: TrackingProbe
  /// Reads of the whole value register a read of its identity: a value with no fields of its own
  /// to read (an enum, an optional) is read whole, and its replacement must reach the reader.
  @usableFromInline let readsIdentity: Bool

  init<Value>(for _: Value.Type) {
    readsIdentity = !(Value.self is any ObservableState.Type)
    let apple = AppleSubscriptions()
    location = Location(sharing: apple)
    probe = TrackingProbe(apple)
  }

  /// Records a tracked read of the holder's value: handed out at the root, reads on it belong there.
  @usableFromInline @inline(never)
  func recordRead(of identity: ObservationIdentity) {
    ThreadContext.withCurrent { context in
      guard context.isRecording else { return }
      if readsIdentity {
        let access = Access(
          subscribers: location, key: .identity, keyPath: nil, version: location.version.load(ordering: .relaxed),
          serial: location.boundSerial.load(ordering: .relaxed))
        context.record(access)
      }
      context.handOutRoot(identity.extent, at: location)
    }
  }

  /// Whether `read` repeats the last read recorded on this thread (see `ThreadContext.repeats`).
  @usableFromInline
  func repeats(_ read: Read) -> Bool {
    ThreadContext.withCurrent { $0.repeats(read) }
  }

  /// Records a tracked read of field `key` of the holder's value, an observable struct with `extent`.
  @inlinable
  func recordFieldRead<Fields, T>(_ extent: Extent, _ keyPath: KeyPath<Fields, T>, _ key: FieldKey, _ value: T) {
    let child = FieldKind<T>.observable.map { $0._identity(of: value).serial } ?? 0
    if repeats(Read(serial: extent.serial, key: key, child: child)) { return }
    recordRead(of: ObservationIdentity(extent))
    extent.recordRead(key, keyPath, value)
  }
}

/// Runs `body` on a holder's value, with tracked reads recorded at the holder's root location.
@inlinable
func holderRead<Value: ObservationIdentifiable, T, E: Error>(
  _ value: Value, _ root: HolderRoot, _ body: (Value) throws(E) -> T
) throws(E) -> T {
  if _slowPath(root.probe.check()) { root.recordRead(of: value.observationIdentity) }
  return try body(value)
}

/// Runs a holder's mutation of `value` (the caller owns storage and transaction): the root is made
/// its location's own first, so the body's writes notify as made; then its slot is reconciled.
@inlinable
func mutateHeld<Value: ObservationIdentifiable, R, E: Error>(
  _ value: inout Value,
  _ root: HolderRoot,
  _ context: ThreadContext,
  _ body: (inout Value) throws(E) -> R
) throws(E) -> R {
  let saved = context.enterHolderMutation(root.probe)
  let (before, original) = Slot.bindRoot(&value, to: root.location)
  // An opaque identity (a plain enum payload) is compared by value, with a copy of the old one. A
  // closure, not a `Value?` local: that costs a metadata lookup on every mutation.
  let isUnchanged = before.isOpaque ? unchanged(from: value) : nil
  defer {
    context.exitHolderMutation(saved)
    if Slot.identity(of: &value) != before {
      let slot = Slot(root: root.location, before: before, original: original?.takeUnretainedValue())
      reconcileRoot(&value, slot, isUnchanged: isUnchanged)
    }
    original?.release()
    root._checkInvariants(&value, context)  // Invariants.swift; nothing without the flag
  }
  return try body(&value)
}

/// Whether a value equals `old` (nil: it cannot tell, `Value` is not `Equatable`).
@usableFromInline
func unchanged<Value>(from old: Value) -> ((Value) -> Bool)? {
  guard Value.self is any Equatable.Type else { return nil }
  return { FieldKind<Value>.isEqual(old, $0) == true }
}

@usableFromInline @inline(never)
func reconcileRoot<Value: ObservationIdentifiable>(
  _ value: inout Value, _ slot: Slot, isUnchanged: ((Value) -> Bool)?
) {
  if let isUnchanged, isUnchanged(value) { return }
  guard case let .replaced(history) = reconciled(value, slot) else { return }
  // Replaced: detached (it may come from another root); every reader was told (comparing with the
  // old value would keep it alive, so every mutation would copy).
  value._detach()
  slot.place(&value, as: Value.self, history: history)
}

/// What the root slot finds after a mutation. Apart, so the copy it reads is gone before detaching.
@usableFromInline
func reconciled<Value: ObservationIdentifiable>(_ value: Value, _ slot: Slot) -> Reconciled {
  slot.reconcile(value.observationIdentity, owner: nil, at: .field(.identity), below: { Value._below(of: value, at: $0) })
}

extension ObservedRoot where Value: ObservableState {
  /// Reads a field. The key path is into `Fields` (a constant), not `Value` (rebuilt per access).
  @inlinable
  public subscript<T>(dynamicMember keyPath: KeyPath<Value.Fields, T>) -> T {
    // Inlined at literal key paths: untracked, the field loads in place (no copy, no retain).
    @inline(__always) get {
      lock.lock()
      defer { lock.unlock() }
      if _slowPath(probe.check()) {
        let key = FieldKey.field(keyPath)
        if key == .any { return trackedComputedField(keyPath) }
        let value = storage._$fields._value[keyPath: keyPath]
        recordFieldRead(keyPath, key, value)
        return value
      }
      return storage._$fields._value[keyPath: keyPath]
    }
  }

  /// A tracked read of a computed `Fields` property, through the handed-out value. Under the lock.
  @inlinable @inline(never)
  func trackedComputedField<T>(_ keyPath: KeyPath<Value.Fields, T>) -> T {
    holderRead(storage, root) { $0._$fields.read(keyPath) }
  }

  /// Records a tracked read of a stored field, under the lock. Not inlined: the read stays small.
  @inlinable @inline(never)
  func recordFieldRead<T>(_ keyPath: KeyPath<Value.Fields, T>, _ key: FieldKey, _ value: T) {
    root.recordFieldRead(storage._$fields._extent, keyPath, key, value)
  }
}
