import Observation
import Synchronization

/// What Apple's Observation subscribed to at one place (a location or a bare value's box): an
/// `Observable` whose registrar its scopes subscribe to, and the records of its reads here, by key.
/// One-shot (Documentation/Core.md, "Apple's Observation"): Observation alone may call a scope's `onChange` more than once, so each
/// read it records here is a key path of its own (an `AppleRecord`) in its closure's run (an
/// `AppleRun`), fired at most once, after the run is claimed for the changing thread: for good by
/// another thread, until the delivery ends by the recording one (records reached meanwhile are
/// deferred to its end). A record fires only once registered; until then it waits for its key's
/// next change, as a late scope of an `@Observable` property does.
@usableFromInline
final class AppleSubscriptions: Observable, @unchecked Sendable {  // guarded by `registry`
  @usableFromInline let registrar = ObservationRegistrar()
  /// Names it for its thread's recorder.
  let serial = nextAppleSerial.add(1, ordering: .relaxed).newValue
  /// Whether Observation ever accessed a key here: a change then asks which.
  let isObserved = Atomic<Bool>(false)
  /// The records of each key read here not yet fired or dropped.
  @exclusivity(unchecked) private var keys: [FieldKey: Records] = [:]
  /// Called once, when Observation first accesses a key here (a location mirrors it for writes).
  @exclusivity(unchecked) var onObserved: (@Sendable () -> Void)?

  subscript(apple _: AppleKey) -> Int { 0 }
  subscript(_: TrackingDetector) -> Void { () }
  /// The key path a holder's read asks Observation to record (see `TrackingProbe`).
  @usableFromInline static let detector = \AppleSubscriptions.[TrackingDetector()]

  /// The runs whose key paths are queued or being delivered, by key path, with how many times.
  @exclusivity(unchecked) private var delivering: [ObjectIdentifier: (run: AppleRun, count: Int)] = [:]

  /// Lists `read`, which Observation recorded, as a read of `key`. Requires the registry lock.
  func list(_ read: AppleRead, for key: FieldKey) {
    if !isObserved.load(ordering: .relaxed) {
      isObserved.store(true, ordering: .relaxed)
      onObserved?()
    }
    keys[key, default: Records()].append(read)
  }

  /// The key paths to fire for a change on `thread` of the keys `changes` write: registered records
  /// whose run it may claim, and those of a run delivering on `thread` (its `onChange` made the
  /// change; Observation, not cancelled yet, hears it). Requires the registry lock.
  func keyPaths(changing changes: [Change], on thread: ObjectIdentifier) -> [KeyPath<AppleSubscriptions, Int>] {
    var fired: [(KeyPath<AppleSubscriptions, Int>, AppleRun)] = []
    for index in keys.indices where changes.contains(where: { keys.keys[index].matches($0.key) }) {
      keys.values[index].take(into: &fired, on: thread, at: self)
    }
    for (keyPath, run) in fired { queue(keyPath, of: run) }
    return fired.map(\.0)
  }

  /// `keyPath`, of `run`, is to be delivered. Requires the registry lock.
  func queue(_ keyPath: KeyPath<AppleSubscriptions, Int>, of run: AppleRun) {
    run.pending += 1
    delivering[ObjectIdentifier(keyPath), default: (run, 0)].count += 1
  }

  /// `keyPath`'s notification starts being delivered on `thread` (`true`) or ended (`false`).
  /// Returns its run once none of its notifications is pending. Requires the registry lock.
  func delivers(_ keyPath: KeyPath<AppleSubscriptions, Int>, on thread: ObjectIdentifier, _ starts: Bool) -> AppleRun? {
    let id = ObjectIdentifier(keyPath)
    guard let (run, count) = delivering[id] else { return nil }
    if starts {
      run.deliveringOn = thread
      run.depth += 1
      return nil
    }
    delivering[id] = count == 1 ? nil : (run, count - 1)
    run.depth -= 1
    if run.depth == 0 { run.deliveringOn = nil }
    run.pending -= 1
    return run.pending == 0 ? run : nil
  }

