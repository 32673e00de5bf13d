/// The reads recorded while a `withTracking` closure runs on this thread, and the values holders
/// handed out to it.
final class TrackingScope {
  @exclusivity(unchecked) private(set) var accesses: [Access] = []
  /// The values a holder handed out in this scope, by extent serial: reads made on them (on the
  /// copies the holder returned: `store.child.count` reads `count` on a copy of `child`) belong to
  /// the holder's location. Any other read is of a bare value.
  @exclusivity(unchecked) private(set) var handouts: [UInt64: Handout] = [:]
  /// The last access recorded: a read repeating it at once (a loop, a body reading `store.count`
  /// twice) is not recorded again.
  @exclusivity(unchecked) private var last: (subscribers: ObjectIdentifier, key: FieldKey)?
  /// The last few reads recorded (see `ThreadContext.repeats`). Forgotten whenever accesses or
  /// handouts change otherwise.
  @exclusivity(unchecked) var recentReads = RecentReads()
  /// The enclosing scope on this thread, and what a change calls: for the reads registered
  /// before the closure ends (see `registerPendingReads`).
  @exclusivity(unchecked) var outer: TrackingScope?
  @exclusivity(unchecked) var onChange: (@Sendable (ObservationChange) -> Void)?
  /// The observer of the reads registered so far; nil until the closure mutates a holder (the
  /// usual case: everything is registered at its end).
  @exclusivity(unchecked) var observer: Observer?

  func record(_ access: Access) {
    let id = (ObjectIdentifier(access.subscribers), access.key)
    if let last, last == id { return }
    last = id
    accesses.append(access)
  }

  /// Hands out a value (again: the holder read it anew, reads on it are as new as this). Only a
  /// value handed out at another location than before changes what a repeated read records.
  func handOut(_ handout: Handout, serial: UInt64) {
    let moved = handouts[serial].map { $0.location !== handout.location } ?? true
    handouts[serial] = handout
    if moved { recentReads.removeAll() }
  }

  /// Adds a nested scope's reads and handouts: the enclosing call tracks them too.
  func absorb(_ nested: TrackingScope) {
    accesses += nested.accesses
    last = nil
    recentReads.removeAll()
    handouts.merge(nested.handouts) { _, newer in newer }
  }

  /// The accesses to register now, without repeats; the scope keeps none of them.
  func takePending() -> [Access] {
    let pending = distinctAccesses()
    accesses.removeAll(keepingCapacity: true)
    last = nil
    recentReads.removeAll()
    return pending
  }

  /// Registers this scope's pending reads before its closure ends; returns them (they are the
  /// enclosing scope's reads too). Its observer holds what it hears until the closure ends.
  func registerPending() -> [Access] {
    if observer == nil { observer = Observer(onChange: onChange!, tracking: true) }
    let pending = takePending()
    deliver(register(observer!, for: pending))
    return pending
  }

  func reset() {
    accesses.removeAll(keepingCapacity: true)
    handouts.removeAll(keepingCapacity: true)
    last = nil
    recentReads.removeAll()
    (outer, onChange, observer) = (nil, nil, nil)
  }

  /// The accesses without repeats: a closure may read the same key many times; registering it
  /// once keeps registration and notification proportional to what was read.
  private func distinctAccesses() -> [Access] {
    if accesses.count <= 1 { return accesses }
    if accesses.count <= 16 {  // a scan is cheaper than hashing
      var distinct: [Access] = []
      distinct.reserveCapacity(accesses.count)
      for access in accesses where !distinct.contains(where: { $0.subscribers === access.subscribers && $0.key == access.key }) {
        distinct.append(access)
      }
      return distinct
    }
    var seen = Set<AccessKey>()
    return accesses.filter { seen.insert(AccessKey($0)).inserted }
  }
}

/// A value a holder handed out: the location it is at, and that location's version and bound
/// serial when it was handed out (a read made on it later is as old as that).
struct Handout {
  let location: Location
  let version: UInt64
  let serial: UInt64
}

/// One tracked read: a key of a place (a location, or a bare value's box), with the place's
/// version — and, for a location, the serial of the value read — when it was read.
struct Access {
  let subscribers: Subscribers
  let key: FieldKey
  let keyPath: AnyKeyPath?
  let version: UInt64
  /// The serial of the value read at a location (0 for a box).
  let serial: UInt64

