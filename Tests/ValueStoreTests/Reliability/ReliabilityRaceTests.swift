import Foundation
import Testing
@testable import ValueStore

/// Concurrent scenarios where threads race: tracking while another thread mutates what is being
/// tracked (B10: lost, fixed — a registration that arrives after its extent moved on fires at once)
/// and notifying or cancelling observers of a holder while another thread mutates it (B13: a
/// deadlock, fixed). A race may add a run (the change that raced the registration may have been to
/// another field); it never loses one. Run under the thread sanitizer by `.ci/run`.
@Suite(.timeLimit(.minutes(1)))
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
    #expect(fired.allSatisfy { $0.count == 1 })
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
    #expect(lastSeen.value == Self.threads * 500)
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
    #expect(relRegistrations(root.currentValue) == 0)
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
  /// row (B10, B13): the last run of each sees its row's final count (never lost).
  @Test func rowSubscriptionsWhileRowsAreWrittenBackOnSeveralThreads() {
    var initial = RelState()
    initial.rows = IdentifiedArray(uniqueElements: (0..<Self.threads).map { Row(id: $0) })
    let root = ObservedRoot(initial)
    let lastSeen = (0..<Self.threads).map { _ in LastSeen() }
    let tokens = (0..<Self.threads).map { id in
      observe { lastSeen[id].set(root.read { $0.rows[id: id]?.count } ?? -1) }
    }
    let iterations = 300
    relOnThreads(Self.threads) { id in
      for _ in 0..<iterations {
        var row = root.read { $0.rows[id: id]! }
        row.count += 1
        root.mutate { $0.rows[id: id] = row }
      }
    }
    #expect(lastSeen.map(\.value) == Array(repeating: iterations, count: Self.threads))
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
