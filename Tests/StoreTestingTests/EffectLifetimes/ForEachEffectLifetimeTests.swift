import StoreTesting
import Testing
import ValueStore

/// `forEach` over an identified array: each row's effects live as long as the row, and are its own
/// (TCA's `ForEachReducerTests` and the cancellation cases of its `PresentationReducerTests`).
/// `finish()` fails while an effect still runs, so each test fails if a timer outlives its row.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ForEachEffectLifetimeTests {
  /// How a row leaves the array, each a shape apps write.
  enum Removal: CaseIterable, Sendable { case byItsOwnAction, byTheParent, removeAll, replacedArray }

  @Test func testAutomaticEffectCancellation() async {
    let clock = TestClock()
    let store = TestStore(initialState: TickerList.State(rows: [0])) { TickerList(clock: clock) }
    await store.send(.rows(.element(id: 0, action: .start)))
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 0, action: .tick))) { $0.rows[id: 0]?.ticks = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 0, action: .tick))) { $0.rows[id: 0]?.ticks = 2 }
    await store.send(.add(1)) { $0.rows.append(Ticker.State(id: 1)) }
    await store.send(.rows(.element(id: 1, action: .start)))
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 0, action: .tick))) { $0.rows[id: 0]?.ticks = 3 }
    await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 1 }
    await store.send(.remove(1)) { $0.rows.remove(id: 1) }
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 0, action: .tick))) { $0.rows[id: 0]?.ticks = 4 }
    await store.send(.remove(0)) { $0.rows = [] }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test(arguments: Removal.allCases)
  func aRowsTimerStopsWhenTheRowLeaves(_ removal: Removal) async {
    let (store, clock) = await twoTickingRows()
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 0, action: .tick))) { $0.rows[id: 0]?.ticks = 1 }
    await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 1 }
    switch removal {
    case .byItsOwnAction: await store.send(.rows(.element(id: 0, action: .removeMe))) { $0.rows.remove(id: 0) }
    case .byTheParent: await store.send(.remove(0)) { $0.rows.remove(id: 0) }
    case .removeAll: await store.send(.removeAll) { $0.rows = [] }
    case .replacedArray: await store.send(.replace([1])) { $0.rows[id: 1]?.ticks = 0; $0.rows.remove(id: 0) }
    }
    await clock.advance(by: .seconds(1))
    if removal == .byItsOwnAction || removal == .byTheParent {
      // The other row keeps ticking.
      await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 2 }
      await store.send(.remove(1)) { $0.rows = [] }
    }
    if removal == .replacedArray {
      // Row 1 is the same row (same id): its timer runs on, on the new state.
      await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 1 }
      await store.send(.removeAll) { $0.rows = [] }
    }
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  /// A list of two rows whose timers run.
  func twoTickingRows() async -> (TestStore<TickerList.State, TickerList.Action>, TestClock) {
    let clock = TestClock()
    let store = TestStore(initialState: TickerList.State(rows: [0, 1])) { TickerList(clock: clock) }
    await store.send(.rows(.element(id: 0, action: .start)))
    await store.send(.rows(.element(id: 1, action: .start)))
    return (store, clock)
  }

  /// Two rows with the same `CancelID`: one row's `.cancel(id:)` stops its own timer only.
  @Test func testNavigation_cancelID_childCannotCancelSibling() async {
    let (store, clock) = await twoTickingRows()
    await store.send(.rows(.element(id: 0, action: .stop)))
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 1 }
    await store.send(.rows(.element(id: 1, action: .stop)))
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  /// The parent's `.cancel(id:)` with a row's id stops that effect in every row.
  @Test func testNavigation_cancelID_parentCancelTwoChildren() async {
    let (store, clock) = await twoTickingRows()
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 0, action: .tick))) { $0.rows[id: 0]?.ticks = 1 }
    await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 1 }
    await store.send(.stopAll)
    await clock.advance(by: .seconds(3))
    await store.finish()
  }
}
