/// The accesses recorded while a `withTracking` closure runs on this thread.
final class TrackingScope {
  private(set) var accesses: [Access] = []
  /// The last access recorded. A read repeating it at once (a body reading `store.count` twice,
  /// a loop) is not recorded again: that keeps the list, its retains and its deduplication
  /// proportional to the fields read rather than to the reads. Its extent is alive (`accesses`
  /// holds it), so its identifier names no other.
  private var last: (extent: ObjectIdentifier, key: FieldKey, keyPath: ObjectIdentifier?, anchored: Bool)?
  /// The enclosing scope on this thread, and what a change calls: for the reads registered before
  /// the closure ends (see `ThreadContext.registerPendingReads`).
  var outer: TrackingScope?
  var onChange: (@Sendable (ObservationChange) -> Void)?
  /// The observer of the reads registered so far; nil until the closure mutates a holder (the
  /// usual case: everything is registered at its end).
  var observer: Observer?
  /// `locationMoves` when the closure started: a location that moved on after it may have been
  /// read through a copy older than the location (see `register`).
  var openedAt: UInt64 = 0

  func record(_ extent: Extent, _ key: FieldKey, _ keyPath: AnyKeyPath?, anchored: Bool) {
    let access = (ObjectIdentifier(extent), key, keyPath.map(ObjectIdentifier.init), anchored)
    if let last, last == access { return }
    last = access
    accesses.append(Access(extent: extent, key: key, keyPath: keyPath, anchored: anchored, moves: extent.moves(anchored: anchored)))
  }

  /// Adds a nested scope's accesses: the enclosing call tracks them too.
  func record(contentsOf nested: [Access]) {
    accesses += nested
    last = nil
  }

  /// The accesses to register now, without repeats; the scope keeps none of them.
  func takePending() -> [Access] {
    let pending = distinctAccesses()
    accesses.removeAll(keepingCapacity: true)
    last = nil
    return pending
  }

  /// Registers this scope's pending reads before its closure ends; returns them (they are the
  /// enclosing scope's reads too). Its observer holds what it hears until the closure ends.
  func registerPending() -> [Access] {
    if observer == nil {
      observer = Observer(onChange: onChange!)
      observer!.isTracking = true
    }
    let pending = takePending()
    deliver(register(observer!, for: pending, since: openedAt))
    return pending
  }

  func reset() {
    accesses.removeAll(keepingCapacity: true)
    last = nil
    (outer, onChange, observer) = (nil, nil, nil)
  }
}

extension ThreadContext {
  /// Before a holder mutation on this thread: the reads its tracking scopes made so far are
  /// registered now, so that the mutation notifies them exactly — a read it changes fires the
  /// observer, the others stay. Registered afterwards, they would find their extents moved by the
  /// mutation and fire whatever it changed (an `observe` body sending what it had not read re-ran
  /// forever).
  func registerPendingReads() {
    // Every open scope on this thread, innermost first — also those `untracked` or a firing
    // observer set aside; an inner scope's reads are its enclosing call's too (`outer`), and reach
    // it before its own turn.
    for scope in openScopes.reversed() {
      let pending = scope.registerPending()
      scope.outer?.record(contentsOf: pending)
    }
  }
}

/// Registers `observer` for `accesses` (distinct, grouped by extent) and returns the deliveries
/// of the reads whose extent moved on since (a change landed in between: the observer hears it).
/// Nothing for an observer that fired already. `later`: registrations were made before (a
/// closure that mutated): a read registered then, on the same extent or on the one its
/// registration moved to, is not registered twice.
///
/// An anchored read of a value whose location moved on while the scope was open (`openedAt`: the
/// closure took a copy through a holder — `let mode = root.mode` — and another thread wrote the
/// location before it read into the copy) is registered where the location is now, and heard at
/// once: what it read is older than the location. Registered on the copy's extent, it would wait
/// where nothing is written again. A location that moved on before the scope opened (a snapshot
/// kept from earlier) is not followed: reading the snapshot again must not fire again.
private func register(_ observer: Observer, for accesses: [Access], since openedAt: UInt64, later: Bool = false) -> [Delivery] {
  guard !accesses.isEmpty else { return [] }
  return withRegistry { _ -> [Delivery] in
    guard observer.isActive else { return [] }
    // A first registration lists each extent once, in order; a later one looks them up (and so
    // does one that follows a moved location: its extent may be listed already).
    var first = !later && observer.extents.isEmpty
    var previous: Extent?
    var missed: [Delivery] = []
    for access in accesses {
      var extent = access.extent
      var moved = access.isStale
      if access.anchored, let head = extent.locationMoved(since: openedAt) {
        extent = head
        moved = true
        first = false
      }
      if !first {
        if extent.registrations.contains(observer, key: access.key) { continue }
        observer.didRegister(on: extent)
      } else {
        if extent !== previous { observer.extents.append((.passUnretained(extent), 0)) }
        observer.extents[observer.extents.count - 1].registrations += 1
      }
      previous = extent
      extent.register(observer, key: access.key, keyPath: access.keyPath, anchored: access.anchored)
      if moved { missed.append(Delivery(observer: observer, keyPath: access.keyPath)) }
    }
    return missed
  }
}

