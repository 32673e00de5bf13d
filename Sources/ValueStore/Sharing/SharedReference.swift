import Synchronization

/// The one place a shared value lives: every ``Shared`` made for the same key (or copied from one)
/// refers to it. Its readers are subscribers of its own (a place, as a holder's location is), so a
/// change through any holder reaches exactly the readers of this value, in every state that holds it.
///
/// The value is guarded by `lock`; readers are told after it is released, outside every lock.
final class SharedReference<Value: Sendable>: @unchecked Sendable {  // `value` guarded by `lock`
  private let lock = Lock(
    reentryMessage: "a shared value was read or locked inside its own withLock: use the closure's argument")
  @exclusivity(unchecked) private var value: Value
  /// The readers of the value, ours and (through `probe`) Apple's Observation's.
  let subscribers: Subscribers
  let probe: TrackingProbe
  /// Where the value is stored (nil: in memory only), told of each change after the lock is released.
  let persistence: SharedPersistence<Value>?

  init(_ value: Value, persistence: SharedPersistence<Value>? = nil) {
    self.value = value
    self.persistence = persistence
    let apple = AppleSubscriptions()
    subscribers = Subscribers(sharing: apple)
    probe = TrackingProbe(apple)
  }

  /// The value, recorded as read by the tracking scopes (ours and Apple's) open on this thread.
  var trackedValue: Value {
    if _slowPath(probe.check()) { recordRead() }
    return expectedOrCurrentValue
  }

  /// The value, not recorded.
  var currentValue: Value { lock.withLock { value } }

  /// The value, not recorded; inside a test's assertion, the one the assertion expects.
  var expectedOrCurrentValue: Value {
    SharedChangeTracker.viewedValue(of: self) ?? currentValue
  }

  private func recordRead() {
    ThreadContext.withCurrent { context in
      guard context.isRecording else { return }
      context.record(
        Access(
          subscribers: subscribers, key: .any, keyPath: nil,
          version: subscribers.version.load(ordering: .relaxed), serial: 0))
    }
  }

  /// Runs `body` with exclusive access to the value; its readers hear the change once the lock is
  /// released — a trivially comparable value (`Int`, `Bool`) only if it changed, any other always,
  /// as a field's in-place write.
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    if let result = try SharedChangeTracker.withExpectedValue(of: self, body) { return result }
    let tracker = SharedChangeTracker.current
    let result: R
    var saved: Value?
    do {
      lock.lock()
      defer { lock.unlock() }
      tracker?.willChange(self, from: value)
      let before = FieldKind<Value>.isTrivialEquatable ? value : nil
      result = try body(&value)
      if let before, FieldKind<Value>.isEqual(before, value) == true { return result }
      if persistence != nil { saved = value }
    }
    if let saved { persistence?.save(saved) }
    didChange()
    return result
  }

  /// Sets the value loaded from outside (a file changed on disk): told like a change, not saved back.
  func reload(_ newValue: Value) {
    lock.withLock { value = newValue }
    didChange()
  }

  private func didChange() {
    if openTrackingScopes.load(ordering: .relaxed) != 0 { subscribers.version.add(1, ordering: .relaxed) }
    let change = Change(key: .any, keyPath: nil)
    if subscribers.isObserved.load(ordering: .relaxed) {
      deliver(withRegistry { _ in subscribers.matching([change]) })
    }
    AppleObservation.didChange(subscribers, change)
  }
}
/// Where a persisted shared value is written (see ``SharedKey``).
struct SharedPersistence<Value: Sendable>: Sendable {
  let save: @Sendable (Value) -> Void
}
