import Foundation
import Testing
@testable import ValueStore

/// What happens to a change that lands while an observer is being made: after its closure read a
/// field and before the observer is registered (another thread, or the closure itself mutating what
/// it read), or while a holder's mutation is half done. It happened after the read, so the observer
/// hears it; later changes keep reaching it (B10; the other-thread case is
/// `ReliabilityKnownBugTests.b10_…`).
@Suite(.timeLimit(.minutes(1))) struct RegistrationWindowTests {
  /// The closure mutates, through the holder, a field it has just read.
  @Test func aHolderMutatedInsideTheTrackedClosureFiresTheObserver() {
    let root = ObservedRoot(RelState())
    let count = tracking {
      let count = root.count
      root.mutate { $0.count += 1 }
      return count
    }
    #expect(count.count == 1)
    #expect(count.last?.keyPaths == [\RelState.Fields.count])
  }

  /// The same with a subscription: it re-runs once for its own change and stays subscribed.
  @Test func aSubscriptionThatMutatesWhatItReadRunsAgainThenKeepsListening() {
    let root = ObservedRoot(RelState())
    let runs = FireCounter()
    let token = observe {
      runs.tick()
      if root.count == 0 { root.mutate { $0.count = 1 } }
    }
    #expect(runs.count == 2)
    root.mutate { $0.count += 1 }
    #expect(runs.count == 3)
    token.cancel()
    root.mutate { $0.count += 1 }
    #expect(runs.count == 3)
  }

  /// A bare value mutated inside the closure that read it: its later changes still notify.
  @Test func aBareValueMutatedInsideTheTrackedClosureIsNotLost() {
    var state = RelState()
    let count = tracking {
      let count = state.count
      state.count += 1
      return count
    }
    #expect(count.count == 1)
  }

  /// A copy made and mutated inside a closure that read through the holder is not the holder's
  /// value: the observer registers normally and hears only the holder.
  @Test func aCopyMutatedInsideTheTrackedClosureDoesNotFireAnchoredReads() {
    let root = ObservedRoot(RelState())
    let count = tracking {
      let count = root.child.count
      var copy = root.currentValue
      copy.child.count += 1
      return count
    }
    #expect(count.count == 0)
    root.mutate { $0.name = "x" }
    #expect(count.count == 0)
    root.mutate { $0.child.count += 1 }
    #expect(count.count == 1)
  }

  /// A snapshot released in the middle of a holder's mutation, after a first write forked the
  /// child it shared: the child's observers are adopted at the end, not dropped with the snapshot.
  @Test func aSnapshotReleasedDuringAMutationKeepsTheChildsObservers() {
    let root = ObservedRoot(RelState())
    let count = tracking { root.read { $0.child.count } }
    let title = tracking { root.read { $0.child.title } }
    var snapshot: RelState? = root.currentValue
    root.mutate { state in
      state.child.count += 1
      snapshot = nil
      state.child.title = "x"
    }
    #expect(snapshot == nil)
    #expect(count.count == 1)
    #expect(title.count == 1)
  }

  /// A registration that arrives while another thread's mutation is half done (its fork made, its
  /// adoption not yet): a later write of that mutation must not drop the extent it registered on,
  /// and the adoption carries it. Deterministic: the mutation waits for the registration.
  @Test func aRegistrationDuringAnotherThreadsMutationIsCarriedByItsAdoption() {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let root = ObservedRoot(RelState())
    let forked = DispatchSemaphore(value: 0)
    let registered = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let name = tracking {
      let name = root.name
      Thread {
        root.mutate { state in
          state.count += 1  // forks: the tracking scope still holds the root's extent
          forked.signal()
          registered.wait()
          state.name = "x"
        }
        done.signal()
      }.start()
      forked.wait()
      return name
    }
    registered.signal()
    done.wait()
    #expect(root.name == "x")
    #expect(name.count == 1)
    #expect(name.last?.keyPaths == [\RelState.Fields.name])
  }

  /// The root is replaced after another thread's closure read it and before that closure's observer
  /// registers, with nobody else observing the root: the observer hears the replacement when it
  /// registers (it registered on the orphaned old root before, and never heard anything again;
  /// found by a thread probe written as a user).
  @Test(arguments: [false, true], 0..<3)
  func aRootReplacedInAnotherThreadsRegistrationWindowIsHeard(alreadyObserved: Bool, readStyle: Int) {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let root = ObservedRoot(RelState())
    if alreadyObserved { _ = withTracking { root.name } onChange: { _ in } }
    let fired = FireCounter()
    let (entered, release, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    Thread {
      _ = withTracking { () -> Int in
        let count = switch readStyle {
        case 0: root.count
        case 1: root.read { $0.count }
        default: root.currentValue.count
        }
        entered.signal()
        release.wait()
        return count
      } onChange: { _ in fired.tick() }
      done.signal()
    }.start()
    entered.wait()
    root.currentValue = RelState()
    release.signal()
    done.wait()
    #expect(fired.count == 1)
    root.mutate { $0.count = 5 }
    #expect(fired.count == 1)
  }
}
