import Synchronization

/// What a ``Shared`` refers to: a value of its own (``SharedReference``) or a part of one
/// (``SharedProjection``). Its readers are subscribers of its own — a place, as a holder's location
/// is — so a change through any holder reaches exactly the readers of what changed, in every state
/// that holds it. Readers are told after every lock is released.
class SharedBox<Value: Sendable>: @unchecked Sendable {  // immutable; subclasses guard their state
  /// The readers of the value, ours and (through `probe`) Apple's Observation's.
  let subscribers: Subscribers
  let probe: TrackingProbe
  /// Names its reads, as an extent's serial does: a repeated read records nothing more.
  private let serial = nextExtentSerial.wrappingAdd(1, ordering: .relaxed).newValue
  /// `Value`'s `==` if it is trivially comparable (found once): a change to an equal value is none.
  final let trivialEquality: ((Value, Value) -> Bool)? = FieldKind<Value>.trivialEquality

  init() {
    let apple = AppleSubscriptions()
    subscribers = Subscribers(sharing: apple)
    probe = TrackingProbe(apple)
  }

  /// The value, recorded as read by the tracking scopes (ours and Apple's) open on this thread.
  final var trackedValue: Value {
    guard _slowPath(probe.check()) else { return expectedOrCurrentValue }
    recordRead()
    return hidingReads { expectedOrCurrentValue }
  }

  /// Runs `body` unseen by tracking scopes: a projection reading its part of the root's value is not
  /// a read of the caller's.
  final func hidingReads<R>(_ body: () -> R) -> R {
    openTrackingScopes.load(ordering: .relaxed) == 0 ? body() : untracked(body)
  }

  /// The value, not recorded.
  var currentValue: Value { fatalError("abstract") }

  /// The value, not recorded; inside a test's assertion, the one the assertion expects.
  var expectedOrCurrentValue: Value { fatalError("abstract") }

  /// Changes the value with exclusive access (see ``Shared/withLock(_:)``).
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R { fatalError("abstract") }

  /// A part of this value (see ``Shared/subscript(dynamicMember:)``), projected from the root.
  /// `mayBeAbsent`: `get` may find no part (an optional unwrapped), which then reads as it last was.
  func project<Member: Sendable>(
    initial: Member, mayBeAbsent: Bool,
    get: @escaping @Sendable (Value) -> Member?, set: @escaping @Sendable (inout Value, Member) -> Void
  ) -> SharedBox<Member> { fatalError("abstract") }

  /// Whether anyone (ours or Apple's) reads this value.
  final var isObserved: Bool {
    subscribers.isObserved.load(ordering: .relaxed) || subscribers.apple?.isObserved.load(ordering: .relaxed) == true
  }

  private func recordRead() {
    ThreadContext.withCurrent { context in
      guard context.isRecording else { return }
      let read = Read(serial: serial, key: .any, child: 0)
      if context.repeats(read) { return }
      defer { context.recorded(read) }
      context.record(
        Access(
          subscribers: subscribers, key: .any, keyPath: nil,
          version: subscribers.version.load(ordering: .relaxed), serial: 0))
    }
  }

  /// Tells the readers the value changed. Outside every lock.
  final func didChange() {
    if openTrackingScopes.load(ordering: .relaxed) != 0 { subscribers.version.add(1, ordering: .relaxed) }
    let change = Change(key: .any, keyPath: nil)
    if subscribers.isObserved.load(ordering: .relaxed) {
      deliver(withRegistry { _ in subscribers.matching([change]) })
    }
    AppleObservation.didChange(subscribers, change)
  }
}