  /// How many keys Observation accessed here (for tests). Requires the registry lock.
  var keyCount: Int { keys.count }

  private struct Records {
    private var entries: [AppleRead] = []
    /// Dropped records are pruned past this size (a key never changed keeps no record of every reader).
    private var pruneAt = 8

    mutating func append(_ read: AppleRead) {
      if entries.count >= pruneAt {
        entries.removeAll { $0.isDropped }
        pruneAt = max(8, 2 * entries.count)
      }
      entries.append(read)
    }

    /// A run claimed by this thread's change and not delivered yet defers the records this
    /// change reaches too: its closure, called, may make changes before Observation cancels it.
    mutating func take(
      into fired: inout [(KeyPath<AppleSubscriptions, Int>, AppleRun)], on thread: ObjectIdentifier,
      at place: AppleSubscriptions
    ) {
      entries.removeAll { entry in
        if entry.isDropped { return true }
        let run = entry.run
        let record = entry.record
        guard record.isRegistered else { return false }
        if run.depth > 0, run.deliveringOn == thread {
          fired.append((entry.keyPath, run))
        } else if !record.isFired, run.claimedBy == nil || run.claimedBy == thread {
          record.isFired = true
          if run.claimedBy == thread {
            run.deferred.append((place, entry.keyPath))
          } else {
            run.claimedBy = thread
            fired.append((entry.keyPath, run))
          }
        }
        return false
      }
    }
  }
}

private let nextAppleSerial = Atomic<UInt64>(0)

/// A record's key path argument: hashing it tells the record Observation recorded or registered it.
struct AppleKey: Hashable, @unchecked Sendable {
  let record: AppleRecord
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.record === rhs.record }
  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(record))
    record.hashed()
  }
}

/// One read of a key at a place by one Observation closure, with a key path of its own
/// (`\AppleSubscriptions.[apple: AppleKey(record:)]`, costly to make: reused once its closure was
/// called and cancelled, `AppleRun.finish`, one generation per use). Observation hashes it on its
/// thread when it records it (inside our `access`) and when it registers it (as the closure
/// returns, under the registrar's lock, so a `withMutation` that finds it registered runs after).
/// Any other hash — on another thread, or of a record waiting for reuse — comes from a registration
/// Observation kept (its one-shot bug leaves a tracking registered for good, and its tables rehash
/// their key paths as they grow): it registers nothing, and the record, whose key path Observation
/// may still call, is never reused.
final class AppleRecord: @unchecked Sendable {
  /// Its thread's recording state (whether our `access` runs, whether its run is registered).
  private let state: AppleRecorder.State
  /// Observation's closure recorded it (its own thread's).
  @exclusivity(unchecked) var isRecorded = false
  /// Listed at its place (its own thread's).
  @exclusivity(unchecked) var isListed = false
  private let registered = Atomic<Bool>(false)
  /// Its key path was fired. Guarded by the registry.
  @exclusivity(unchecked) var isFired = false
  /// How many times it was reused. Written by its thread under the registry lock.
  @exclusivity(unchecked) private(set) var generation = 0

  private init(state: AppleRecorder.State) { self.state = state }

  static func make(_ state: AppleRecorder.State) -> (AppleRecord, KeyPath<AppleSubscriptions, Int>) {
    let record = AppleRecord(state: state)
    return (record, \AppleSubscriptions.[apple: AppleKey(record: record)])
  }

  var isRegistered: Bool { registered.load(ordering: .acquiring) }

  /// Ready for reuse: its closure was called and cancelled. Its thread's, under the registry lock.
  func reset() {
    generation += 1
    isPooled = true
    isFired = false
    isRecorded = false
    isListed = false
    registered.store(false, ordering: .relaxed)
  }