/// One tracked read: a field of an extent.
struct Access {
  let extent: Extent
  let key: FieldKey
  let keyPath: AnyKeyPath?
  let anchored: Bool
  /// `extent.moves` at the read, in the half that concerns this access.
  let moves: UInt32

  /// The extent's registrations were carried elsewhere since the read: a registration now would
  /// miss that move. Requires the registry lock (moves happen under it).
  var isStale: Bool { extent.moves(anchored: anchored) != moves }
}

extension Extent {
  /// Records a read in the innermost tracking scope of this thread, if any, and says whether it
  /// is anchored (made through a holder, or `anchoredBy` one): then a child value read from this
  /// field is anchored too (`_anchor()`), so reads made on it afterwards belong to the holder. A
  /// read that finds Observation stopped tracking (a stale bridge window, no scope of ours)
  /// records nothing and anchors nothing. `bridging` is false when the caller tells Apple's
  /// Observation itself (a holder's field, see FieldBridges.swift).
  @usableFromInline @inline(never) @discardableResult
  func recordAccess(
    _ key: FieldKey, _ keyPath: AnyKeyPath?, anchoredBy holder: Bool = false, bridging: Bool = true
  ) -> Bool {
    ThreadContext.withCurrent { recordAccess(key, keyPath, anchoredBy: holder, bridging: bridging, on: $0) }
  }

  /// `recordAccess` on this thread's `context`, which the caller has at hand.
  @discardableResult
  func recordAccess(
    _ key: FieldKey, _ keyPath: AnyKeyPath?, anchoredBy holder: Bool = false, bridging: Bool = true,
    on context: ThreadContext
  ) -> Bool {
    guard context.isRecording else { return false }
    let anchored = holder || context.anchorDepth > 0 || isAnchored(in: context)
    context.scope?.record(self, key, keyPath, anchored: anchored)
    if bridging, context.bridgeWindow {
      bridgeAccess(key, keyPath, anchored: anchored, context)
      if !context.isRecording { return false }
    }
    return anchored
  }

  /// Marks this extent as living in a holder for this thread's tracking session (see `anchoredIn`).
  @usableFromInline
  func anchor() {
    ThreadContext.withCurrent { anchor(in: $0) }
  }

  func anchor(in context: ThreadContext) {
    let session = context.anchorSession
    var marked = anchoredIn.load(ordering: .relaxed)
    while marked < session {
      let (done, found) = anchoredIn.compareExchange(expected: marked, desired: session, ordering: .relaxed)
      if done { return }
      marked = found
    }
  }

  /// Whether a read of this extent in `context`'s session belongs to a holder (see `anchoredIn`):
  /// a holder's read marked it since the session began.
  func isAnchored(in context: ThreadContext) -> Bool {
    let session = context.anchorSession
    return session != 0 && anchoredIn.load(ordering: .relaxed) >= session
  }

  /// `isAnchored(in:)` on this thread.
  @usableFromInline
  var isAnchoredHere: Bool { ThreadContext.withCurrent { isAnchored(in: $0) } }
}

/// Runs `apply`, recording the fields it reads; the first later change of any of them calls
/// `onChange` once, after the change (the new value is readable) and with the fields that changed.
///
/// Like Observation's `withObservationTracking`, but per field of a struct, after the change, and
/// with what changed. Nested calls track for themselves and for the enclosing call.
///
/// ```swift
/// let count = withTracking {
///   model.counter.count
/// } onChange: { change in
///   print("count is now", model.counter.count)
/// }
/// ```
public func withTracking<T, E: Error>(
  _ apply: () throws(E) -> T,
  onChange: @escaping @Sendable (ObservationChange) -> Void
) throws(E) -> T {
  try track(apply, onChange: onChange).result
}

