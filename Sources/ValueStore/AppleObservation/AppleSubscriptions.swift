import Observation
import Synchronization

/// What Apple's Observation subscribed to at one place (a location, or a bare value's box): an
/// `Observable` object whose registrar Observation's scopes subscribe to, and the records of the
/// reads it recorded here, by key.
///
/// One-shot means one (issue 33, item 5a). Observation calls a scope's `onChange` once for each
/// `withMutation` that finds it registered, and it stays registered for good if a `withMutation`
/// lands between its registration and its installation (its `cancel` finds nothing to remove):
/// Observation alone cannot keep it to one call. So every read Observation records here is a key
/// path of its own (an `AppleRecord`), each belonging to the run of reads of one Observation
/// closure (an `AppleRun`), and a change calls `withMutation` for a record only after claiming
/// its run, which happens once: a closure hears at most one `withMutation`, of a key path no other
/// closure registered, whatever threads change what it read and whether it ever unregisters.
///
/// A record is fired only once Observation registered it (it hashes the key path under the
/// registrar's lock, seen by `AppleKey`): one not yet registered (its closure still running, or
/// ended and not yet subscribed) stays for the next change of its key, which it hears, as a scope
/// of Observation's own properties registered late does.
final class AppleSubscriptions: Observable, @unchecked Sendable {  // guarded by `registry`
  let registrar = ObservationRegistrar()
  /// Whether Observation ever accessed a key here: a change then asks which.
  let isObserved = Atomic<Bool>(false)
  /// The records of each key read here not yet fired or dropped.
  private var keys: [FieldKey: Records] = [:]
  /// Called once, when Observation first accesses a key here (a location mirrors it for writes).
  var onObserved: (@Sendable () -> Void)?

  subscript(apple _: AppleKey) -> Int { 0 }

  /// The runs whose key paths are being delivered, by key path.
  private var delivering: [ObjectIdentifier: AppleRun] = [:]

  /// Lists `record` (whose key path is `keyPath`), which Observation recorded, as a read of
  /// `key`. Requires the registry lock.
  func list(_ record: AppleRecord, _ keyPath: KeyPath<AppleSubscriptions, Int>, for key: FieldKey) {
    if !isObserved.load(ordering: .relaxed) {
      isObserved.store(true, ordering: .relaxed)
      onObserved?()
    }
    keys[key, default: Records()].append(record, keyPath)
  }

  /// The key paths to fire for a change, made on `thread`, of the keys `changes` write: of each
  /// listed record that Observation registered, whose run this change claims — and of a claimed
  /// run being delivered on `thread` (its `onChange` made the change: Observation's own
  /// registration, not yet cancelled, hears it). Records not registered yet stay. Requires the
  /// registry lock.
  func keyPaths(changing changes: [Change], on thread: ObjectIdentifier) -> [KeyPath<AppleSubscriptions, Int>] {
    var fired: [(KeyPath<AppleSubscriptions, Int>, AppleRun)] = []
    for index in keys.indices where changes.contains(where: { keys.keys[index].matches($0.key) }) {
      keys.values[index].take(into: &fired, on: thread)
    }
    for (keyPath, run) in fired { delivering[ObjectIdentifier(keyPath)] = run }
    return fired.map(\.0)
  }

  /// `keyPath`'s notification starts being delivered on `thread` (`true`) or ended (`false`).
  /// Requires the registry lock.
  func delivers(_ keyPath: KeyPath<AppleSubscriptions, Int>, on thread: ObjectIdentifier, _ starts: Bool) {
    guard let run = delivering[ObjectIdentifier(keyPath)] else { return }
    if starts {
      run.deliveringOn = thread
      run.depth += 1
      return
    }
    run.depth -= 1
    guard run.depth == 0 else { return }
    run.deliveringOn = nil
    run.isDelivered = true
    delivering[ObjectIdentifier(keyPath)] = nil
  }

  /// How many keys Observation accessed here (for tests). Requires the registry lock.
  var keyCount: Int { keys.count }

  /// The records of one key.
  private struct Records {
    private var entries: [(record: AppleRecord, keyPath: KeyPath<AppleSubscriptions, Int>)] = []
    /// Records of delivered runs are dropped when the list grows past this (a key never changed
    /// keeps no record of every closure that read it).
    private var pruneAt = 8

    mutating func append(_ record: AppleRecord, _ keyPath: KeyPath<AppleSubscriptions, Int>) {
      if entries.count >= pruneAt {
        entries.removeAll { $0.record.run.isDelivered }
        pruneAt = max(8, 2 * entries.count)
      }
      entries.append((record, keyPath))
    }

    /// A claimed run's records stay until it is delivered (see `keyPaths(changing:on:)`).
    mutating func take(into fired: inout [(KeyPath<AppleSubscriptions, Int>, AppleRun)], on thread: ObjectIdentifier) {
      entries.removeAll { entry in
        let run = entry.record.run
        if run.isDelivered { return true }
        if run.isClaimed {
          if run.deliveringOn == thread { fired.append((entry.keyPath, run)) }
        } else if entry.record.isRegistered {
          run.isClaimed = true
          fired.append((entry.keyPath, run))
        }
        return false
      }
    }
  }
}

