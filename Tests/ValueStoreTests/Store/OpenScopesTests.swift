import Foundation
import Synchronization
import Testing
@testable import ValueStore

/// A holder mutation registers the reads of every open tracking scope on the thread first — also
/// of scopes `untracked` or a firing observer set aside (a third review found both re-running an
/// `observe` loop forever). An inner closure's reads are its enclosing call's, even when it throws.
@Suite(.timeLimit(.minutes(1))) struct OpenScopesTests {
  struct Failure: Error {}

  /// A: `untracked { withTracking { mutate } }` inside a tracking closure: the inner scope's
  /// `outer` is nil, so the parked outer scope's reads are not registered first.
  @Test func a_untrackedInnerTrackingMutation() {
    let root = ObservedRoot(Child())
    let fired = FireCounter()
    withTracking {
      _ = root.count
      untracked {
        withTracking { root.mutate { $0.title = "x" } } onChange: { _ in }
      }
    } onChange: { _ in fired.tick() }
    #expect(fired.count == 0, "spurious: told of a title change it did not read")
  }

  /// A2: same with the inner scope reading something first.
  @Test func a2_untrackedInnerTrackingReadsThenMutates() {
    let root = ObservedRoot(Child())
    let fired = FireCounter()
    withTracking {
      _ = root.count
      untracked {
        withTracking { _ = root.title; root.mutate { $0.title = "x" } } onChange: { _ in }
      }
    } onChange: { _ in fired.tick() }
    #expect(fired.count == 0, "spurious: told of a title change it did not read")
  }

  /// B: an observer fired inside the closure by a bare value's write (scope set aside) mutates
  /// the root the closure read: no early registration (scope is nil, nothing parked).
  @Test func b_bareWriteFiresObserverThatMutatesTheRoot() {
    let root = ObservedRoot(Child())
    var bare = Child()
    withTracking { _ = bare.count } onChange: { _ in root.mutate { $0.title += "x" } }
    let fired = FireCounter()
    let keyPaths = LockIsolatedBox<[AnyKeyPath]>([])
    withTracking {
      _ = root.count
      bare.count = 1
    } onChange: { change in fired.tick(); keyPaths.value = change.keyPaths }
    #expect(root.title == "x")
    #expect(fired.count == 0, "spurious: told of a title change it did not read \(keyPaths.value)")
  }

}

@Suite(.timeLimit(.minutes(1))) struct OpenScopesLoopTests {
  /// A as an observe loop: the body's helper tracks for itself inside `untracked` and mutates.
  @Test func a_loop() {
    let root = ObservedRoot(Child())
    let runs = FireCounter()
    let token = observe {
      runs.tick()
      _ = root.count
      if runs.count < 20 {
        untracked { withTracking { root.mutate { $0.title += "x" } } onChange: { _ in } }
      }
    }
    #expect(runs.count == 1, "re-ran \(runs.count) times (capped at 20)")
    token.cancel()
  }

}

@Suite(.timeLimit(.minutes(1))) struct OpenScopesEdgeTests {
  @Test func outerHeldByInnerMutation() {
    let root = ObservedRoot(Child())
    let (outer, inner) = (FireCounter(), FireCounter())
    withTracking {
      _ = root.count
      withTracking { root.mutate { $0.count += 1 } } onChange: { _ in inner.tick() }
      #expect(outer.count == 0)
    } onChange: { _ in outer.tick() }
    #expect(outer.count == 1)
    #expect(inner.count == 0)
    root.mutate { $0.count += 1 }
    #expect(outer.count == 1)
  }

  @Test func heldInsideTransaction() {
    let root = ObservedRoot(Child())
    let fired = FireCounter()
    withTransaction {
      withTracking {
        _ = root.count
        root.mutate { $0.count += 1 }
      } onChange: { _ in fired.tick() }
      #expect(fired.count == 0)
    }
    #expect(fired.count == 1)
    root.mutate { $0.count += 1 }
    #expect(fired.count == 1)
  }

  @Test func heldInsideFiring() {
    let root = ObservedRoot(Child())
    let trigger = ObservedRoot(Child())
    let fired = FireCounter()
    withTracking { _ = trigger.count } onChange: { _ in
      withTracking {
        _ = root.count
        root.mutate { $0.count += 1 }
      } onChange: { _ in fired.tick() }
    }
    trigger.mutate { $0.count = 1 }
    #expect(fired.count == 1)
    root.mutate { $0.count += 1 }
    #expect(fired.count == 1)
  }

  @Test func twoRoots() {
    let a = ObservedRoot(Child()), b = ObservedRoot(Child())
    let fired = FireCounter()
    let kps = LockIsolatedBox<Int>(0)
    let snapshot = a.currentValue
    withTracking {
      _ = a.count; _ = b.count
      a.mutate { $0.title = "x" }
      _ = b.count; _ = a.count; _ = b.title
      b.mutate { $0.title = "q" }
      a.mutate { $0.count = 1 }
    } onChange: { c in fired.tick(); kps.value = c.keyPaths.count }
    #expect(fired.count == 1)
    #expect(kps.value == 2)
    a.mutate { $0.count += 1 }; b.mutate { $0.title = "y" }
    #expect(fired.count == 1)
    withExtendedLifetime(snapshot) {}
  }

  @Test func nestedUntracked() {
    let root = ObservedRoot(Child())
    let fired = FireCounter()
    withTracking {
      _ = root.count
      untracked { untracked { root.mutate { $0.title = "x" } }; root.mutate { $0.title = "y" } }
      _ = root.title
    } onChange: { _ in fired.tick() }
    #expect(fired.count == 0)
    root.mutate { $0.title = "z" }
    #expect(fired.count == 1)
    root.mutate { $0.count = 9 }
    #expect(fired.count == 1)
  }

  @Test func loopCancelledWhileItsBodyRuns() {
    let root = ObservedRoot(Child())
    let runs = FireCounter()
    let box = LockIsolatedBox<ObservationToken?>(nil)
    box.value = observe {
      runs.tick()
      _ = root.count
      if runs.count == 2 { root.mutate { $0.count += 1 }; box.value?.cancel() }
    }
    root.mutate { $0.count += 1 }
    #expect(runs.count == 2)
    root.mutate { $0.count += 1 }
    #expect(runs.count == 2)
    let extent = root.lock.withLock { root.storage._$fields._extent }
    #expect(withRegistry { _ in extent.registrations.all.filter { $0.observer.isActive }.count } == 0)
  }
}

@Suite struct OpenScopesThrowTests {
  struct Failure: Error {}

  /// The reads of an inner closure that throws are the enclosing call's, mutation or not.
  @Test(arguments: [false, true]) func anInnerClosureThatThrowsLeavesItsReadsToTheEnclosingOne(_ mutates: Bool) {
    let (root, other) = (ObservedRoot(Child()), ObservedRoot(Child()))
    let outerFired = FireCounter()
    withTracking {
      _ = try? withTracking { () throws(Failure) in
        _ = root.count
        if mutates { other.mutate { $0.count = 1 } }
        throw Failure()
      } onChange: { _ in }
    } onChange: { _ in outerFired.tick() }
    root.mutate { $0.count += 1 }
    #expect(outerFired.count == 1)
  }
}
