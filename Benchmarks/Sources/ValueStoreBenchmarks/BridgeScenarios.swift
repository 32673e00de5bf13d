import Observation
import ValueStore

/// Reads through a store as SwiftUI makes them: inside Apple's `withObservationTracking`, bridged
/// to Observation per field (see ObservationBridge.swift), beside the same on an @Observable object.
enum BridgeScenarios {
  static var all: [Scenario] {
    [
      Scenario(
        name: "store read, tracked by Observation",
        note: """
          One of 100 reads of `store.count` / `object.count` inside one withObservationTracking \
          call on a store / object made for the call (as "read, tracked"): ours probes that \
          Observation tracks, and records the field's bridge.
          """,
        ours: Workload("ours.store.read.appleTracked", operationsPerIteration: 100) { n in
          MainActor.assumeIsolated {
            for _ in 0..<n {
              let store = Store(initialState: Counter(), reducer: CounterFeature())
              withObservationTracking { for _ in 0..<100 { blackHole(store.count) } } onChange: {}
            }
          }
        },
        apple: ReadScenarios.appleTrackedRead
      ),
      Scenario(
        name: "store nested read, tracked by Observation",
        note: "As above, reading `store.child.count` (a field of a child) / `object.child.count`.",
        ours: Workload("ours.store.nestedRead.appleTracked", operationsPerIteration: 100) { n in
          MainActor.assumeIsolated {
            for _ in 0..<n {
              let store = Store(initialState: Parent(), reducer: ParentFeature())
              withObservationTracking { for _ in 0..<100 { blackHole(store.child.count) } } onChange: {}
            }
          }
        },
        apple: Workload("apple.nestedRead.tracked", operationsPerIteration: 100) { n in
          for _ in 0..<n {
            let object = AppleParent()
            withObservationTracking { for _ in 0..<100 { blackHole(object.child.count) } } onChange: {}
          }
        }
      ),
      Scenario(
        name: "send, 1 Observation observer fires",
        note: """
          withObservationTracking of `store.count` / `model.count`, re-armed in its onChange, then \
          `send(.increment)` / `increment()`: ours runs the reducer, fires the field's bridge, \
          and re-arms it on the next read.
          """,
        ours: Workload("ours.send.appleObserved", setUp: appleObservedStore) { fixture, n in
          MainActor.assumeIsolated {
            for _ in 0..<n { fixture.store.send(.increment) }
          }
          fixture.fired.expect(n, in: "ours.send.appleObserved")
        },
        apple: StoreScenarios.appleObservedIncrement
      ),
      Scenario(
        name: "send, 1 Observation observer of 10 fields fires",
        note: """
          As above, the observer reading ten fields (`store.f0` … `store.f9` / `object.f0` … \
          `object.f9`) and `f0` changing: a view reading several fields through a store.
          """,
        ours: Workload("ours.send.appleObserved10", setUp: appleObservedWideStore) { fixture, n in
          MainActor.assumeIsolated {
            for _ in 0..<n { fixture.store.send(.increment) }
          }
          fixture.fired.expect(n, in: "ours.send.appleObserved10")
        },
        apple: Workload("apple.increment.observed10", setUp: observedAppleWide) { fixture, n in
          for _ in 0..<n { fixture.model.f0 += 1 }
          fixture.fired.expect(n, in: "apple.increment.observed10")
        }
      ),
    ]
  }

  private static func appleObservedWideStore() -> (store: Store<Wide, WideFeature.Action>, fired: FireCounter) {
    MainActor.assumeIsolated {
      let (store, fired) = (Store(initialState: Wide(), reducer: WideFeature()), FireCounter())
      observeWideStore(UncheckedBox(store), fired)
      return (store, fired)
    }
  }

  /// As a view on the main actor would: one `assumeIsolated` a round, in `onChange`.
  @MainActor
  private static func observeWideStore(_ store: UncheckedBox<Store<Wide, WideFeature.Action>>, _ fired: FireCounter) {
    withObservationTracking {
      let s = store.value
      blackHole(s.f0 &+ s.f1 &+ s.f2 &+ s.f3 &+ s.f4 &+ s.f5 &+ s.f6 &+ s.f7 &+ s.f8 &+ s.f9)
    } onChange: {
      fired.fire()
      MainActor.assumeIsolated { observeWideStore(store, fired) }
    }
  }

  private static func observedAppleWide() -> (model: AppleWide, fired: FireCounter) {
    let (model, fired) = (AppleWide(), FireCounter())
    observeAppleWide(UncheckedBox(model), fired)
    return (model, fired)
  }

  private static func observeAppleWide(_ model: UncheckedBox<AppleWide>, _ fired: FireCounter) {
    withObservationTracking {
      let m = model.value
      blackHole(m.f0 &+ m.f1 &+ m.f2 &+ m.f3 &+ m.f4 &+ m.f5 &+ m.f6 &+ m.f7 &+ m.f8 &+ m.f9)
    } onChange: {
      fired.fire()
      observeAppleWide(model, fired)
    }
  }

  private static func appleObservedStore() -> (store: Store<Counter, CounterFeature.Action>, fired: FireCounter) {
    MainActor.assumeIsolated {
      let (store, fired) = (Store(initialState: Counter(), reducer: CounterFeature()), FireCounter())
      observeStore(store, fired)
      return (store, fired)
    }
  }

  /// Re-arms itself in its onChange, like a view re-rendering. The store changes on the main actor;
  /// as a view on it would, this pays one `assumeIsolated` a round, in `onChange`.
  @MainActor
  private static func observeStore(_ store: Store<Counter, CounterFeature.Action>, _ fired: FireCounter) {
    let box = UncheckedBox(store)
    withObservationTracking { _ = store.count } onChange: {
      fired.fire()
      MainActor.assumeIsolated { observeStore(box.value, fired) }
    }
  }
}

/// A parent with one child, for nested reads.
struct Parent: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable { var child = Counter() }
  var _$fields = Observed(Fields())
}

/// Adds one to `f0` of ``Wide``.
struct WideFeature: Reducer {
  enum Action: Sendable { case increment }
  func reduce(into state: inout Wide, action: Action) -> Effect<Action> {
    state.f0 += 1
    return .none
  }
}

struct ParentFeature: Reducer {
  func reduce(into state: inout Parent, action: Never) -> Effect<Never> {}
}

/// A parent running its child's feature, for scoped stores.
struct ScopedParentFeature: Reducer {
  enum Action: Sendable { case child(CounterFeature.Action) }

  var body: some Reducer<Parent, Action> {
    Scope(state: \.child, action: CasePath(Action.child)) { CounterFeature() }
  }
}

/// The child store of a parent's `child`.
func scopedCounterStore() -> Store<Counter, CounterFeature.Action> {
  MainActor.assumeIsolated {
    Store(initialState: Parent(), reducer: ScopedParentFeature())
      .scope(state: \.child, action: CasePath(ScopedParentFeature.Action.child))
  }
}

@Observable
final class AppleParent: @unchecked Sendable {
  var child = AppleCounter()
}

/// Carries a main-actor value through a `@Sendable` closure that uses it on the main actor only.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
