import Observation
import ValueStore

// The store is main-actor isolated and the harness runs on the main thread (top-level code), so
// each body enters the main actor once with `MainActor.assumeIsolated` around its whole loop: a
// check, not a hop, and paid once per sample rather than per operation.

/// Sending actions through a `Store`: the reducer, the send queue, the transaction and the
/// notification of observers; and reading through the store.
enum StoreScenarios {
  /// Rows in the list scenarios, and how many of them have an observer (the first ones).
  static let rowCounts = [1_000, 10_000, 100_000]
  static let observedRows = 1_000

  static var all: [Scenario] {
    [
      Scenario(
        name: "send, 0 observers",
        note: """
          `store.send(.increment)` through a reducer doing `state.count += 1` / an @Observable \
          model's `increment()` method / a plain struct's `count += 1`. Ours includes the send \
          queue, a transaction and the root's slot check.
          """,
        ours: Workload("ours.send", setUp: counterStore) { store, n in
          MainActor.assumeIsolated {
            for i in 0..<n {
              store.send(.increment)
              blackHole(i)
            }
          }
        },
        apple: Workload("apple.increment", setUp: { AppleCounterModel() }) { model, n in
          for i in 0..<n {
            model.increment()
            blackHole(i)
          }
        },
        plain: WriteScenarios.plainWrite
      ),
      Scenario(
        name: "send, 1 observer fires",
        note: """
          A continuous observer of `count` (`store.observe { store.count }` / \
          withObservationTracking re-armed in its onChange), then `send(.increment)` / \
          `increment()`: the change, one observer call and its re-tracking on both sides. Ours \
          also runs the reducer and the send queue, and re-arms the store's Observation bridge \
          for `count` (installed by the first `store.count` read).
          """,
        ours: Workload("ours.send.observed", setUp: observedCounterStore) { fixture, n in
          MainActor.assumeIsolated {
            for _ in 0..<n { fixture.store.send(.increment) }
          }
          fixture.fired.expect(n + 1, in: "ours.send.observed")  // + the first run, by `observe`
        },
        apple: appleObservedIncrement
      ),
    ]
      + rowCounts.map { rowScenario(rows: $0) }
      + [
        Scenario(
          name: "send via forEach, 1 row of 10k changed",
          note: """
            As "send, 1 row of 10k changed", composed with `.forEach(\\.rows, action:)` and a row \
            reducer (explicit CasePath extraction); Apple's model has no reducers: the same \
            `rows[i].count += 1` as above.
            """,
          ours: Workload("ours.send.forEach.10000", setUp: { forEachFixture(rows: 10_000) }) { fixture, n in
            MainActor.assumeIsolated {
              for i in 0..<n { fixture.store.send(.incrementRow(i % observedRows)) }
            }
            fixture.fired.record("ours.send.forEach.10000.fires", operations: n, initial: observedRows)
          },
          apple: appleRowsWorkload(rows: 10_000)
        ),
        Scenario(
          name: "store read, untracked",
          note: """
            `store.count` outside any tracking / `object.count` / `plain.count`. Ours goes through \
            the store's dynamic member: the Observation bridge's lookup and registrar access, then \
            an anchored read of the root.
            """,
          ours: Workload("ours.store.read", setUp: counterStore) { store, n in
            MainActor.assumeIsolated {
              for _ in 0..<n { blackHole(store.count) }
            }
          },
          apple: ReadScenarios.appleRead,
          plain: ReadScenarios.plainRead
        ),
        Scenario(
          name: "store read, untracked, store a view observed",
          note: """
            As above, on a store whose `count` a view read once inside withObservationTracking (its \
            field bridge made and armed): the read asks Observation through the field's key path.
            """,
          ours: Workload("ours.store.read.bridged", setUp: bridgedCounterStore) { store, n in
            MainActor.assumeIsolated {
              for _ in 0..<n { blackHole(store.count) }
            }
          },
          apple: ReadScenarios.appleRead,
          plain: ReadScenarios.plainRead
        ),
        Scenario(
          name: "scoped store read, untracked",
          note: """
            `child.count` on a child store, `store.scope(state: \\.child, action: \\.child)`, outside \
            any tracking / `object.child.count`: the scope reads through its parent.
            """,
          ours: Workload("ours.scopedStore.read", setUp: scopedCounterStore) { store, n in
            MainActor.assumeIsolated {
              for _ in 0..<n { blackHole(store.count) }
            }
          },
          apple: Workload("apple.nestedRead", setUp: { AppleParent() }) { object, n in
            for _ in 0..<n { blackHole(object.child.count) }
          }
        ),
        Scenario(
          name: "store read, tracked",
          note: """
            One of 100 reads of `store.count` inside one `store.observe` call on a long-lived store, \
            cancelled right after (includes 1/100 of observe + cancel) / one of 100 reads inside \
            withObservationTracking on an object made for the call (Apple cannot cancel).
            """,
          ours: Workload("ours.store.read.tracked", operationsPerIteration: 100, setUp: counterStore) { store, n in
            let store = store
            MainActor.assumeIsolated {
              for _ in 0..<n {
                let token = store.observe { for _ in 0..<100 { blackHole(store.count) } }
                token.cancel()
              }
            }
          },
          apple: ReadScenarios.appleTrackedRead
        ),
      ]
  }

  // MARK: - One row of many

  static func rowsLabel(_ rows: Int) -> String { rows >= 1_000 ? "\(rows / 1_000)k" : "\(rows)" }

