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
  @usableFromInline let slot = RootSlot(for: Value.self)

  /// Makes a root owning `value`. The value is detached: it shares no observers with the place it
  /// came from (another root's value, a copy still in use).
  public init(_ value: Value) {
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
    try lock.withLock { () throws(E) -> T in try anchored(storage, slot, body) }
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
  @discardableResult
  public func mutate<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
    let context = ThreadContext.current
    return try withTransaction(context) { () throws(E) -> R in
      try lock.withLock { () throws(E) -> R in try mutateHeld(&storage, slot, context, body) }
    }
  }
}

/// The root holder's own place for its value, for a value that has no extent of its own to record
/// whole-value reads (an enum with payload-less cases, an optional): reads of the value through
/// the holder register here, and replacing the value notifies them. Observable structs need none:
/// their extent is the root's.
@usableFromInline
struct RootSlot {
  @usableFromInline let extent: Extent?
  /// How the holder's reads ask Apple's Observation whether it tracks (see `TrackingProbe`).
  @usableFromInline let probe = TrackingProbe()

  init<Value>(for _: Value.Type) {
    extent = Value.self is any ObservableState.Type ? nil : Extent()
  }

  /// Records a tracked read of the whole value.
  @inlinable
  func recordRead() {
    guard let extent, openTrackingScopes.load(ordering: .relaxed) != 0 else { return }
    extent.anchor()
    extent.recordAccess(.identity, nil)
  }

  /// The value was replaced (not mutated in place): its readers hear it.
  func didReplace() {
    if let extent, !extent.isQuiet { extent.replaced() }
  }
}

/// Runs `body` on a holder's value with tracked reads anchored to the holder.
@inlinable
func anchored<Value: ObservationIdentifiable, T, E: Error>(
  _ value: Value, _ slot: RootSlot, _ body: (Value) throws(E) -> T
) throws(E) -> T {
  // Apple's Observation, if tracking, opens a bridge window here (ObservationBridge.swift).
  trackingMayRecord(slot.probe) ? try trackedAnchored(value, slot, body) : try body(value)
}

/// `anchored` once a tracking scope or bridge window is open somewhere.
@inlinable
func trackedAnchored<Value: ObservationIdentifiable, T, E: Error>(
  _ value: Value, _ slot: RootSlot, _ body: (Value) throws(E) -> T
) throws(E) -> T {
  let context = ThreadContext.current
  // The caller skipped the probe if a scope was open anywhere: this thread may still need it.
  if !context.bridgeWindow { slot.probe.check() }
  slot.recordRead()
  context.anchorDepth += 1
  defer {
    context.anchorDepth -= 1
    // Marked once the body read it recording (not if its reads found Observation gone).
    if context.isRecording { value._anchor() }
  }
  return try body(value)
}

/// Records a tracked read of a field that a holder's value (an observable struct, whose extent
/// `extent` is the holder's) gave as `value`: `trackedAnchored` and `Observed.read` for a field
/// already loaded, without copying the holder's value. (The extent, not the value's `Observed`:
/// borrowed from the holder's storage, that was copied, a retain of every reference in it.)
@inlinable
func recordHolderRead<Fields, T>(
  _ extent: Extent, _ keyPath: KeyPath<Fields, T>, _ key: FieldKey, _ value: T, probe: TrackingProbe
) {
  // The caller skipped the probe if a scope was open anywhere: this thread may still need it.
  if !ThreadContext.current.bridgeWindow { probe.check() }
  // Anchored once recorded (so the root's copies, and reads made on `value`, are the holder's);
  // not when the read found Observation gone.
  if extent.recordAccess(key, keyPath, anchoredBy: true) {
    extent.anchor()
    FieldKind<T>.observable?._anchor(value)
  }
}

/// Runs `body` with its reads anchored (the nested values a comparison, a hash or an encoding of
/// a holder's value reads).
@usableFromInline
func anchoringReads<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
  let context = ThreadContext.current
  context.anchorDepth += 1
  defer { context.anchorDepth -= 1 }
  return try body()
}

/// Marks `value`, read through a holder, as the holder's — if this thread records reads (an
/// anchor set for nothing would make a later bare copy's own reads look anchored).
@usableFromInline
func anchorForHolderRead<Value: ObservationIdentifiable>(_ value: Value) {
  if ThreadContext.current.isRecording { value._anchor() }
}