  /// Waits for reuse (its thread's): a hash of it now is a kept registration's.
  @exclusivity(unchecked) var isPooled = false
  /// Hashed where no closure of its thread could have (see above): never reused.
  private let isKept = Atomic<Bool>(false)
  var isReusable: Bool { !isKept.load(ordering: .relaxed) }

  /// Observation hashed the record's key path: recorded while our `access` runs, else registered
  /// (see above). Its closure's run then ends: a later read on the thread is another closure's.
  func hashed() {
    guard state.isItsThread, !isPooled else { return isKept.store(true, ordering: .relaxed) }
    if state.accessing {
      isRecorded = true
      state.sawTracking = true
    } else if !registered.load(ordering: .relaxed) {
      if !state.isSealed {
        state.isSealed = true
        state.sealedInside = state.appleTracks()
      }
      registeredInside = state.sealedInside
      registered.store(true, ordering: .releasing)
    }
  }

  /// Registered while an Observation closure ran on its thread: by a nested closure. Its thread's.
  @exclusivity(unchecked) private(set) var registeredInside = false
}

/// How a registration tells whether an Observation closure encloses it: asked with `access`,
/// Observation records its key path only inside a closure, and hashes it then.
final class AppleNesting: Observable, Sendable {
  let registrar = ObservationRegistrar()
  subscript(_: Detector) -> Int { 0 }
  static let keyPath = \AppleNesting.[Detector()]

  struct Detector: Hashable, Sendable {
    static func == (_: Self, _: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {
      ThreadContext.withCurrent { $0.appleRecorder.state.sawTracking = true }
    }
  }
}

/// A read as listed at its place: its record (in the generation it had), key path and run.
struct AppleRead {
  let run: AppleRun
  let record: AppleRecord
  let keyPath: KeyPath<AppleSubscriptions, Int>
  let generation: Int

  /// Its record was reused, or its run will not fire again. Requires the registry lock.
  var isDropped: Bool { generation != record.generation || run.isDone }
}

/// The reads an Observation closure recorded, with those of nested closures before it registered.
final class AppleRun: @unchecked Sendable {
  /// Its thread (`AppleRecorder.thread`).
  let thread: ObjectIdentifier
  /// Its records, with their key paths. Its thread's (changed under the registry lock).
  @exclusivity(unchecked) var records: [(AppleRecord, KeyPath<AppleSubscriptions, Int>)] = []
  /// The thread whose change claimed it, until its delivery there ended. Guarded by the registry.
  @exclusivity(unchecked) var claimedBy: ObjectIdentifier?
  /// Delivered on another thread: none of its records fires again. Guarded by the registry.
  @exclusivity(unchecked) var isDone = false
  /// Notifications of its key paths queued or being delivered. Guarded by the registry.
  @exclusivity(unchecked) var pending = 0
  /// The thread delivering its notification now, and how deeply. Guarded by the registry.
  @exclusivity(unchecked) var deliveringOn: ObjectIdentifier?
  @exclusivity(unchecked) var depth = 0
  /// Records a change reached while the delivery on the claiming thread was pending, fired once it
  /// ends. Guarded by the registry.
  @exclusivity(unchecked) var deferred: [(AppleSubscriptions, KeyPath<AppleSubscriptions, Int>)] = []

  init(thread: ObjectIdentifier) { self.thread = thread }

  /// Registered by one closure: none of its records was registered while an Observation closure
  /// ran on its thread, so no closure nested in another shares it. Its thread's.
  var isOneClosure: Bool {
    records.allSatisfy { $0.0.isRegistered && !$0.0.registeredInside }
  }

