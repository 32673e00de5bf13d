import Synchronization

/// A reference that owns an observable value and runs every mutation of it: the "location" that
/// observers of the value subscribe to.
///
/// Inside a root, observation is exact at any depth: a copy taken out and mutated notifies nobody,
/// mutating the value while a snapshot of it is alive notifies its observers, and a copy written
/// back notifies exactly the fields it changed. Each mutation is a transaction: every affected
/// observer is called once, after it.
///
/// ```swift
/// let model = ObservedRoot(AppState())
/// let token = observe { print(model.counter.count) }
/// let snapshot = model.currentValue             // an undo history, a test's "before"
/// model.mutate { $0.counter.count += 1 } // prints 1; the snapshot is untouched
/// ```
///
/// Reads through the root's own accessors (`model.counter.count`, `model.read { … }`,
/// `model.currentValue.counter.count`) are *anchored*: they belong to this location, never to a
/// copy — also reads made later on the value they returned, as `store.currentState` has it.
///
/// Thread-safe: reads and mutations are serialised by a lock. Inside a `mutate` or `read` body, use
/// the value the closure receives: reading or mutating the same root there again is a programming
/// error and stops with a message (precondition). Observers run after the body and may read and
/// mutate freely.
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

  /// Makes a root owning `value`. The value is detached: it shares no observers with the place it
  /// came from (another root's value, a copy still in use).
  public init(_ value: Value) {
    probe = root.probe
    storage = value
    storage._detach()
  }

  /// A copy of the current value, read through the root (`read { $0 }`): reads made on it while
  /// tracking belong to this location. Setting it replaces the value (a transaction).
  ///
  /// Not `value`: the root's own members would shadow the value's fields of the same name
  /// (`root.currentValue` must read a field named `value`). See ``Store/currentState``.
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

  /// Runs `body` on the value in place, as one transaction, then reconciles the root's slot so the
  /// observers of whatever changed — and only those — are notified.
  ///
  /// ```swift
  /// root.mutate { $0.rows[id: 3]?.title = "Done" }   // readers of row 3's title hear it
  /// let total = other.total                          // another root: read it before, not inside
  /// root.mutate { $0.total = total }
  /// ```
  ///
  /// - Precondition: `body` does not read or mutate this root (that stops with a message). It
  ///   holds this root's lock: reading or mutating *another* root inside it holds both, and two
  ///   threads doing so in opposite orders deadlock, as with any two locks.
  @inlinable @discardableResult
  public func mutate<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    let context = ThreadContext.current
    return try withTransaction(context) { () throws(E) -> R in
      try lock.withLock { () throws(E) -> R in try mutateHeld(&storage, root, context, body) }
    }
  }
}

/// What a holder (an ``ObservedRoot``, a store's state box) keeps beside its value: the location
/// of its root, under which everything read through it is observed, and the probe its reads ask
/// Apple's Observation through.
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

  /// Records a tracked read of the holder's value (identity `identity`): the value is handed out
  /// at the root location, so reads made on it belong there.
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

  /// Records a tracked read of a field of the holder's value (an observable struct whose extent is
  /// `extent`), whose value is `value`.
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

/// Runs a holder's mutation of `value` (the caller owns the storage and the transaction).
///
/// The root is made its location's own first (forked if a snapshot shares it, and bound), so the
/// writes the body makes through it notify as they happen. Afterwards the root's slot is
/// reconciled: the same value (or a copy of it written back) keeps its location's readers; a
/// different value (`value = Value()`) notifies every reader of the holder.
@inlinable
func mutateHeld<Value: ObservationIdentifiable, R, E: Error>(
  _ value: inout Value,
  _ root: HolderRoot,
  _ context: ThreadContext,
  _ body: (inout Value) throws(E) -> R
) throws(E) -> R {
  let saved = context.enterHolderMutation(root.probe)
  let (before, original) = Slot.bindRoot(&value, to: root.location)
  // An identity that does not describe its value (a plain enum payload) is compared by value,
  // with a copy of the old one. A closure, not a `Value?`: in this generic code a local of that
  // type costs a metadata lookup on every mutation, opaque or not.
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
  // Replaced: the new value may come from another location (`root.currentValue = other.currentValue`).
  // Every reader of the holder was told (the old value cannot be compared with the new one
  // without keeping it alive, which would make every mutation copy).
  value._detach()
  slot.place(&value, as: Value.self, history: history)
}

/// What the root slot finds after a mutation (see `Slot.reconcile`). A function of its own: the
/// copy it reads through is gone before a replacement is detached.
@usableFromInline
func reconciled<Value: ObservationIdentifiable>(_ value: Value, _ slot: Slot) -> Reconciled {
  slot.reconcile(value.observationIdentity, owner: nil, at: .field(.identity), below: { Value._below(of: value, at: $0) })
}

extension ObservedRoot where Value: ObservableState {
  /// Reads a field through the root.
  ///
  /// Takes a key path into `Fields` (a constant, cheap to apply) rather than into `Value` (built
  /// anew at every access when it goes through `Value`'s dynamic members).
  @inlinable
  public subscript<T>(dynamicMember keyPath: KeyPath<Value.Fields, T>) -> T {
    // Inlined at the call site, where the key path is a literal: untracked, the field is loaded
    // in place (no copy of the value, no retain, no key path applied at run time).
    @inline(__always) get {
      lock.lock()
      defer { lock.unlock() }
      if _slowPath(probe.check()) {
        // The key and the value are found here, where the key path is a literal.
        let key = FieldKey.field(keyPath)
        if key == .any { return trackedComputedField(keyPath) }
        let value = storage._$fields._value[keyPath: keyPath]
        recordFieldRead(keyPath, key, value)
        return value
      }
      return storage._$fields._value[keyPath: keyPath]
    }
  }

  /// A tracked read of a computed property of `Fields`, which reads other fields: through the
  /// value, handed out. Under the lock.
  @inlinable @inline(never)
  func trackedComputedField<T>(_ keyPath: KeyPath<Value.Fields, T>) -> T {
    holderRead(storage, root) { $0._$fields.read(keyPath) }
  }

  /// Records a tracked read of a stored field, under the lock. Specialized where it is called,
  /// never inlined (the read stays small).
  @inlinable @inline(never)
  func recordFieldRead<T>(_ keyPath: KeyPath<Value.Fields, T>, _ key: FieldKey, _ value: T) {
    root.recordFieldRead(storage._$fields._extent, keyPath, key, value)
  }
}