/// The argument of a record's key path: hashing it tells the record that Observation recorded it
/// or registered it.
struct AppleKey: Hashable, @unchecked Sendable {
  let record: AppleRecord
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.record === rhs.record }
  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(record))
    record.hashed()
  }
}

/// One read of a key at a place by one Observation closure, with a key path of its own.
///
/// Until Observation registers it, only its own thread hashes it: when its closure records it
/// (inside our `access`, `AppleRecorder.accessing`) and when the closure, ended, registers it —
/// under the registrar's lock, so a `withMutation` that finds it registered runs after the
/// registration. Every later hash (a cancel, a lookup, a rehash) is of a registered record.
final class AppleRecord: @unchecked Sendable {
  let run: AppleRun
  /// Observation's closure recorded it (its own thread's).
  var isRecorded = false
  /// Listed at its place (its own thread's).
  var isListed = false
  private let registered = Atomic<Bool>(false)

  init(run: AppleRun) { self.run = run }

  var isRegistered: Bool { registered.load(ordering: .acquiring) }

  /// Observation hashed the record's key path: a registration unless recorded now (see above).
  /// Its closure's run then ends: a later read on the thread is another closure's.
  func hashed() {
    if registered.load(ordering: .acquiring) { return }
    if run.recorder.accessing {
      isRecorded = true
    } else {
      run.isSealed = true
      registered.store(true, ordering: .releasing)
    }
  }
}

/// The reads one Observation closure recorded (see `AppleSubscriptions`): claimed by one change,
/// its notification delivered once.
final class AppleRun: @unchecked Sendable {
  unowned let recorder: AppleRecorder
  /// The closure registered (its thread's): a later read on the thread starts a new run.
  var isSealed = false
  /// A change claimed it: its notification is queued or being delivered. Guarded by the registry.
  var isClaimed = false
  /// Its notification was delivered. Guarded by the registry.
  var isDelivered = false
  /// The thread delivering its notification now, and how deeply. Guarded by the registry.
  var deliveringOn: ObjectIdentifier?
  var depth = 0

  init(recorder: AppleRecorder) { self.recorder = recorder }
}

/// One thread's recording of reads for Apple's Observation: its current run, and its records by
/// place and key (a closure reading a key twice records one key path).
final class AppleRecorder: @unchecked Sendable {  // its thread's own
  /// Set while our `access` runs on this thread (see `AppleRecord.hashed`).
  var accessing = false
  private var run: AppleRun?
  private var records: [Place: (record: AppleRecord, keyPath: KeyPath<AppleSubscriptions, Int>, place: Weak<AppleSubscriptions>)] = [:]

  private struct Place: Hashable {
    let place: ObjectIdentifier
    let key: FieldKey
  }

  /// The last few reads this thread recorded in its current run, each with the key paths
  /// Observation recorded for it (forgotten when a run starts). Repeated in the current run, a read
  /// records nothing of ours; its key paths are recorded again — a closure nested in another
  /// shares the run but has an access list of its own.
  private var recent: [(read: Read, accesses: [Access])] = []
  private var accessesSinceRead: [Access] = []
  /// Weakly: a closure's scopes subscribed at a place must go with it (its holder), not stay
  /// until this thread reads again.
  typealias Access = (place: Weak<AppleSubscriptions>, keyPath: KeyPath<AppleSubscriptions, Int>)

  /// A run of reads recorded and not registered yet: its closure still runs.
  var hasOpenRun: Bool {
    guard let run else { return false }
    return !run.isSealed
  }

  /// Observation recorded `keyPath` at `place` for the read being made.
  func accessed(_ keyPath: KeyPath<AppleSubscriptions, Int>, at place: AppleSubscriptions) {
    accessesSinceRead.append((Weak(place), keyPath))
  }

  /// Whether `read` repeats a recent one of the open run; if so its key paths are recorded again.
  func repeats(_ read: Read) -> Bool {
    guard hasOpenRun, let found = recent.first(where: { $0.read == read }) else { return false }
    accessing = true
    for (place, keyPath) in found.accesses {
      guard let place = place.object else { continue }
      place.registrar.access(place, keyPath: keyPath)
    }
    accessing = false
    return true
  }

  func recorded(_ read: Read) {
    defer { accessesSinceRead.removeAll(keepingCapacity: true) }
    guard hasOpenRun else { return recent.removeAll() }
    if recent.count == 4 { recent.removeFirst() }
    recent.append((read, accessesSinceRead))
  }

  func forgetRecentReads() { recent.removeAll() }

  /// The current run's record of `key` at `place`, made if none.
  func record(of key: FieldKey, at place: AppleSubscriptions) -> (record: AppleRecord, keyPath: KeyPath<AppleSubscriptions, Int>) {
    let current: AppleRun
    if let run, !run.isSealed {
      current = run
    } else {
      current = AppleRun(recorder: self)
      run = current
      recent.removeAll()
      records.removeAll(keepingCapacity: true)
    }
    let id = Place(place: ObjectIdentifier(place), key: key)
    if let found = records[id], found.place.object === place { return (found.record, found.keyPath) }
    let record = AppleRecord(run: current)
    let keyPath = \AppleSubscriptions.[apple: AppleKey(record: record)]
    records[id] = (record, keyPath, Weak(place))
    return (record, keyPath)
  }
}
