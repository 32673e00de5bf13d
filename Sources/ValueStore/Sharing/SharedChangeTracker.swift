import Synchronization

/// What a shared reference is to a test: its value, compared without knowing its type.
protocol AnySharedReference: AnyObject, Sendable {
  var anyCurrentValue: any Sendable { get }
  func isEqual(_ a: any Sendable, _ b: any Sendable) -> Bool
}

extension SharedReference: AnySharedReference {
  var anyCurrentValue: any Sendable { currentValue }

  func isEqual(_ a: any Sendable, _ b: any Sendable) -> Bool {
    guard let a = a as? Value, let b = b as? Value else { return false }
    return FieldKind<Value>.isEqual(a, b) ?? false
  }
}

/// The values of the shared references a feature changed, at one point of a test (after an action).
@_spi(Testing)
public struct SharedSnapshot: Sendable {
  fileprivate var values: [ObjectIdentifier: any Sendable] = [:]
  public init() {}
}

/// The shared values a feature under test changed since its last assertion, and what the test's
/// assertion says they are: a `TestStore` asserts them as it asserts state (TCA's exhaustive
/// `$0.$count.withLock { $0 = 1 }`).
///
/// Installed in the feature's dependencies (``DependencyValues``), so the reducer and the effects it
/// starts report to it. The store snapshots the changed values after each action; an assertion
/// compares what its closure says with the snapshot of its action. While the closure runs, reads of
/// a shared value give the expected value and `withLock` changes only that, never the value itself.
@_spi(Testing)
public final class SharedChangeTracker: Sendable {
  fileprivate struct Entry {
    let reference: any AnySharedReference
    /// The value when last asserted (before the first change since).
    var asserted: any Sendable
    /// What the running assertion says it is; nil: the assertion did not touch it.
    var expected: (any Sendable)?
  }

  /// How reads of shared values see them while a test looks at one step.
  fileprivate struct View {
    let tracker: SharedChangeTracker
    let snapshot: SharedSnapshot
    /// The assertion's expected values (starting from the asserted ones if `fromAsserted`, else
    /// from the snapshot's), or (false) the actual values at the snapshot.
    let isExpected: Bool
    let fromAsserted: Bool
  }

  private let entries = LockIsolated<[ObjectIdentifier: Entry]>([:])

  public init() { Self.liveCount.add(1, ordering: .relaxed) }

  deinit { Self.liveCount.subtract(1, ordering: .relaxed) }

  /// How many trackers exist: without one, a change looks none up.
  private static let liveCount = Atomic<Int>(0)
  /// How many views are open in any task: reads skip the task-local lookup while none is.
  private static let viewCount = Atomic<Int>(0)
  @TaskLocal private static var view: View?

  /// The tracker of the feature running here, if a test store runs it.
  static var current: SharedChangeTracker? {
    liveCount.load(ordering: .relaxed) == 0 ? nil : DependencyValues.current.sharedChangeTracker
  }

  /// Whether a test looks at shared values somewhere (one load: the common answer is no).
  static var hasView: Bool { viewCount.load(ordering: .relaxed) != 0 }

  private static var activeView: View? {
    viewCount.load(ordering: .relaxed) == 0 ? nil : view
  }

  /// `reference` is about to change from `value`: kept as its asserted value, unless kept already.
  func willChange(_ reference: any AnySharedReference, from value: any Sendable) {
    entries.withValue { entries in
      let id = ObjectIdentifier(reference)
      if entries[id] == nil { entries[id] = Entry(reference: reference, asserted: value) }
    }
  }

  /// The values of the changed references now (what the state after an action is compared with).
  public func snapshot() -> SharedSnapshot {
    let references = entries.withValue { $0.values.map(\.reference) }
    var snapshot = SharedSnapshot()
    for reference in references { snapshot.values[ObjectIdentifier(reference)] = reference.anyCurrentValue }
    return snapshot
  }

  /// The value a test's view gives `reference` (nil: none, read the value itself).
  static func viewedValue<Value>(of reference: SharedReference<Value>) -> Value? {
    guard let view = activeView else { return nil }
    return view.tracker.entries.withValue { entries -> Value? in
      guard let entry = entries[ObjectIdentifier(reference)] else { return nil }
      return view.value(of: entry) as? Value
    }
  }

