/// One `withTracking` closure's recorded reads, and the values holders handed out to it.
final class TrackingScope {
  @exclusivity(unchecked) private(set) var accesses: [Access] = []
  /// Values handed out in this scope, by extent serial: reads on them (`store.child.count` reads
  /// `count` on a copy of `child`) belong to the holder's location; other reads are of bare values.
  @exclusivity(unchecked) private(set) var handouts: [UInt64: Handout] = [:]
  /// The last access recorded: an immediate repeat (a loop) is not recorded again.
  @exclusivity(unchecked) private var last: (subscribers: ObjectIdentifier, key: FieldKey)?
  /// The last few reads (see `ThreadContext.repeats`); cleared whenever accesses or handouts change.
  @exclusivity(unchecked) var recentReads = RecentReads()
  /// The enclosing scope, and the callback of reads registered early (see `registerPendingReads`).
  @exclusivity(unchecked) var outer: TrackingScope?
  @exclusivity(unchecked) var onChange: (@Sendable (ObservationChange) -> Void)?
  /// The observer of reads registered early; nil until the closure mutates a holder.
  @exclusivity(unchecked) var observer: Observer?

  func record(_ access: Access) {
    let id = (ObjectIdentifier(access.subscribers), access.key)
    if let last, last == id { return }
    last = id
    accesses.append(access)
  }

  /// Hands out a value anew; only a move to another location changes what a repeated read records.
  func handOut(_ handout: Handout, serial: UInt64) {
    let moved = handouts[serial].map { $0.location !== handout.location } ?? true
    handouts[serial] = handout
    if moved { recentReads.removeAll() }
  }

  func absorb(_ nested: TrackingScope) {
    accesses += nested.accesses
    last = nil
    recentReads.removeAll()
    handouts.merge(nested.handouts) { _, newer in newer }
  }

  func takePending() -> [Access] {
    let pending = distinctAccesses()
    accesses.removeAll(keepingCapacity: true)
    last = nil
    recentReads.removeAll()
    return pending
  }

  /// Registers pending reads early, returning them; the observer holds what it hears till the end.
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

  /// Without repeats: registration and notification stay proportional to what was read.
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

/// A value a holder handed out: its location, and that location's version and bound serial then.
struct Handout {
  let location: Location
  let version: UInt64
  let serial: UInt64
}

/// One tracked read: a key of a place, with its version and, at a location, the value's serial.
struct Access {
  let subscribers: Subscribers
  let key: FieldKey
  let keyPath: AnyKeyPath?
  let version: UInt64
  /// 0 for a box.
  let serial: UInt64