  /// A write reached the place since the read, or the location holds another value now: a
  /// registration would miss it, so the observer hears it as it registers. Requires the
  /// registry lock.
  var isStale: Bool {
    if subscribers.version.load(ordering: .relaxed) != version { return true }
    guard serial != 0, let location = subscribers as? Location else { return false }
    return location.boundSerial.load(ordering: .relaxed) != serial
  }
}

/// An access's identity, for deduplication.
private struct AccessKey: Hashable {
  let subscribers: ObjectIdentifier
  let key: FieldKey
  init(_ access: Access) {
    subscribers = ObjectIdentifier(access.subscribers)
    key = access.key
  }
}

/// Registers `observer` for `accesses` (distinct) and returns the deliveries of the stale ones (a
/// change landed between the read and now: the observer hears it). Nothing for an observer that
/// fired already; a key it is registered for already (registered early) is not registered twice.
private func register(_ observer: Observer, for accesses: [Access]) -> [Delivery] {
  guard !accesses.isEmpty else { return [] }
  #if VALUESTORE_INTERNAL_CHECKS
  defer { _checkRegistration(observer, at: accesses.map(\.subscribers)) }
  #endif
  return withRegistry { _ -> [Delivery] in
    guard observer.isActive else { return [] }
    // An observer's first registrations are new everywhere (its accesses are distinct); a later
    // batch (after reads registered before a mutation) looks each up.
    let isFirst = observer.places.isEmpty
    var missed: [Delivery] = []
    for access in accesses {
      if !isFirst, access.subscribers.contains(observer, key: access.key) { continue }
      observer.didRegister(on: access.subscribers)
      access.subscribers.register(observer, key: access.key, keyPath: access.keyPath)
      if access.isStale { missed.append(Delivery(observer: observer, keyPath: access.keyPath)) }
    }
    return missed
  }
}

extension ThreadContext {
  /// Whether a read made now is recorded: a tracking scope is open on this thread, or Apple's
  /// Observation may track here and the read is not hidden from it.
  @usableFromInline var isRecording: Bool { scope != nil || (window != nil && !hidesReadsFromApple) }

  /// The value with extent serial `serial`, if a holder handed it out to a scope open on this
  /// thread (or to Apple's window).
  func handout(of serial: UInt64) -> Handout? {
    var scope = scope
    while let current = scope {
      if let found = current.handouts[serial] { return found }
      scope = current.outer
    }
    return window?.handout(of: serial)
  }

  /// Hands out a value with extent `extent` at `location` (whose version and bound serial are
  /// `version` and `serial`).
  func handOut(_ extent: Extent, at location: Location, version: UInt64) {
    let handout = Handout(location: location, version: version, serial: extent.serial)
    if let scope { scope.handOut(handout, serial: extent.serial) }
    if let window, !hidesReadsFromApple, window.handOut(handout, serial: extent.serial) { appleRecorder.forgetRecentReads() }
  }

  /// Whether a read of a bare value whose lineage began with extent serial `lineage` is recorded:
  /// by a scope, or shown to Apple's Observation. One that is not touches nothing (an Apple window
  /// left open after its closure must not make a bare value's box, nor hold what is read below).
  func recordsBare(_ lineage: UInt64) -> Bool {
    if scope != nil { return true }
    guard let window, !hidesReadsFromApple else { return false }
    return window.showsBare(lineage)
  }

  /// Records `access` in the innermost scope, and tells Apple's Observation of a read at a
  /// location if it may be tracking.
  func record(_ access: Access, bare serial: UInt64? = nil) {
    scope?.record(access)
    if let window, !hidesReadsFromApple, serial.map(window.showsBare) ?? true {
      AppleObservation.access(access.subscribers, access.key, access.keyPath, self)
    }
  }

  /// Before a holder mutation on this thread: the reads its tracking scopes made so far are
  /// registered now, so that the mutation notifies them exactly — a read it changes fires the
  /// observer, the others stay.
  func registerPendingReads() {
    for scope in openScopes.reversed() {
      let pending = scope.registerPending()
      if let outer = scope.outer { for access in pending { outer.record(access) } }
    }
  }
}

// MARK: - Recording reads

extension Extent {
  /// Records a tracked read of the field `key` of this value, whose value is `value`: an
  /// observable value read is handed out in turn (and so are a plain array's elements).
  @inlinable
  func recordRead<T>(_ key: FieldKey, _ keyPath: AnyKeyPath, _ value: T) {
    guard let kind = FieldKind<T>.observable else { return recordRead(key, keyPath, child: nil) }
    recordRead(key, keyPath, child: kind._identity(of: value), elements: kind._unindexedElements(of: value))
  }