  /// `withLock` inside an assertion: changes the expected value only. Nil outside one.
  static func withExpectedValue<Value, R>(
    of reference: SharedReference<Value>, _ body: (inout Value) throws -> R
  ) rethrows -> R? {
    guard let view = activeView, view.isExpected else { return nil }
    // The reference's value is read before the tracker's lock is taken: a change takes them in
    // the other order (`willChange`).
    let current = reference.currentValue
    var value = viewedValue(of: reference) ?? current
    let result = try body(&value)
    view.tracker.entries.withValue { entries in
      let id = ObjectIdentifier(reference)
      if entries[id] == nil { entries[id] = Entry(reference: reference, asserted: current) }
      entries[id]!.expected = value
    }
    return result
  }

  /// Runs an assertion closure: shared values read and locked in `body` are the expected ones,
  /// starting from their asserted values (`fromAsserted`, exhaustive) or those at `snapshot`.
  public func asserting<R>(at snapshot: SharedSnapshot, fromAsserted: Bool, _ body: () throws -> R) rethrows -> R {
    try viewing(View(tracker: self, snapshot: snapshot, isExpected: true, fromAsserted: fromAsserted), body)
  }

  /// Runs `body` as `asserting` does and forgets what it set (a second look at the same step).
  public func assertingScratch<R>(at snapshot: SharedSnapshot, _ body: () throws -> R) rethrows -> R {
    let saved = entries.withValue { $0 }
    defer { entries.withValue { $0 = saved } }
    return try asserting(at: snapshot, fromAsserted: true, body)
  }

  /// Runs `body` (a dump) with shared values read as they were at `snapshot`.
  public func actual<R>(at snapshot: SharedSnapshot, _ body: () throws -> R) rethrows -> R {
    try viewing(View(tracker: self, snapshot: snapshot, isExpected: false, fromAsserted: false), body)
  }

  private func viewing<R>(_ view: View, _ body: () throws -> R) rethrows -> R {
    Self.viewCount.add(1, ordering: .relaxed)
    defer { Self.viewCount.subtract(1, ordering: .relaxed) }
    return try Self.$view.withValue(view) { try body() }
  }

  /// Whether a shared value changed between the last assertion and `snapshot`.
  public func hasChanges(at snapshot: SharedSnapshot) -> Bool {
    entries.withValue { entries in
      entries.contains { id, entry in
        snapshot.values[id].map { !entry.reference.isEqual(entry.asserted, $0) } ?? false
      }
    }
  }

  /// Whether a shared value at `snapshot` is not what the assertion says: one it set and is not
  /// that, or (when `exhaustive`) one changed that it did not set.
  public func hasMismatch(at snapshot: SharedSnapshot, exhaustive: Bool) -> Bool {
    !mismatches(at: snapshot, exhaustive: exhaustive).isEmpty
  }

  /// The shared values `hasMismatch` finds, expected and actual: what a failure shows when the
  /// state does not (a value reached only through a part of it that is gone).
  public func mismatches(at snapshot: SharedSnapshot, exhaustive: Bool) -> [(expected: any Sendable, actual: any Sendable)] {
    entries.withValue { entries in
      entries.compactMap { id, entry in
        guard let expected = entry.expected ?? (exhaustive ? entry.asserted : nil) else { return nil }
        let actual = snapshot.values[id] ?? entry.asserted
        return entry.reference.isEqual(expected, actual) ? nil : (expected, actual)
      }
    }
  }

  /// Takes the values at `snapshot` as asserted, and forgets the assertion. A value not changed
  /// since is forgotten too: its next change (by the feature) starts from the value then, which
  /// takes in what the test itself set meanwhile.
  public func settle(at snapshot: SharedSnapshot) {
    // Current values read outside the tracker's lock (a change takes the reference's lock first).
    let references = entries.withValue { $0.map { ($0.key, $0.value.reference) } }
    let current = Dictionary(uniqueKeysWithValues: references.map { ($0.0, $0.1.anyCurrentValue) })
    entries.withValue { entries in
      for id in Array(entries.keys) {
        guard let reference = entries[id]?.reference else { continue }
        let value = snapshot.values[id] ?? entries[id]!.asserted
        if let now = current[id], reference.isEqual(value, now) {
          entries[id] = nil
        } else {
          entries[id]!.asserted = value
          entries[id]!.expected = nil
        }
      }
    }
  }
}

extension SharedChangeTracker.View {
  /// What this view reads for `entry`.
  fileprivate func value(of entry: SharedChangeTracker.Entry) -> (any Sendable)? {
    let id = ObjectIdentifier(entry.reference)
    if isExpected {
      return entry.expected ?? (fromAsserted ? entry.asserted : snapshot.values[id] ?? entry.asserted)
    }
    return snapshot.values[id] ?? entry.asserted
  }
}
