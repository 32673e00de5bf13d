import Foundation
import Testing
@_spi(Testing) @testable import ValueStore

/// swift-sharing's SharedChangeTrackerTests and TCA's tracker cases (`testSelfEqualityInAnAssertion`,
/// `testBasicAssertion`), translated to our tracker (`@_spi(Testing)`, what `TestStore` uses):
/// upstream's `tracker.track { … }` is a change made with the tracker in the dependency values;
/// `tracker.assert { … }` is `asserting(at:)` of a snapshot, then `hasMismatch` and `settle`.
/// Upstream's tracker reports unasserted changes when it is released; ours leaves that to its
/// `TestStore`, so `unassertedChanges` checks `hasMismatch`.
///
/// Left out: `differentProjections`, `unwrappedShared` (derived shared values), `assertedChanges`
/// (publisher).
@Suite(.timeLimit(.minutes(1))) struct SharedChangeTrackerUpstreamTests {
  func track(_ tracker: SharedChangeTracker, _ body: () -> Void) {
    withDependencies { $0.sharedChangeTracker = tracker } operation: { body() }
  }

  /// Runs an assertion of the changes so far; returns whether they match it (exhaustively).
  @discardableResult
  func assert(_ tracker: SharedChangeTracker, _ body: () -> Void) -> Bool {
    let snapshot = tracker.snapshot()
    defer { tracker.settle(at: snapshot) }
    tracker.asserting(at: snapshot, fromAsserted: true, body)
    return !tracker.hasMismatch(at: snapshot, exhaustive: true)
  }

  /// Upstream: inside the assertion a reference differs from itself until the assertion states its
  /// change (`$count != $count`: expected vs. actual). Ours compares a reference with itself as
  /// equal (identity first); the mismatch is `hasMismatch`'s to find.
  @Test func basics() {
    let count = Shared(value: 0)

    let tracker = SharedChangeTracker()
    track(tracker) {
      count.withLock { $0 += 1 }
    }

    let matched = assert(tracker) {
      // Ours: a reference equals itself (identity first); upstream: expected != actual.
      #expect(count == count)
      count.withLock { $0 = 1 }
      #expect(count == count)
    }
    #expect(matched)
    #expect(count.wrappedValue == 1)
  }

  @Test func independentShareds() {
    let count1 = Shared(value: 0)
    let count2 = Shared(value: 0)

    #expect(count1 == count2)

    let tracker = SharedChangeTracker()
    track(tracker) {
      count1.withLock { $0 += 1 }
    }

    let matched = assert(tracker) {
      // Ours: a reference equals itself (identity first); upstream: expected != actual.
      #expect(count1 == count1)
      #expect(count1 == count2)
      #expect(count2 == count2)

      count1.withLock { $0 = 1 }

      #expect(count1 == count1)
      #expect(count1 != count2)
    }
    #expect(matched)
  }

  @Test func unassertedChanges() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    track(tracker) {
      count.withLock { $0 += 1 }
    }
    let snapshot = tracker.snapshot()
    #expect(tracker.hasChanges(at: snapshot))
    #expect(tracker.hasMismatch(at: snapshot, exhaustive: true))
  }

  /// Upstream's `SharedChangeTracker(reportUnassertedChanges: false)`: ours, non-exhaustive.
  @Test func unreportedChanges() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    track(tracker) {
      count.withLock { $0 += 1 }
    }
    #expect(!tracker.hasMismatch(at: tracker.snapshot(), exhaustive: false))
  }

  /// TCA: a reference compared with itself differs inside an assertion (expected vs. actual), and
  /// equals itself outside it.
  @Test func testSelfEqualityInAnAssertion() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    track(tracker) {
      count.withLock { $0 += 1 }
      assert(tracker) {
        // Ours: a reference equals itself (identity first); upstream: expected != actual.
        #expect(count == count)
        #expect(count.wrappedValue == count.wrappedValue)
      }
      #expect(count == count)
      #expect(count.wrappedValue == count.wrappedValue)
    }
    #expect(count == count)
    #expect(count.wrappedValue == count.wrappedValue)
  }

  @Test func testBasicAssertion() {
    let count = Shared(value: 0)
    let tracker = SharedChangeTracker()
    track(tracker) {
      count.withLock { $0 += 1 }
      let matched = assert(tracker) {
        count.withLock { $0 += 1 }
        #expect(count == count)
        #expect(count.wrappedValue == count.wrappedValue)
      }
      #expect(matched)
      #expect(count == count)
      #expect(count.wrappedValue == count.wrappedValue)
    }
    #expect(count == count)
    #expect(count.wrappedValue == 1)
  }
}
