import Foundation
import Observation
import Synchronization
import Testing
@testable import ValueStore

private func registrationCount<V: ObservableState>(_ root: ObservedRoot<V>) -> Int {
  let extent = root.lock.withLock { root.storage._$fields._extent }
  return withRegistry { _ in extent.registrations.all.filter { $0.observer.isActive }.count }
}

/// A tracking closure that mutates a holder registers its reads before the mutation (see
/// `registerPendingReads`): the edge cases a review of that change found — a mutation inside
/// `untracked`, a read after a fork, a throw, another thread's change while the closure runs,
/// and a comparison with a bare value (each failed before its fix).
@Suite(.timeLimit(.minutes(1))) struct EarlyRegistrationTests {
  /// Read, mutate (a snapshot alive: the root forks, its registrations move to the fork), read the
  /// same field again: the late read is registered a second time on the fork.
  @Test func readMutateReadWithSnapshotAliveRegistersOnce() {
    let root = ObservedRoot(Child())
    let snapshot = root.currentValue
    let fired = FireCounter()
    withTracking {
      _ = root.count
      root.mutate { $0.title = "x" }
      _ = root.count
    } onChange: { _ in fired.tick() }
    #expect(fired.count == 0)
    #expect(registrationCount(root) == 1, "one observer, one key, one extent: registered twice")
    root.mutate { $0.count += 1 }
    #expect(fired.count == 1)
    withExtendedLifetime(snapshot) {}
  }

  /// The mutation wrapped in `untracked` (a natural "don't track this send"): the reads before
  /// it are not registered first, the mutation forks their extents, and the registration at the
  /// end fires for a field not read.
  @Test func untrackedMutationInsideTrackingIsNotSpurious() {
    let root = ObservedRoot(Child())
    let fired = FireCounter()
    withTracking {
      _ = root.count
      untracked { root.mutate { $0.title = "x" } }
    } onChange: { _ in fired.tick() }
    #expect(fired.count == 0, "spurious: told of a title change it did not read")
  }

  @Test func observeBodyMutatingUntrackedRunsOnce() {
    let root = ObservedRoot(Child())
    let runs = FireCounter()
    let token = observe {
      runs.tick()
      if root.count == 0, runs.count < 20 { untracked { root.mutate { $0.title += "x" } } }
    }
    #expect(runs.count == 1, "re-ran \(runs.count) times (capped at 20)")
    token.cancel()
  }

  /// `holder.inner == bare`: the bare side's nested values are compared inside `anchoringReads`,
  /// so their reads register anchored; the bare value then mutated with a snapshot alive forks and
  /// does not take them along.
  @Test func comparingAHolderValueWithABareOneLeavesTheBareSideUnanchored() {
    let root = ObservedRoot(ReadPathParent())
    var bare = ReadPathInner()
    let fired = FireCounter()
    withTracking {
      _ = root.inner == bare
    } onChange: { _ in fired.tick() }
    let snapshot = bare
    bare.child.count += 1
    #expect(fired.count == 1, "lost: the bare value it compared changed")
    withExtendedLifetime(snapshot) {}
  }

  /// Another thread changes what a running observe body read before its own mutation: the early
  /// observer fires there and re-runs the loop while the first run is still running; the first
  /// run then stores its fired observer over the newer one, so cancel misses the newer one.
  @Test func crossThreadChangeDuringObserveBodyAfterMutation() {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let root = ObservedRoot(Child())
    let runs = FireCounter()
    let inFlight = Atomic<Int>(0)
    let maxInFlight = Atomic<Int>(0)
    let (started, proceed, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let token = LockIsolatedBox<ObservationToken?>(nil)
    Thread.detachNewThread {
      token.value = observe {
        let now = inFlight.add(1, ordering: .relaxed).newValue
        _ = maxInFlight.max(now, ordering: .relaxed)
        runs.tick()
        let first = runs.count == 1
        _ = root.count
        if first {
          root.mutate { $0.title += "x" }
          started.signal()
          proceed.wait()
        }
        inFlight.subtract(1, ordering: .relaxed)
      }
      done.signal()
    }
    started.wait()
    root.mutate { $0.count += 1 }  // on this thread, while the first run is inside its body
    proceed.signal()
    done.wait()
    #expect(maxInFlight.load(ordering: .relaxed) == 1, "apply ran on two threads at once")
    #expect(runs.count == 2, "the change made during the first run re-runs it once, after it")
    token.value!.cancel()
    #expect(registrationCount(root) == 0, "an observer outlives cancel")
  }

  struct Failure: Error {}

  /// A closure that throws after its mutation: nothing is tracked (no result), yet the reads
  /// registered before the mutation stay and fire.
  @Test func aThrowingClosureRegistersNothing() {
    let root = ObservedRoot(Child())
    let fired = FireCounter()
    _ = try? withTracking { () throws(Failure) -> Void in
      _ = root.count
      root.mutate { $0.title = "x" }
      throw Failure()
    } onChange: { _ in fired.tick() }
    root.mutate { $0.count += 1 }
    #expect(fired.count == 0, "a tracking call that threw was told")
    #expect(registrationCount(root) == 0)
  }
}

final class LockIsolatedBox<T>: @unchecked Sendable {
  private let lock = NSLock()
  private var _value: T
  init(_ value: T) { _value = value }
  var value: T {
    get { lock.withLock { _value } }
    set { lock.withLock { _value = newValue } }
  }
}

@Suite(.timeLimit(.minutes(1))) struct EarlyRegistrationFiringTests {
  /// The closure changes a bare value another observer watches; that observer (fired at once,
  /// with the closure's scope set aside) mutates the root the closure read: the closure's reads
  /// were not registered first.
  @Test func anObserverFiredByTheClosureMutatingTheRootIsNotSpurious() {
    let root = ObservedRoot(Child())
    let other = ObservedRoot(Child())
    let token = observe {
      if other.count > 0 { root.mutate { $0.title += "x" } }
    }
    let fired = FireCounter()
    withTracking {
      _ = root.count
      other.mutate { $0.count = 1 }
    } onChange: { _ in fired.tick() }
    #expect(fired.count == 0, "spurious: told of a title change it did not read")
    token.cancel()
  }
}

@MainActor @Suite struct EarlyRegistrationHeldChangeTests {
  /// An element store's read, then a send removing the element, inside one closure: the removal
  /// (a change no key path names: the element's identity) arrives while the closure runs, is held,
  /// and is heard when it ends. (A first version of the holding dropped such changes: lost.)
  @Test func anIdentityChangeArrivingWhileTheClosureRunsIsHeardAfterIt() {
    let store = Store(initialState: RelState()) {
      Reduce<RelState, Int> { state, action in
        if action == 0 { state.rows.append(Row(id: 1)) } else { _ = state.rows.remove(id: 1) }
        return .none
      }
    }
    store.send(0)
    let row = store.scope(state: \.rows, action: { (_: IdentifiedAction<Int, Never>) in 0 })[id: 1]!
    let fired = FireCounter()
    withTracking {
      _ = row.title
      store.send(1)
      #expect(fired.count == 0, "heard in the middle of the closure")
    } onChange: { _ in fired.tick() }
    #expect(fired.count == 1)
  }
}