/// The one place a shared value lives: every ``Shared`` made for the same key (or copied from one)
/// refers to it. Its projections (`$list[id: 3]`) hear each change and tell their readers if their
/// part changed. The value is guarded by `lock`.
final class SharedReference<Value: Sendable>: SharedBox<Value>, @unchecked Sendable {  // guarded by `lock`
  private let lock = Lock(
    reentryMessage: "a shared value was locked inside its own withLock (or a part of it was): use the closure's argument")
  @exclusivity(unchecked) private var value: Value
  /// The projections made of this value, weakly; pruned as they go.
  @exclusivity(unchecked) private var projections: [WeakProjection] = []
  @exclusivity(unchecked) private var pruneAt = 8
  /// Where the value is stored (nil: in memory only), told of each change after the lock is released.
  let persistence: SharedPersistence<Value>?
  /// Changes made (guarded by `lock`), and the last one saved (saves run under its own lock).
  @exclusivity(unchecked) private var changes: UInt64 = 0
  private let saved = LockIsolated<UInt64>(0)

  init(_ value: Value, persistence: SharedPersistence<Value>? = nil) {
    self.value = value
    self.persistence = persistence
  }

  /// Read inside this value's own `withLock` (a projection of it read there: `$rows.withLock {
  /// $0.remove(id: row.id) }`), it is the value as the body has changed it so far, as TCA's is.
  override var currentValue: Value {
    guard lock.lockUnlessHeld() else { return value }
    defer { lock.unlock() }
    return value
  }

  override var expectedOrCurrentValue: Value {
    guard SharedChangeTracker.hasView else { return currentValue }
    return viewedOrCurrentValue()
  }

  /// Inside a test's view: what the view gives, else the value (out of line: no optional on the read path).
  @inline(never)
  private func viewedOrCurrentValue() -> Value {
    SharedChangeTracker.viewedValue(of: self) ?? currentValue
  }

  /// Readers hear the change once the lock is released — a trivially comparable value (`Int`,
  /// `Bool`) only if it changed, any other always, as a field's in-place write; a projection's
  /// readers only if its part changed (compared if `Equatable`). A body that throws keeps what it
  /// changed, and its readers hear it, as if it had returned.
  override func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    if SharedChangeTracker.hasView, let result = try SharedChangeTracker.withExpectedValue(of: self, body) {
      return result
    }
    let tracker = SharedChangeTracker.current
    // Readers hear it after the lock is released: a value changed in place (an identified array's
    // element) tells its own readers as it changes.
    let context = ThreadContext.current
    context.transactionDepth += 1
    defer { context.endTransaction() }
    var changed = true
    var save: (() -> Void)?
    var watched: [WatchedPart] = []
    defer {  // last: outside the lock
      if changed {
        save?()
        didChange()
        for part in watched { part.projection.didChange() }
      }
    }
    lock.lock()
    defer { lock.unlock() }
    tracker?.willChange(self, from: value)
    if !projections.isEmpty { watched = watchedParts() }
    defer {  // after the body, returned or thrown, under the lock
      if changed {
        if let persistence { save = saving(persistence) }
        if !watched.isEmpty {
          let root: Any = value
          hidingReads { watched.removeAll { $0.projection.isSame($0.before, inRoot: root) } }
        }
      }
    }
    if let equal = trivialEquality {
      let before = value
      defer { changed = !equal(before, value) }
      return try body(&value)
    }
    return try body(&value)
  }

  /// The save of the value now, to run once the lock is released. Saves run in the order of their
  /// changes: one that finds a later change saved is dropped. Requires the lock.
  func saving(_ persistence: SharedPersistence<Value>) -> () -> Void {
    changes += 1
    let (change, value) = (changes, value)
    return {
      self.saved.withValue { saved in
        guard change > saved else { return }
        saved = change
        persistence.save(value)
      }
    }
  }

  /// The observed projections' parts now, to compare after a change. Requires the lock.
  private func watchedParts() -> [WatchedPart] {
    let root: Any = value
    return hidingReads {
      projections.compactMap { weak in
        guard let projection = weak.projection, projection.isObserved else { return nil }
        return WatchedPart(projection: projection, before: projection.part(ofRoot: root))
      }
    }
  }

  override func project<Member: Sendable>(
    initial: Member, mayBeAbsent: Bool,
    get: @escaping @Sendable (Value) -> Member?, set: @escaping @Sendable (inout Value, Member) -> Void
  ) -> SharedBox<Member> {
    SharedProjection(root: self, initial: initial, mayBeAbsent: mayBeAbsent, get: get, set: set)
  }

  /// Lists `projection`, to be told of changes. Pruned of dead entries past twice the live ones.
  /// Made inside this value's own `withLock`, it is listed there (the change under way compares
  /// the parts it watched before).
  func add(_ projection: some PartObserver) {
    let locked = lock.lockUnlessHeld()
    defer { if locked { lock.unlock() } }
    if projections.count >= pruneAt {
      projections.removeAll { $0.projection == nil }
      pruneAt = max(8, 2 * projections.count)
    }
    projections.append(WeakProjection(projection: projection))
  }
}