  /// A write reached the place since the read, or the location holds another value: the observer
  /// hears it as it registers. Requires the registry lock.
  var isStale: Bool {
    if subscribers.version.load(ordering: .relaxed) != version { return true }
    guard serial != 0, let location = subscribers as? Location else { return false }
    return location.boundSerial.load(ordering: .relaxed) != serial
  }
}

private struct AccessKey: Hashable {
  let subscribers: ObjectIdentifier
  let key: FieldKey
  init(_ access: Access) {
    subscribers = ObjectIdentifier(access.subscribers)
    key = access.key
  }
}

/// Registers `observer` for distinct `accesses`; returns the deliveries of the stale ones. Nothing
/// for an inactive observer; a key it already has (registered early) is skipped.
private func register(_ observer: Observer, for accesses: [Access]) -> [Delivery] {
  guard !accesses.isEmpty else { return [] }
  #if VALUESTORE_INTERNAL_CHECKS
  defer { _checkRegistration(observer, at: accesses.map(\.subscribers)) }
  #endif
  return withRegistry { _ -> [Delivery] in
    guard observer.isActive else { return [] }
    // A first batch is new everywhere (accesses are distinct); a later one looks each key up.
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
  /// A read now is recorded: a scope is open here, or Apple may track and the read is not hidden.
  @usableFromInline var isRecording: Bool { scope != nil || (window != nil && !hidesReadsFromApple) }

  func handout(of serial: UInt64) -> Handout? {
    var scope = scope
    while let current = scope {
      if let found = current.handouts[serial] { return found }
      scope = current.outer
    }
    return window?.handout(of: serial)
  }

  func handOut(_ extent: Extent, at location: Location, version: UInt64) {
    let handout = Handout(location: location, version: version, serial: extent.serial)
    if let scope { scope.handOut(handout, serial: extent.serial) }
    if let window, !hidesReadsFromApple, window.handOut(handout, serial: extent.serial) { appleRecorder.forgetRecentReads() }
  }

  /// Whether a read of a bare value of lineage `lineage` is recorded, by a scope or for Apple. If
  /// not, nothing is touched: a stale Apple window must not make a box nor hold what is read below.
  func recordsBare(_ lineage: UInt64) -> Bool {
    if scope != nil { return true }
    guard let window, !hidesReadsFromApple else { return false }
    return window.showsBare(lineage)
  }

  func record(_ access: Access, bare serial: UInt64? = nil) {
    scope?.record(access)
    if let window, !hidesReadsFromApple, serial.map(window.showsBare) ?? true {
      AppleObservation.access(access.subscribers, access.key, access.keyPath, self)
    }
  }

  /// Before a holder mutation: open scopes register their reads, so it fires exactly those it changes.
  func registerPendingReads() {
    for scope in openScopes.reversed() {
      let pending = scope.registerPending()
      if let outer = scope.outer { for access in pending { outer.record(access) } }
    }
  }
}

extension Extent {
  /// Records a read of field `key`; an observable value read (or an array's elements) is handed out.
  @inlinable
  func recordRead<T>(_ key: FieldKey, _ keyPath: AnyKeyPath, _ value: T) {
    guard let kind = FieldKind<T>.observable else { return recordRead(key, keyPath, child: nil) }
    recordRead(key, keyPath, child: kind._identity(of: value), elements: kind._unindexedElements(of: value))
  }

  /// Records a read of `key`: at the holder's location if a holder handed this value out in a scope
  /// open here, else in its own box. `child`, `children` and `elements` are handed out below.
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

/// The last four reads recorded (`store.child.count` alternates two).
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

/// A read of `key` on extent `serial`, which read the child extent `child` (0: none).
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
  /// Whether `read` repeats a recent one of everything recording here: recording it adds nothing.
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

  /// Hands out `child`, read at `step` from `parent`, below it; bound there if the parent is current.
  @discardableResult
  func handOut(_ child: Extent, below parent: Handout, at step: LocationStep) -> (location: Location, version: UInt64) {
    // Already bound at its step's location: a change since moves the version read here.
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

  /// Hands out a plain array's elements, by position below the array's location.
  func handOut(_ elements: [ObservationIdentity], below parent: Handout, at step: LocationStep) {
    let current = parent.location.boundSerial.load(ordering: .relaxed) == parent.serial
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

  /// A holder's read of its root (`extent` nil for an enum or optional root): bound and handed out.
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

/// Runs `apply`, recording the fields it reads; the first later change of any calls `onChange`
/// once, after the change (the new value is readable), with the fields that changed.
///
/// Like `withObservationTracking`, but per field; nested calls track for the enclosing call too.
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

/// `withTracking`, also returning its observer (nil when nothing was read).
func track<T, E: Error>(
  _ apply: () throws(E) -> T,
  onChange: @escaping @Sendable (ObservationChange) -> Void
) throws(E) -> (result: T, observer: Observer?) {
  let context = ThreadContext.current
  let outer = context.scope
  // An observer re-tracking as it fires reads for itself: hidden from Apple's closure, as from ours.
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
    // Nothing it read may call it (an early observer is withdrawn); its reads stay the enclosing call's.
    if let observer = scope.observer { withRegistry { garbage in observer.deactivate(&garbage) } }
    outer?.absorb(scope)
    throw error
  }
  outer?.absorb(scope)
  let pending = scope.takePending()
  guard let early = scope.observer else {
    guard !pending.isEmpty else { return (result, nil) }
    let observer = Observer(onChange: onChange)
    // A change between a read and now (another thread, or `apply` itself): heard now.
    deliver(register(observer, for: pending))
    return (result, observer)
  }
  var missed = register(early, for: pending)
  if let held = withRegistry({ _ in early.stopTracking() }) {
    missed += held.isEmpty ? [Delivery(observer: early, keyPath: nil)] : held.map { Delivery(observer: early, keyPath: $0) }
  }
  deliver(missed)
  return (result, early)
}

/// Runs `body` without recording its reads in any enclosing tracking scope, ours or Apple's.
///
/// A scope opened inside records as usual, except an Observation scope nested in another: it sees
/// nothing through holders (Observation would merge its reads into the enclosing scope).
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
  // Hidden from an Observation scope open now (asked: a window may outlive it), not one inside `body`.
  if context.askApple() { context.hidesReadsFromApple = true }
  defer {
    context.scope = outer
    context.hidesReadsFromApple = hidden
  }
  return try body()
}