/// `withTracking`, also returning the observer it registered (nil when nothing was read).
func track<T, E: Error>(
  _ apply: () throws(E) -> T,
  onChange: @escaping @Sendable (ObservationChange) -> Void
) throws(E) -> (result: T, observer: Observer?) {
  let context = ThreadContext.current
  let outer = context.scope
  // An observer re-tracking as it fires inside an Observation closure (one that mutated what the
  // observer read) reads for itself, not for that closure: hidden from it, as from our own
  // closure (`startFiring`).
  let hidden = context.bridgeHidden
  if context.isFiring && !hidden { context.hideReadsFromObservationScopeOpenNow() }
  defer { context.bridgeHidden = hidden }
  // Scopes are reused: a tracking call then allocates only its observer.
  let scope = context.spareScopes.popLast() ?? TrackingScope()
  (scope.outer, scope.onChange) = (outer, onChange)
  scope.openedAt = locationMoves.load(ordering: .relaxed)
  // The outermost scope starts a session (`Extent.anchoredIn`), unless it runs inside an
  // Observation closure, whose session it shares (a value taken there is read here). Asked, as a
  // bridge window may have outlived the closure that opened it.
  let session = context.anchorSession
  if context.openScopes.isEmpty, !context.bridgeWindow || !context.observationTracksHere() {
    context.anchorSession = nextAnchorSession()
  }
  context.scope = scope
  context.openScopes.append(scope)
  openTrackingScopes.add(1, ordering: .relaxed)
  defer {
    // A bridge window opened inside keeps the session (it had none of its own).
    if session != 0 || !context.bridgeWindow { context.anchorSession = session }
    openTrackingScopes.subtract(1, ordering: .relaxed)
    context.openScopes.removeLast()
    context.scope = outer
    scope.reset()
    context.spareScopes.append(scope)
  }
  let result: T
  do {
    result = try apply()
  } catch {
    // Nothing it read may call it: an observer registered early is withdrawn. What it read is
    // still the enclosing call's, as its reads before a mutation already are.
    if let observer = scope.observer { withRegistry { garbage in observer.deactivate(&garbage) } }
    outer?.record(contentsOf: scope.accesses)
    throw error
  }
  outer?.record(contentsOf: scope.accesses)
  let pending = scope.takePending()
  guard let early = scope.observer else {
    guard !pending.isEmpty else { return (result, nil) }
    let observer = Observer(onChange: onChange)
    // A change landed between a read and now (another thread, or `apply` itself mutating what it
    // read): it happened after the read, so the observer hears it.
    deliver(register(observer, for: pending, since: scope.openedAt))
    return (result, observer)
  }
  var missed = register(early, for: pending, since: scope.openedAt, later: true)
  // What it heard while the closure ran, heard now.
  let held = withRegistry { _ -> [AnyKeyPath]? in
    early.isTracking = false
    defer { early.heldKeyPaths = nil }
    return early.isActive ? early.heldKeyPaths : nil
  }
  if let held { missed.append(contentsOf: held.isEmpty ? [Delivery(observer: early, keyPath: nil)] : held.map { Delivery(observer: early, keyPath: $0) }) }
  deliver(missed)
  return (result, early)
}

extension TrackingScope {
  /// The accesses without repeats, grouped by extent: a closure may read the same field many
  /// times; registering it once keeps registration and notification proportional to what was read.
  func distinctAccesses() -> [Access] {
    if accesses.count == 1 { return accesses }
    if accesses.count <= 16 {
      var distinct: [Access] = []
      for access in accesses
      where !distinct.contains(where: { $0.extent === access.extent && $0.key == access.key }) {
        distinct.append(access)
      }
      return distinct.sorted { ObjectIdentifier($0.extent) < ObjectIdentifier($1.extent) }
    }
    var seen = Set<AccessKey>()
    return accesses.filter { seen.insert(AccessKey($0)).inserted }
      .sorted { ObjectIdentifier($0.extent) < ObjectIdentifier($1.extent) }
  }
}

/// An access's identity, for deduplication.
struct AccessKey: Hashable {
  let extent: ObjectIdentifier
  let key: FieldKey
  init(_ access: Access) {
    extent = ObjectIdentifier(access.extent)
    key = access.key
  }
}

/// Runs `body` without recording its reads in any enclosing tracking scope, ours or Apple's
/// (reads through holders are not bridged to an Observation scope open around it). A scope opened
/// inside `body` records its own reads as usual; but an Observation scope opened inside `body`
/// while another encloses it sees nothing through holders: Observation would merge its reads
/// into the enclosing scope when it ends.
///
/// ```swift
/// withTracking {
///   render(model.title)
///   untracked { log(model.debugInfo) }   // no subscription to debugInfo
/// } onChange: { _ in ... }
/// ```
public func untracked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
  let context = ThreadContext.current
  let outer = context.scope
  let hidden = context.bridgeHidden
  context.scope = nil
  context.hideReadsFromObservationScopeOpenNow()
  // Counted as a scope, so that reads inside take their slow path, which sees `bridgeHidden`: a
  // store's field read asks Observation through the field's own key path, which it would record.
  openTrackingScopes.add(1, ordering: .relaxed)
  defer {
    openTrackingScopes.subtract(1, ordering: .relaxed)
    context.scope = outer
    context.bridgeHidden = hidden
  }
  return try body()
}
