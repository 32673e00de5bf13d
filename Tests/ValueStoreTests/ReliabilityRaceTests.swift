import Foundation
import Testing
@testable import ValueStore

/// The concurrent scenarios that hit known bugs no `withKnownIssue` can contain: they lose
/// notifications (B10) and can deadlock the process (B13: observers notified or cancelled on one
/// thread while another thread mutates their holder), so they are off by default. Run them
/// with `VALUESTORE_RELIABILITY_RACES=1 swift test --filter ReliabilityRaceTests` (a deadlock shows
/// as a hang: interrupt it and attach a debugger — every thread waits on the registry lock, one of
/// them inside `Extent.deinit` under `Observer.deactivate`).
@Suite(
  .enabled(if: ProcessInfo.processInfo.environment["VALUESTORE_RELIABILITY_RACES"] == "1", "B10, B13"),
  .timeLimit(.minutes(10))
)
struct ReliabilityRaceTests {
  static let threads = ReliabilityThreadTests.threads

  /// Threads keep installing one-shot observers while another mutates: whenever it was installed,
  /// each observer must run exactly once — at the first change after it — and none be lost.
  @Test func trackingWhileAnotherThreadMutates() {
    let root = ObservedRoot(ReliabilityThreadTests.populated())
    let perThread = 400
    let fired = (0..<Self.threads * perThread).map { _ in FireCounter() }
    relOnThreads(Self.threads + 1) { thread in
      guard thread < Self.threads else {
        for _ in 0..<2_000 { root.mutate { $0.count += 1 } }
        return
      }
      for k in 0..<perThread {
        let fires = fired[thread * perThread + k]
        _ = withTracking { root.count } onChange: { _ in fires.tick() }
      }
    }
    root.mutate { $0.count += 1 }  // reaches every observer installed after the last change
    #expect(fired.allSatisfy { $0.count <= 1 })
    withKnownIssue("B10: an observer whose read raced a mutation sits on a dead extent", isIntermittent: true) {
      #expect(fired.allSatisfy { $0.count == 1 })
    }
  }

  /// Subscriptions re-tracking on the threads that mutate: the last run of each must see the final
  /// value (never lost).
  @Test func subscriptionsReTrackingWhileOtherThreadsMutate() {
    let root = ObservedRoot(ReliabilityThreadTests.populated())
    let lastSeen = LastSeen()
    let token = observe { lastSeen.set(root.count) }
    relOnThreads(Self.threads) { _ in
      for _ in 0..<500 { root.mutate { $0.count += 1 } }
    }
    #expect(root.count == Self.threads * 500)
    withKnownIssue("B10: a subscription whose re-tracking raced a mutation stops for good", isIntermittent: true) {
      #expect(lastSeen.value == Self.threads * 500)
    }
    token.cancel()
  }

  /// Subscriptions cancelled on some threads while another changes the value (B13).
  @Test func observersCancelledWhileTheValueChanges() {
    let root = ObservedRoot(ReliabilityThreadTests.populated())
    let count = Self.threads * 25
    let runs = (0..<count).map { _ in FireCounter() }
    let tokens = TokenBox(
      runs.map { fires in
        observe {
          _ = root.read { ($0.count, $0.child.count) }
          fires.tick()
        }
      })
    relOnThreads(Self.threads + 1) { thread in
      guard thread < Self.threads else {
        for _ in 0..<500 { root.mutate { $0.count += 1 } }
        return
      }
      for k in stride(from: thread, to: count, by: Self.threads) {
        if k.isMultiple(of: 2) { tokens.cancel(k) } else { tokens.release(k) }
      }
    }
    let before = runs.map(\.count)
    root.mutate { $0.count += 1 }
    #expect(runs.map(\.count) == before)
    #expect(relRegistrations(root.value) == 0)
  }

  /// Observers of a bare value, notified by copies mutated on several threads (S11: at most once
  /// each); the copies' forks die on their threads while observers deactivate on others (B13).
  @Test func observersOfABareValueHearingCopiesOnSeveralThreads() {
    let base = ReliabilityThreadTests.populated()
    let observers = (0..<8).map { _ in FireCounter() }
    for (index, fires) in observers.enumerated() {
      _ = withTracking {
        index.isMultiple(of: 2) ? base.child.count : (base.rows[id: 1]?.count ?? 0)
      } onChange: { _ in
        fires.tick()
      }
    }
    relOnThreads(Self.threads) { _ in
      var copy = base
      for _ in 0..<300 {
        copy.child.count += 1
        copy.rows[id: 1]?.count += 1
      }
      #expect(copy.child.count == 300)
    }
    #expect(base == ReliabilityThreadTests.populated())
    #expect(observers.allSatisfy { $0.count <= 1 })
  }
}

extension ReliabilityRaceTests {
  /// Observers notified on whichever thread made the first change, while the others keep
  /// mutating (B13): each runs exactly once.
  @Test func observersNotifiedWhileOtherThreadsMutate() {
    let root = ObservedRoot(ReliabilityThreadTests.populated())
    let fired = (0..<20).map { _ in FireCounter() }
    for fires in fired {
      _ = withTracking { root.count } onChange: { _ in fires.tick() }
    }
    relOnThreads(Self.threads) { _ in
      for _ in 0..<500 { root.mutate { $0.count += 1 } }
    }
    #expect(fired.allSatisfy { $0.count == 1 })
  }

  /// Each thread writes its own row back while the others do the same, with a subscription per
  /// row (B10, B13): each runs once per write-back of its row.
  @Test func rowSubscriptionsWhileRowsAreWrittenBackOnSeveralThreads() {
    var initial = RelState()
    initial.rows = IdentifiedArray(uniqueElements: (0..<Self.threads).map { RelRow(id: $0) })
    let root = ObservedRoot(initial)
    let runs = (0..<Self.threads).map { _ in FireCounter() }
    let tokens = (0..<Self.threads).map { id in
      observe {
        _ = root.read { $0.rows[id: id]?.count }
        runs[id].tick()
      }
    }
    let iterations = 300
    relOnThreads(Self.threads) { id in
      for _ in 0..<iterations {
        var row = root.read { $0.rows[id: id]! }
        row.count += 1
        root.mutate { $0.rows[id: id] = row }
      }
    }
    #expect(runs.allSatisfy { $0.count <= iterations + 1 })
    withKnownIssue("B10: a subscription whose re-tracking raced a write-back stops for good", isIntermittent: true) {
      #expect(runs.allSatisfy { $0.count == iterations + 1 })
    }
    tokens.forEach { $0.cancel() }
  }
}

/// The last value a subscription saw.
final class LastSeen: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = -1
  func set(_ value: Int) { lock.withLock { stored = value } }
  var value: Int { lock.withLock { stored } }
}