/// Runs a root holder's mutation of `value` (the caller owns the storage and the transaction).
///
/// While it runs, forks are left for the slots that hold them to reconcile. Afterwards the root's
/// own slot is reconciled: the same extent (in-place) or a fork of it (a snapshot was alive) keeps
/// its observers; a different value (`value = Value()`) notifies every observer of the old root.
func mutateHeld<Value: ObservationIdentifiable, R, E: Error>(
  _ value: inout Value,
  _ slot: RootSlot,
  _ context: ThreadContext,
  _ body: (inout Value) throws(E) -> R
) throws(E) -> R {
  // Tracking closures on this thread that read before mutating: their reads so far are theirs
  // before the mutation changes them (`registerPendingReads`); the body's reads (a reducer's, a
  // `mutate` body's, on the value it receives) are not theirs at all.
  let scope = context.scope
  if !context.openScopes.isEmpty { context.registerPendingReads() }
  let hidden = context.bridgeHidden
  context.scope = nil
  context.bridgeHidden = true
  defer {
    context.scope = scope
    context.bridgeHidden = hidden
  }
  let before = value.observationIdentity
  // An identity that does not describe its value (a plain enum payload) is compared by value,
  // with a copy of the old one. A closure, not a `Value?`: in this generic code a local of that
  // type costs a metadata lookup on every mutation (≈ a tenth of a send), opaque or not.
  let isUnchanged = before.isOpaque ? unchanged(from: value) : nil
  context.holderDepth += 1
  // No strong reference to the root's extent may live across `body`: it would make the root look
  // shared, and every mutation would fork it.
  // Observed, or maybe about to be: a tracking scope open on any thread may have read the root
  // and register after this mutation, and must then find the root replaced (the handle marks it).
  let observed =
    before.extent.map { $0.flags.load(ordering: .relaxed) & Extent.hasRegistrations != 0 } ?? false
    || before.extent != nil && openTrackingScopes.load(ordering: .relaxed) != 0
  guard observed else {
    // Nobody observes the root itself, nor reads anywhere: only its slot needs reconciling (a
    // fork to adopt).
    defer {
      context.holderDepth -= 1
      reconcileRoot(&value, slot, before: before, isUnchanged: isUnchanged, handle: nil, context)
    }
    return try body(&value)
  }
  // Lets a replaced root's observers be told, whether the old root is alive or not.
  let handle = before.extent!.makeRootHandle()
  defer {
    context.holderDepth -= 1
    reconcileRoot(&value, slot, before: before, isUnchanged: isUnchanged, handle: handle, context)
  }
  return try body(&value)
}

/// Whether a value equals `old` (nil: it cannot tell, `Value` is not `Equatable`).
private func unchanged<Value>(from old: Value) -> ((Value) -> Bool)? {
  guard Value.self is any Equatable.Type else { return nil }
  return { FieldKind<Value>.isEqual(old, $0) == true }
}

private func reconcileRoot<Value: ObservationIdentifiable>(
  _ value: inout Value, _ slot: RootSlot, before: ObservationIdentity, isUnchanged: ((Value) -> Bool)?,
  handle: RootHandle?, _ context: ThreadContext
) {
  let after = value.observationIdentity
  if after == before { return }
  if let isUnchanged, isUnchanged(value) { return }
  context.holderDepth += 1
  defer { context.holderDepth -= 1 }
  if let extent = after.extent, extent.flags.load(ordering: .relaxed) & Extent.isFork != 0,
    extent.adopt(ancestor: after.tag == before.tag ? before.serial : 0, owner: nil)
  {
    return
  }
  // Replaced: the new value may come from another location (`root.currentValue = other.currentValue`).
  value._detach()
  slot.didReplace()
  // Everything read from the old root is gone. Its observers are notified (all of them: the old
  // fields cannot be compared with the new ones without keeping the old value alive, which would
  // make every mutation copy).
  handle?.rootReplaced()
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
      if _slowPath(trackingMayRecord(slot.probe)) { return trackedField(keyPath) }
      return storage._$fields._value[keyPath: keyPath]
    }
  }

  /// A tracked read, under the lock, as a store's (see `Store.trackedField`).
  @inlinable @inline(__always)
  func trackedField<T>(_ keyPath: KeyPath<Value.Fields, T>) -> T {
    let key = FieldKey.field(keyPath)
    if key == .any { return trackedComputedField(keyPath) }
    let value = storage._$fields._value[keyPath: keyPath]
    recordRead(keyPath, key, value)
    return value
  }

  /// Records a tracked read, under the lock. Specialized where it is called, never inlined (see
  /// above).
  @inlinable @inline(never)
  func recordRead<T>(_ keyPath: KeyPath<Value.Fields, T>, _ key: FieldKey, _ value: T) {
    recordHolderRead(storage._$fields._extent, keyPath, key, value, probe: slot.probe)
  }

  /// A tracked read of a computed property of `Fields`, under the lock, inside the holder's
  /// anchoring.
  @inlinable @inline(never)
  func trackedComputedField<T>(_ keyPath: KeyPath<Value.Fields, T>) -> T {
    trackedAnchored(storage, slot) { $0._$fields.read(keyPath) }
  }
}