  /// Records a tracked read of `key` on this value: at its holder's location if a holder handed
  /// it out in a scope open here, else in its own box. `child`: the identity of the observable
  /// value read, which is handed out in turn (at the location below).
  @usableFromInline @inline(never)
  func recordRead(
    _ key: FieldKey, _ keyPath: AnyKeyPath?, child: ObservationIdentity?,
    children: [(step: LocationStep, identity: ObservationIdentity)] = [], elements: [ObservationIdentity] = []
  ) {
    ThreadContext.withCurrent { context in
      guard context.isRecording else { return }
      let read = Read(serial: serial, key: key, child: child?.serial ?? 0)
      let repeatable = children.isEmpty && elements.isEmpty
      if repeatable, context.repeats(read) { return }
      defer { if repeatable { context.recorded(read) } }
      if let handout = context.handout(of: serial) {
        let access = Access(
          subscribers: handout.location, key: key, keyPath: keyPath, version: handout.version, serial: handout.serial)
        context.record(access)
        if let child = child?.extent { context.handOut(child, below: handout, at: .field(key)) }
        for (step, identity) in children {
          if let child = identity.extent { context.handOut(child, below: handout, at: step) }
        }
        if !elements.isEmpty { context.handOut(elements, below: handout, at: .field(key)) }
      } else if context.recordsBare(lineageSerial) {
        let box = makeBox()
        context.record(
          Access(subscribers: box, key: key, keyPath: keyPath, version: box.version.load(ordering: .relaxed), serial: 0),
          bare: lineageSerial)
        if child?.unmanagedExtent != nil || !children.isEmpty {
          withRegistry { garbage in
            if let child = child?.extent { box.read(child, at: .field(key), &garbage) }
            for (step, identity) in children {
              if let child = identity.extent { box.read(child, at: step, &garbage) }
            }
          }
        }
      }
    }
  }
}

/// The last few reads recorded (a chain such as `store.child.count` alternates two): a read among
/// them repeats one.
struct RecentReads {
  private var reads: (Read?, Read?, Read?, Read?) = (nil, nil, nil, nil)
  private var next = 0

  func contains(_ read: Read) -> Bool {
    reads.0 == read || reads.1 == read || reads.2 == read || reads.3 == read
  }

  mutating func insert(_ read: Read) {
    if contains(read) { return }
    switch next {
    case 0: reads.0 = read
    case 1: reads.1 = read
    case 2: reads.2 = read
    default: reads.3 = read
    }
    next = (next + 1) & 3
  }

  mutating func removeAll() { self = RecentReads() }
}

/// A tracked read: of `key` on the value with extent serial `serial`, which read a child with
/// extent serial `child` (0: none).
@usableFromInline
struct Read: Equatable {
  let serial: UInt64
  let key: FieldKey
  let child: UInt64

  @usableFromInline
  init(serial: UInt64, key: FieldKey, child: UInt64) {
    (self.serial, self.key, self.child) = (serial, key, child)
  }
}

extension ThreadContext {
  /// Whether `read` repeats one of the last reads recorded by everything recording reads on this thread
  /// now (the innermost scope, Apple's closure): recording it again would record the same access
  /// and hand out the same child — a loop, a body reading `store.count` twice.
  func repeats(_ read: Read) -> Bool {
    let apple = window != nil && !hidesReadsFromApple
    if let scope, !scope.recentReads.contains(read) {
      if apple { appleRecorder.startsRead(read) }
      return false
    }
    if apple { return appleRecorder.repeats(read) }
    return scope != nil
  }

  func recorded(_ read: Read) {
    scope?.recentReads.insert(read)
    if window != nil, !hidesReadsFromApple { appleRecorder.recorded(read) }
  }

  /// Hands out `child`, read at `step` from the value of `parent`: at the location below, bound
  /// to it if the parent still holds its value there (the holder has not moved on since).
  @discardableResult
  func handOut(_ child: Extent, below parent: Handout, at step: LocationStep) -> (location: Location, version: UInt64) {
    // Bound in the tree, the child is at its step's location (Slot.location); a change since
    // moves the version read here.
    if let location = child.boundLiveLocation, parent.location.boundSerial.load(ordering: .relaxed) == parent.serial {
      let version = location.version.load(ordering: .relaxed)
      handOut(child, at: location, version: version)
      return (location, version)
    }
    let (location, version) = withRegistry { garbage -> (Location, UInt64) in
      let location = parent.location.child(step)
      if parent.location.boundSerial.load(ordering: .relaxed) == parent.serial, !location.isBound(to: child) {
        _ = child.bind(to: location, &garbage)
      }
      return (location, location.version.load(ordering: .relaxed))
    }
    handOut(child, at: location, version: version)
    return (location, version)
  }