  /// Its notifications were delivered on `thread`: on another thread the run is done; on its own the
  /// claim ends, and a run of one closure is over (called and cancelled), all its records reused.
  /// Otherwise deferred records are claimed again and returned to fire (a nested closure may have
  /// registered them), and fired ones may fire again while an Observation closure runs (`appleTracks`)
  /// or are reset and returned for reuse. Requires the registry lock.
  func finish(
    on thread: ObjectIdentifier, isOneClosure: Bool, appleTracks: Bool
  ) -> (reusable: [(AppleRecord, KeyPath<AppleSubscriptions, Int>)], deferred: [(AppleSubscriptions, KeyPath<AppleSubscriptions, Int>)]) {
    var deferred: [(AppleSubscriptions, KeyPath<AppleSubscriptions, Int>)] = []
    swap(&deferred, &self.deferred)
    guard thread == self.thread else {
      isDone = true
      return ([], [])
    }
    claimedBy = nil
    var reusable: [(AppleRecord, KeyPath<AppleSubscriptions, Int>)] = []
    if isOneClosure {
      for entry in records { entry.0.reset() }
      swap(&reusable, &records)
      return (reusable, [])
    }
    if !deferred.isEmpty {
      claimedBy = thread
      for (place, keyPath) in deferred { place.queue(keyPath, of: self) }
    }
    records.removeAll { entry in
      guard entry.0.isFired else { return false }
      if appleTracks {
        entry.0.isFired = false
        return false
      }
      guard !deferred.contains(where: { $0.1 === entry.1 }) else { return false }
      entry.0.reset()
      reusable.append(entry)
      return true
    }
    return (reusable, deferred)
  }
}

/// One thread's recording of reads for Apple's Observation: its current run, and its records by
/// place and key (a closure reading a key twice records one key path).
final class AppleRecorder: @unchecked Sendable {  // its thread's own
  /// What a record asks when Observation hashes it; its own object, so records keep no run alive.
  final class State: @unchecked Sendable {  // its thread's own
    /// Set while our `access` runs on this thread (see `AppleRecord.hashed`).
    @exclusivity(unchecked) var accessing = false
    /// The current run was registered: a later read on the thread starts a new run.
    @exclusivity(unchecked) var isSealed = true
    /// It was, while an Observation closure ran on the thread (see `AppleRun.finish`).
    @exclusivity(unchecked) var sealedInside = false
    /// Set when Observation records a key path of ours here: a record's, or `AppleNesting`'s.
    @exclusivity(unchecked) var sawTracking = false
    private let nesting = AppleNesting()
    /// Whether it is the calling thread's: its context's (an exited thread's id may be reused).
    var isItsThread: Bool { ThreadContext.withExisting { $0?.appleRecorder.state === self } }

    /// Whether an Observation closure runs on this thread now.
    func appleTracks() -> Bool {
      sawTracking = false
      nesting.registrar.access(nesting, keyPath: AppleNesting.keyPath)
      return sawTracking
    }
  }

  let state = State()
  var thread: ObjectIdentifier { ObjectIdentifier(self) }
  @exclusivity(unchecked) private var run: AppleRun?
  @exclusivity(unchecked) private var records: [Place: AppleRead] = [:]
  @exclusivity(unchecked) private var pool: [(AppleRecord, KeyPath<AppleSubscriptions, Int>)] = []
  /// How many records this thread made, and how many wait for reuse (for tests).
  @exclusivity(unchecked) private(set) var made = 0
  var pooled: Int { pool.count }
  /// The key paths of the records waiting for reuse (for tests).
  var pooledKeyPaths: [AnyKeyPath] { pool.map(\.1) }

  private struct Place: Hashable {
    let place: UInt64  // `AppleSubscriptions.serial`: never reused, unlike an object's address
    let key: FieldKey
  }

  /// The last few reads of the current run, each with the records Observation recorded for it
  /// (forgotten when a run starts). A repeated read records nothing of ours, but its key paths are
  /// recorded again: a nested closure shares the run, not its access list.
  @exclusivity(unchecked) private var recent: [(read: Read, accesses: [Access])] = []
  @exclusivity(unchecked) private var accessesSinceRead: [Access] = []
  /// How many accesses the read being made has asked for (for tests: reads end by clearing them).
  var accessesOfCurrentRead: Int { accessesSinceRead.count }
  /// Weakly: a closure's scopes subscribed at a place go with its holder.
  struct Access {
    weak var place: AppleSubscriptions?
    let read: AppleRead
    let key: FieldKey
  }

