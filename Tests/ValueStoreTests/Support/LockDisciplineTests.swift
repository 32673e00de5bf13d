import Foundation
import Testing
@testable import ValueStore

/// Runs `body` on a thread of its own and says whether it returned within `seconds`. A deadlocked
/// body leaves its thread blocked, but the test reports it and ends instead of hanging.
func returnsInTime(seconds: Double = 30, _ body: @escaping @Sendable () -> Void) -> Bool {
  // No watchdog: a deadlock here is the failure under test, reported instead of aborting.
  let done = DispatchSemaphore(value: 0)
  Thread {
    body()
    done.signal()
  }.start()
  return done.wait(timeout: .now() + seconds) == .success
}

/// The registry lock is never held while a reference that may be the last one is released, nor
/// while user code runs: a closure's captures (values with observers of their own, tokens) die
/// outside it, and an extent whose last reference turns out to be a temporary made inside it
/// (another thread dropped the value meanwhile) is torn down in place. Taking a holder's lock again
/// from inside its own body stops with a message instead of hanging.
@Suite(.timeLimit(.minutes(1)))
struct LockDisciplineTests {
  /// What an `onChange` closure can capture that takes the registry lock when it dies.
  static let captures: [(name: String, make: @Sendable () -> any Sendable)] = [
    ("an observed bare value", {
      var captured = AppState()
      _ = withTracking { captured.count } onChange: { _ in }
      captured.count += 0
      return Box(captured)
    }),
    ("an observed holder's snapshot", {
      let other = ObservedRoot(AppState())
      _ = withTracking { other.count } onChange: { _ in }
      return Box(other.currentValue)
    }),
    ("an observation token", {
      let other = ObservedRoot(AppState())
      return observe { _ = other.count }
    }),
    ("a holder with observers", {
      let other = ObservedRoot(AppState())
      _ = withTracking { other.child.title } onChange: { _ in }
      return other
    }),
  ]

  /// Defect 1 of issue 12: `Extent.dropInactiveRegistrations` dropped the last reference to a fired
  /// observer inside the registry lock; its closure's captured value took the lock again.
  @Test(arguments: 0..<captures.count)
  func anObserverWhoseClosureCapturesObservedStateDiesOutsideTheLock(_ index: Int) {
    let capture = Self.captures[index]
    let finished = returnsInTime {
      let root = ObservedRoot(AppState())
      do {
        let captured = capture.make()
        _ = withTracking { root.count } onChange: { _ in _ = captured }
      }
      let names = (0..<2).map { _ in tracking { root.name } }
      root.mutate { $0.count += 1 }
      root.mutate { $0.name = "x" }  // withdraws the fired observer's registrations: it dies here
      #expect(names.allSatisfy { $0.count == 1 })
    }
    #expect(finished, "deadlocked releasing \(capture.name) captured by an onChange")
  }

  /// The same through cancellation: a token cancelled while its closure holds observed state.
  @Test func aCancelledSubscriptionWhoseClosureCapturesObservedStateDiesOutsideTheLock() {
    let finished = returnsInTime {
      let root = ObservedRoot(AppState())
      var captured = AppState()
      _ = withTracking { captured.count } onChange: { _ in }
      captured.count += 0
      var token: ObservationToken? = observe { [captured] in _ = (root.count, captured) }
      let others = (0..<3).map { _ in observe { _ = root.count } }
      token?.cancel()
      token = nil
      root.mutate { $0.count += 1 }
      _ = others
    }
    #expect(finished)
  }

  /// The mechanism behind defect 2 of issue 12, made deterministic: the last reference to an
  /// observed extent dies inside the registry lock (there, a temporary made from an observer's
  /// unretained back-link, with the value dropped by another thread). Its teardown runs in place,
  /// and its observer, cancelled afterwards, no longer refers to it.
  @Test func anExtentWhoseLastReferenceDiesInsideTheLockIsTornDownInPlace() {
    let finished = returnsInTime {
      var value: AppState? = AppState()
      let observer = track({ _ = value!.count }, onChange: { _ in }).observer
      var last = [value!._$fields._extent]
      value = nil
      #expect(isKnownUniquelyReferenced(&last[0]))
      withRegistry { _ in last.removeAll() }
      withRegistry { observer?.deactivate(&$0) }
      #expect(withRegistry { _ in observer?.isActive } == false)
    }
    #expect(finished)
  }

  /// Defect 2 of issue 12: deactivating an observer made a temporary strong reference to an extent
  /// it is registered on while another thread dropped the value owning it; the temporary's release
  /// ran the extent's teardown inside the lock. Values die on one thread while their observers are
  /// fired and cancelled on another.
  @Test func valuesDyingOnOneThreadWhileTheirObserversAreDeactivatedOnAnother() {
    let finished = returnsInTime(seconds: 50) {
      let handoff = LockIsolated<[AppState]>([])
      let tokens = LockIsolated<[ObservationToken]>([])
      relOnThreads(3) { thread in
        for round in 0..<3_000 {
          switch thread {
          case 0:  // owns values, observes them, drops them
            var value = AppState()
            value.count = round
            let observed = value
            tokens.withValue { $0.append(observe { _ = observed.count }) }
            handoff.withValue { $0.append(value) }
            _ = withTracking { value.name } onChange: { _ in }
          case 1:  // drops the last other references
            _ = handoff.withValue { $0.popLast() }
          default:  // deactivates the observers
            _ = tokens.withValue { $0.popLast() }?.cancel()
          }
        }
      }
    }
    #expect(finished)
  }

  #if os(macOS) || os(Linux) || os(Windows)
    /// Defect 9 of issue 12: reading a root from inside its own mutation hung (a non-recursive lock).
    @Test func readingARootInsideItsOwnMutationStopsWithAMessage() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let root = ObservedRoot(AppState())
        root.mutate { $0.count = root.count + 1 }
      }
      let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(output.contains("ObservedRoot was read or mutated from inside its own `mutate` or `read` body"))
    }

    @Test func mutatingARootInsideItsOwnReadStopsWithAMessage() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let root = ObservedRoot(AppState())
        root.read { _ in root.mutate { $0.count += 1 } }
      }
      let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(output.contains("ObservedRoot was read or mutated from inside its own `mutate` or `read` body"))
    }

    @Test func readingAStoreInsideItsOwnReducerStopsWithAMessage() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await MainActor.run {
          let holder = LockIsolated<Store<AppState, Int>?>(nil)
          let store = Store(initialState: AppState()) {
            Reduce<AppState, Int> { state, _ in
              state.count = MainActor.assumeIsolated { holder.value!.count } + 1
              return .none
            }
          }
          holder.withValue { $0 = store }
          store.send(1)
        }
      }
      let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(output.contains("the state was read through the store from inside its own reducer"))
    }

    @Test func reenteringALockIsolatedStopsWithAMessage() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let value = LockIsolated(0)
        value.withValue { $0 = value.value }
      }
      let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(output.contains("LockIsolated.withValue was called again from inside its own body"))
    }
  #endif

  /// Observers run after the body: reading and mutating the root from there is fine.
  @Test func observersMayReadAndMutateTheRootTheyObserve() {
    let finished = returnsInTime {
      let root = ObservedRoot(AppState())
      _ = withTracking { root.count } onChange: { _ in
        let count = root.count
        root.mutate { $0.name = "\(count)" }
      }
      root.mutate { $0.count += 1 }
      #expect(root.name == "1")
    }
    #expect(finished)
  }
}

/// A value in a class, so a closure can capture it as an object.
final class Box<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
