import Observation
import ValueStore

/// Shared state (`Shared`): reading it and changing it with `withLock`, beside the same on an
/// @Observable object's `count` (and a plain struct's, where there is nothing to observe).
///
/// Every shared value here is `Shared(value: 0)` (in memory, no key), except the row that says it
/// is made with `.inMemory`: a keyed value has a persistence hook, called after each change.
enum SharedScenarios {
  static var all: [Scenario] {
    [
      Scenario(
        name: "shared read, untracked",
        note: """
          `shared.wrappedValue` / `object.count` / `plain.count`, no tracking open. Ours probes \
          whether Observation tracks (the registrar's access), looks for a test's view of the \
          value, then reads it under the reference's lock.
          """,
        ours: Workload("ours.shared.read", setUp: { Shared(value: 0) }) { shared, n in
          for _ in 0..<n { blackHole(shared.wrappedValue) }
        },
        apple: ReadScenarios.appleRead,
        plain: ReadScenarios.plainRead
      ),
      Scenario(
        name: "shared read, tracked by Observation",
        note: """
          One of 100 reads of `shared.wrappedValue` / `object.count` inside one \
          withObservationTracking call on a value / object made for the call (as "read, \
          tracked"): ours opens this thread's bridge window and records each read.
          """,
        ours: Workload("ours.shared.read.appleTracked", operationsPerIteration: 100) { n in
          for _ in 0..<n {
            let shared = Shared(value: 0)
            withObservationTracking { for _ in 0..<100 { blackHole(shared.wrappedValue) } } onChange: {}
          }
        },
        apple: ReadScenarios.appleTrackedRead
      ),
      Scenario(
        name: "shared withLock write, unobserved",
        note: """
          `shared.withLock { $0 += 1 }` / `object.count += 1` / `plain.count += 1`, nobody \
          observing: the lock, the trivially-comparable check, and the (empty) notification.
          """,
        ours: Workload("ours.shared.write", setUp: { Shared(value: 0) }, body: increment),
        apple: WriteScenarios.appleWrite,
        plain: WriteScenarios.plainWrite
      ),
      Scenario(
        name: "shared withLock write, unobserved, .inMemory key",
        note: """
          As above on `@Shared(.inMemory("k")) var count = 0`: the value also goes to its key's \
          (no-op) `save` after the lock is released.
          """,
        ours: Workload("ours.shared.write.inMemory", setUp: inMemoryShared, body: increment),
        apple: WriteScenarios.appleWrite,
        plain: WriteScenarios.plainWrite
      ),
      Scenario(
        name: "shared withLock write, 1 Observation observer fires",
        note: """
          withObservationTracking of `shared.wrappedValue` / `object.count`, re-armed in its \
          onChange (as "send, 1 Observation observer fires"), then `shared.withLock { $0 += 1 }` \
          / `object.count += 1`: the write, one onChange and the re-tracking.
          """,
        ours: Workload("ours.shared.write.appleObserved", setUp: appleObservedShared) { fixture, n in
          for _ in 0..<n { fixture.shared.withLock { $0 += 1 } }
          fixture.fired.expect(n, in: "ours.shared.write.appleObserved")
        },
        apple: appleObservedWrite
      ),
      Scenario(
        name: "shared withLock write, 1 withTracking observer fires",
        note: """
          withTracking of `shared.wrappedValue`, re-armed in its onChange, then \
          `shared.withLock { $0 += 1 }`: the write, one onChange and the re-tracking (ours only; \
          Apple's equivalent is the row above).
          """,
        ours: Workload("ours.shared.write.tracked", setUp: trackedShared) { fixture, n in
          for _ in 0..<n { fixture.shared.withLock { $0 += 1 } }
          fixture.fired.expect(n, in: "ours.shared.write.tracked")
        }
      ),
    ]
  }

  /// `object.count += 1` with a re-armed Observation observer of `count`.
  static var appleObservedWrite: Workload {
    Workload("apple.write.observed", setUp: appleObservedObject) { fixture, n in
      for _ in 0..<n { fixture.object.count += 1 }
      fixture.fired.expect(n, in: "apple.write.observed")
    }
  }

  // MARK: - Fixtures

  /// A value made with an in-memory key, in a dependency context of its own (a fresh store of
  /// references: nothing else holds "k").
  /// `n` unobserved increments through `withLock`.
  private static func increment(_ shared: inout Shared<Int>, _ n: Int) {
    for i in 0..<n {
      shared.withLock { $0 += 1 }
      blackHole(i)
    }
  }

  private static func inMemoryShared() -> Shared<Int> {
    withDependencies { $0 = .test } operation: {
      @Shared(.inMemory("k")) var count = 0
      return $count
    }
  }

  private static func appleObservedShared() -> (shared: Shared<Int>, fired: FireCounter) {
    let (shared, fired) = (Shared(value: 0), FireCounter())
    observeWithObservation(shared, fired)
    return (shared, fired)
  }

  /// Re-arms itself in its onChange, like a view re-rendering.
  private static func observeWithObservation(_ shared: Shared<Int>, _ fired: FireCounter) {
    withObservationTracking { blackHole(shared.wrappedValue) } onChange: {
      fired.fire()
      observeWithObservation(shared, fired)
    }
  }

  private static func trackedShared() -> (shared: Shared<Int>, fired: FireCounter) {
    let (shared, fired) = (Shared(value: 0), FireCounter())
    observeWithTracking(shared, fired)
    return (shared, fired)
  }

  private static func observeWithTracking(_ shared: Shared<Int>, _ fired: FireCounter) {
    withTracking { blackHole(shared.wrappedValue) } onChange: { _ in
      fired.fire()
      observeWithTracking(shared, fired)
    }
  }

  private static func appleObservedObject() -> (object: AppleCounter, fired: FireCounter) {
    let (object, fired) = (AppleCounter(), FireCounter())
    observeApple(object, fired)
    return (object, fired)
  }

  private static func observeApple(_ object: AppleCounter, _ fired: FireCounter) {
    withObservationTracking { blackHole(object.count) } onChange: {
      fired.fire()
      observeApple(object, fired)
    }
  }
}