  /// A run of reads recorded and not registered yet: its closure still runs.
  var hasOpenRun: Bool { run != nil && !state.isSealed }

  /// Observation was asked to record `read` of `key` at `place` for the read being made.
  func accessed(_ read: AppleRead, of key: FieldKey, at place: AppleSubscriptions) {
    accessesSinceRead.append(Access(place: place, read: read, key: key))
  }

  /// `read` starts: the accesses made from now on belong to it (a holder's field read asks
  /// twice: for the holder's read of its value, and for the field's).
  func startsRead(_ read: Read) {
    if reading == read { return }
    reading = read
    accessesSinceRead.removeAll(keepingCapacity: true)
  }
  @exclusivity(unchecked) private var reading: Read?

  /// Starts `read`; whether it repeats a recent read of the open run (its records recorded again).
  func repeats(_ read: Read) -> Bool {
    startsRead(read)
    guard hasOpenRun, let index = recent.firstIndex(where: { $0.read == read }) else { return false }
    // In place, through a mutable base address: a subscript copies the access, and so its weak
    // reference. Nothing below touches `recent`.
    let isTracked = recent[index].accesses.withUnsafeMutableBufferPointer { accesses in
      guard let base = accesses.baseAddress else { return true }
      for access in 0..<accesses.count {
        guard let place = base[access].place else { continue }
        if !AppleObservation.access(base[access].read, of: base[access].key, at: place, self) { return false }
      }
      return true
    }
    if !isTracked { ThreadContext.current.appleStoppedTracking() }
    return true
  }

  func recorded(_ read: Read) {
    defer {
      accessesSinceRead.removeAll(keepingCapacity: true)
      reading = nil
    }
    guard hasOpenRun else { return recent.removeAll() }
    if recent.count == 4 { recent.removeFirst() }
    recent.append((read, accessesSinceRead))
  }

  func forgetRecentReads() { recent.removeAll() }

  /// Observation did not record the current run's first read (it does not track here): the run is
  /// dropped and its records reused (nothing registered them), so no later read counts as inside a
  /// closure. A run Observation recorded reads of stays until it registers them.
  func dropUnrecordedRun() {
    guard let run, !state.isSealed, !run.records.contains(where: { $0.0.isRecorded }) else { return }
    self.run = nil
    state.isSealed = true
    records.removeAll(keepingCapacity: true)
    withRegistry { _ in for (record, _) in run.records { record.reset() } }
    reuse(run.records)
  }

  /// The current run's read of `key` at `place`, made if none.
  func read(of key: FieldKey, at place: AppleSubscriptions) -> AppleRead {
    let current: AppleRun
    if let run, !state.isSealed {
      current = run
    } else {
      current = AppleRun(thread: thread)
      run = current
      state.isSealed = false
      recent.removeAll()
      records.removeAll(keepingCapacity: true)
    }
    let id = Place(place: place.serial, key: key)
    if let found = records[id] { return found }
    let (record, keyPath) = reusedRecord() ?? makeRecord()
    record.isPooled = false
    current.records.append((record, keyPath))
    let read = AppleRead(run: current, record: record, keyPath: keyPath, generation: record.generation)
    records[id] = read
    return read
  }

  private func makeRecord() -> (AppleRecord, KeyPath<AppleSubscriptions, Int>) {
    made += 1
    return AppleRecord.make(state)
  }

  /// Records of this thread's to reuse (see `AppleRun.finish`).
  func reuse(_ records: [(AppleRecord, KeyPath<AppleSubscriptions, Int>)]) {
    for entry in records where pool.count < 256 && entry.0.isReusable { pool.append(entry) }
  }

  /// A pooled record Observation has not hashed since it was pooled.
  private func reusedRecord() -> (AppleRecord, KeyPath<AppleSubscriptions, Int>)? {
    while let entry = pool.popLast() {
      if entry.0.isReusable { return entry }
    }
    return nil
  }
}