  /// Hands out the elements of a plain array read at `step` from the value of `parent`, by
  /// position below the array's location.
  func handOut(_ elements: [ObservationIdentity], below parent: Handout, at step: LocationStep) {
    let current = withRegistry { _ in parent.location.boundSerial.load(ordering: .relaxed) == parent.serial }
    let array = withRegistry { _ in parent.location.child(step) }
    for (offset, identity) in elements.enumerated() {
      guard let element = identity.extent else { continue }
      let (location, version) = withRegistry { garbage -> (Location, UInt64) in
        let location = array.child(.index(offset))
        if current, !location.isBound(to: element) { _ = element.bind(to: location, &garbage) }
        return (location, location.version.load(ordering: .relaxed))
      }
      handOut(element, at: location, version: version)
    }
  }

  /// A holder's read of its root, whose extent is `extent` (nil for a root with none: an enum, an
  /// optional), at `location`: the root is bound there, and handed out.
  func handOutRoot(_ extent: Extent?, at location: Location) {
    guard let extent else { return }
    if location.isBound(to: extent), extent.location.holds(location.link) {
      return handOut(extent, at: location, version: location.version.load(ordering: .relaxed))
    }
    let version = withRegistry { garbage -> UInt64 in
      if !location.isBound(to: extent) { _ = extent.bind(to: location, &garbage) }
      return location.version.load(ordering: .relaxed)
    }
    handOut(extent, at: location, version: version)
  }
}

// MARK: - withTracking

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
  // An observer re-tracking as it fires reads for itself, not for an Observation closure that
  // made the change: hidden from it, as from our own closure (`drainPending` set ours aside).
  let hidden = context.hidesReadsFromApple
  if context.isFiring { context.hidesReadsFromApple = true }
  // Scopes are reused: a tracking call then allocates only its observer.
  let scope = context.spareScopes.popLast() ?? TrackingScope()
  (scope.outer, scope.onChange) = (outer, onChange)
  context.scope = scope
  context.openScopes.append(scope)
  openTrackingScopes.add(1, ordering: .relaxed)
  defer {
    context.hidesReadsFromApple = hidden
    openTrackingScopes.subtract(1, ordering: .relaxed)
    context.openScopes.removeLast()
    context.scope = outer
    // Apple's closure, if it encloses this one, reads the values handed out here too.
    if outer == nil, let window = context.window, !hidden {
      window.absorb(scope.handouts)
      context.appleRecorder.forgetRecentReads()
    }
    scope.reset()
    context.spareScopes.append(scope)
  }
  let result: T
  do {
    result = try apply()
  } catch {
    // Nothing it read may call it: an observer registered early is withdrawn. What it read is
    // still the enclosing call's.
    if let observer = scope.observer { withRegistry { garbage in observer.deactivate(&garbage) } }
    outer?.absorb(scope)
    throw error
  }
  outer?.absorb(scope)
  let pending = scope.takePending()
  guard let early = scope.observer else {
    guard !pending.isEmpty else { return (result, nil) }
    let observer = Observer(onChange: onChange)
    // A change landed between a read and now (another thread, or `apply` itself mutating what it
    // read): it happened after the read, so the observer hears it.
    deliver(register(observer, for: pending))
    return (result, observer)
  }
  var missed = register(early, for: pending)
  // What it heard while the closure ran, heard now.
  if let held = withRegistry({ _ in early.stopTracking() }) {
    missed += held.isEmpty ? [Delivery(observer: early, keyPath: nil)] : held.map { Delivery(observer: early, keyPath: $0) }
  }
  deliver(missed)
  return (result, early)
}

/// Runs `body` without recording its reads in any enclosing tracking scope, ours or Apple's. A
/// scope opened inside `body` records its own reads as usual — but an Observation scope opened
/// inside `body` while another encloses it sees nothing through holders: Observation would merge
/// its reads into the enclosing scope when it ends.
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
  let hidden = context.hidesReadsFromApple
  context.scope = nil
  // Hidden from an Observation scope open now (asked: a window may outlive its scope), not from
  // one opened inside `body`.
  if context.askApple() { context.hidesReadsFromApple = true }
  defer {
    context.scope = outer
    context.hidesReadsFromApple = hidden
  }
  return try body()
}