/// A projection as its root sees it: its part of the root's value (given as `Any`: the root's
/// bookkeeping stays non-generic), compared before and after a change.
protocol PartObserver: AnyObject, Sendable {
  var isObserved: Bool { get }
  func part(ofRoot root: Any) -> Any
  func isSame(_ before: Any, inRoot root: Any) -> Bool
  func didChange()
}

private struct WeakProjection: @unchecked Sendable {
  weak var projection: (any PartObserver)?
}

/// An observed projection's part before a change.
private struct WatchedPart {
  let projection: any PartObserver
  let before: Any
}

/// A part of a shared value (`$syncUps[id: id]`, `$settings.volume`): read and changed through
/// its root, with readers of its own, told only when its part changes.
final class SharedProjection<Root: Sendable, Value: Sendable>: SharedBox<Value>, PartObserver, @unchecked Sendable {
  let root: SharedReference<Root>
  private let get: @Sendable (Root) -> Value?
  private let set: @Sendable (inout Root, Value) -> Void
  /// The last value read, kept only where the part may be absent (`remembersLast`: an unwrapped
  /// optional, or a part of one): then it reads as it was, as TCA's does.
  private let last: LockIsolated<Value?>
  private let remembersLast: Bool

  init(
    root: SharedReference<Root>, initial: Value, mayBeAbsent: Bool,
    get: @escaping @Sendable (Root) -> Value?, set: @escaping @Sendable (inout Root, Value) -> Void
  ) {
    self.root = root
    self.get = get
    self.set = set
    last = LockIsolated(initial)
    remembersLast = mayBeAbsent
    super.init()
    root.add(self)
  }

  private func value(in root: Root) -> Value {
    guard remembersLast else { return get(root)! }
    if let value = get(root) {
      last.withValue { $0 = value }
      return value
    }
    return last.withValue { $0! }
  }

  override var currentValue: Value { value(in: root.currentValue) }

  override var expectedOrCurrentValue: Value { value(in: root.expectedOrCurrentValue) }

  override func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try root.withLock { rootValue in
      var part = value(in: rootValue)
      defer { set(&rootValue, part) }  // thrown or not, as the root keeps what its body changed
      return try body(&part)
    }
  }

  /// A part of this part, projected from the root: absent while this part is.
  override func project<Member: Sendable>(
    initial: Member, mayBeAbsent: Bool,
    get: @escaping @Sendable (Value) -> Member?, set: @escaping @Sendable (inout Value, Member) -> Void
  ) -> SharedBox<Member> {
    let (getPart, setPart) = (self.get, self.set)
    return SharedProjection<Root, Member>(
      root: root, initial: initial, mayBeAbsent: mayBeAbsent || remembersLast,
      get: { root in getPart(root).flatMap(get) },
      set: { root, member in
        guard var part = getPart(root) else { return }
        set(&part, member)
        setPart(&root, part)
      })
  }

  func part(ofRoot root: Any) -> Any { value(in: root as! Root) }

  func isSame(_ before: Any, inRoot root: Any) -> Bool {
    guard let before = before as? Value else { return false }
    return FieldKind<Value>.isEqual(before, value(in: root as! Root)) ?? false
  }
}

/// Where a persisted shared value is written (see ``SharedKey``).
struct SharedPersistence<Value: Sendable>: Sendable {
  let save: @Sendable (Value) -> Void

}