  static func rowScenarioName(rows: Int) -> String { "send, 1 row of \(rowsLabel(rows)) changed" }

  /// The key under which the ValueStore side records how many observers fired per send.
  static func rowFiresKey(rows: Int) -> String { "ours.send.row.\(rows).fires" }

  private static func rowScenario(rows: Int) -> Scenario {
    Scenario(
      name: rowScenarioName(rows: rows),
      note: """
        \(rows) rows, 1k of them observed, one observer per row (`store.observe { \
        store.rows[id: i]?.count }` / withObservationTracking { model.rows[i].count } re-armed); \
        send `.increment(id:)` (reducer: `state.rows[id: id]?.count += 1`) / \
        `model.rows[i].count += 1` / the plain struct's `rows[offsets[id]!].count += 1`, cycling \
        through the observed rows. Ours: exactly 1 observer fires and re-tracks per send (counted, \
        see Goals). Apple: the array is one property, so all 1,000 observers fire and re-arm on \
        every change (counted: the run stops otherwise).
        """,
      ours: Workload("ours.send.row.\(rows)", setUp: { rowsFixture(rows: rows) }) { fixture, n in
        MainActor.assumeIsolated {
          for i in 0..<n { fixture.store.send(.increment(id: i % observedRows)) }
        }
        fixture.fired.record(rowFiresKey(rows: rows), operations: n, initial: observedRows)
      },
      apple: appleRowsWorkload(rows: rows),
      plain: Workload("plain.row.\(rows)", setUp: { PlainRows(count: rows) }) { plain, n in
        for i in 0..<n {
          plain.rows[plain.offsets[i % observedRows]!].count += 1
          blackHole(i)
        }
      }
    )
  }

  private static func appleRowsWorkload(rows: Int) -> Workload {
    Workload(
      "apple.row.\(rows)",
      setUp: {
        let (model, fired) = (AppleRows(count: rows), FireCounter())
        for index in 0..<observedRows { observeAppleRow(model, index, fired) }
        return (model: model, fired: fired)
      },
      body: { fixture, n in
        for i in 0..<n { fixture.model.rows[i % observedRows].count += 1 }
        fixture.fired.expect(n * observedRows, in: "apple.row.\(rows)")
      })
  }

  /// Apple's continuous observer of `count`, then `increment()`.
  static var appleObservedIncrement: Workload {
    Workload("apple.increment.observed", setUp: observedAppleCounter) { fixture, n in
      for _ in 0..<n { fixture.model.increment() }
      fixture.fired.expect(n, in: "apple.increment.observed")
    }
  }

  // MARK: - Fixtures

  private static func counterStore() -> Store<Counter, CounterFeature.Action> {
    MainActor.assumeIsolated { Store(initialState: Counter(), reducer: CounterFeature()) }
  }

  /// A store a view read once under Observation; the read after it closes the bridge window.
  private static func bridgedCounterStore() -> Store<Counter, CounterFeature.Action> {
    MainActor.assumeIsolated {
      let store = Store(initialState: Counter(), reducer: CounterFeature())
      withObservationTracking { blackHole(store.count) } onChange: {}
      blackHole(store.count)
      return store
    }
  }

  private static func observedCounterStore() -> (
    store: Store<Counter, CounterFeature.Action>, fired: FireCounter, token: ObservationToken
  ) {
    MainActor.assumeIsolated {
      let (store, fired) = (Store(initialState: Counter(), reducer: CounterFeature()), FireCounter())
      let token = store.observe {
        _ = store.count
        fired.fire()
      }
      return (store, fired, token)
    }
  }

  private static func observedAppleCounter() -> (model: AppleCounterModel, fired: FireCounter) {
    let (model, fired) = (AppleCounterModel(), FireCounter())
    observeAppleCounter(model, fired)
    return (model, fired)
  }

  private static func rowsFixture(rows: Int) -> (
    store: Store<RowsState, RowsFeature.Action>, fired: FireCounter, tokens: [ObservationToken]
  ) {
    MainActor.assumeIsolated {
      observeRows(of: Store(initialState: RowsState(count: rows), reducer: RowsFeature()))
    }
  }

  private static func forEachFixture(rows: Int) -> (
    store: Store<RowsState, RowsListAction>, fired: FireCounter, tokens: [ObservationToken]
  ) {
    MainActor.assumeIsolated { observeRows(of: rowsForEachStore(count: rows)) }
  }

  /// One continuous observer of `count` for each of the first ``observedRows`` rows.
  @MainActor
  private static func observeRows<Action>(of store: Store<RowsState, Action>) -> (
    store: Store<RowsState, Action>, fired: FireCounter, tokens: [ObservationToken]
  ) {
    let fired = FireCounter()
    let tokens = (0..<observedRows).map { id in
      store.observe {
        _ = store.rows[id: id]?.count
        fired.fire()
      }
    }
    return (store, fired, tokens)
  }
}

/// Apple's continuous observer of a counter model's `count`.
private func observeAppleCounter(_ model: AppleCounterModel, _ fired: FireCounter) {
  withObservationTracking { _ = model.count } onChange: {
    fired.fire()
    observeAppleCounter(model, fired)
  }
}

/// Apple's continuous observer of one row's `count`.
private func observeAppleRow(_ model: AppleRows, _ index: Int, _ fired: FireCounter) {
  withObservationTracking { _ = model.rows[index].count } onChange: {
    fired.fire()
    observeAppleRow(model, index, fired)
  }
}
