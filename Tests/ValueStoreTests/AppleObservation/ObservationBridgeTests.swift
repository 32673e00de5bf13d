import Foundation
import Observation
import Testing
@testable import ValueStore

/// State with every shape a view reads: fields, a computed property, children three levels deep,
/// an optional child, an enum payload, an identified array, a plain array.
struct BridgeState: ObservableState, Equatable, Sendable {
  struct Middle: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var child = Child() }
    var _$fields = Observed(Fields())
  }
  struct Outer: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var middle = Middle() }
    var _$fields = Observed(Fields())
  }
  struct Fields: Equatable, Sendable {
    var count = 0
    var name = ""
    var child = Child()
    var outer = Outer()
    var optional: Child? = Child()
    var mode = Mode.editing(Child())
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1), Row(id: 2)]
    var plain = [Child(), Child()]
  }
  var _$fields = Observed(Fields())
  var isEven: Bool { self.count.isMultiple(of: 2) }
}

/// Edits the state with a closure; row and child actions go to scoped stores.
struct BridgeFeature: Reducer {
  enum Action: Sendable {
    case edit(@Sendable (inout BridgeState) -> Void)
    case rows(IdentifiedAction<Int, RowAction>)
    case child(RowAction)
    case optional(RowAction)
  }
  func reduce(into state: inout BridgeState, action: Action) -> Effect<Action> {
    switch action {
    case let .edit(edit): edit(&state)
    case let .rows(.element(id, .increment)): state.rows[id: id]?.count += 1
    case let .rows(.element(id, .rename(title))): state.rows[id: id]?.title = title
    case .child(.increment): state.child.count += 1
    case let .child(.rename(title)): state.child.title = title
    case .optional(.increment): state.optional?.count += 1
    case let .optional(.rename(title)): state.optional?.title = title
    }
    return .none
  }
}

/// Apple's Observation — what SwiftUI uses — sees every read made through a store or a root at any
/// depth, and fires only when something read changed (issue 13).
@MainActor @Suite struct ObservationBridgeTests {
  typealias Edit = @Sendable (inout BridgeState) -> Void

  /// A read through a store, a change of what it read, a change of something it did not read.
  struct Shape: Sendable {
    let name: String
    let read: @MainActor @Sendable (Store<BridgeState, BridgeFeature.Action>) -> Void
    let change: Edit
    let unrelated: Edit
    /// The same read through an `ObservedRoot`, where it has one.
    var rootRead: (@Sendable (ObservedRoot<BridgeState>) -> Void)?
    /// A change of what it read made after `change` (which may not change it again).
    var again: Edit?
  }

  nonisolated static let shapes: [Shape] = [
    Shape(name: "store.count", read: { _ = $0.count }, change: { $0.count += 1 }, unrelated: { $0.name = "x" },
          rootRead: { _ = $0.count }),
    Shape(name: "store.isEven", read: { _ = $0.isEven }, change: { $0.count += 1 }, unrelated: { $0.name = "x" },
          rootRead: { _ = $0.isEven }),
    Shape(name: "store.child.count", read: { _ = $0.child.count }, change: { $0.child.count += 1 },
          unrelated: { $0.child.title = "x" },
          rootRead: { _ = $0.child.count }),
    Shape(name: "store.outer.middle.child.count", read: { _ = $0.outer.middle.child.count },
          change: { $0.outer.middle.child.count += 1 }, unrelated: { $0.outer.middle.child.title = "x" },
          rootRead: { _ = $0.outer.middle.child.count }),
    Shape(name: "store.optional?.count", read: { _ = $0.optional?.count }, change: { $0.optional?.count += 1 },
          unrelated: { $0.optional?.title = "x" },
          rootRead: { _ = $0.optional?.count }),
    Shape(name: "store.optional?.count, set to nil", read: { _ = $0.optional?.count }, change: { $0.optional = nil },
          unrelated: { $0.child.count += 1 },
          rootRead: { _ = $0.optional?.count }, again: { $0.optional = Child() }),
    Shape(name: "store.mode.payload?.count", read: { _ = $0.mode.payload?.count },
          change: { $0.mode.modifyEditing { $0.count += 1 } }, unrelated: { $0.mode.modifyEditing { $0.title = "x" } },
          rootRead: { _ = $0.mode.payload?.count }),
    Shape(name: "store.rows.count", read: { _ = $0.rows.count }, change: { $0.rows.append(Row(id: 3)) },
          unrelated: { $0.rows[id: 1]?.title = "x" },
          rootRead: { _ = $0.rows.count }, again: { $0.rows.append(Row(id: 4)) }),
    Shape(name: "store.rows[id: 1]?.title", read: { _ = $0.rows[id: 1]?.title }, change: { $0.rows[id: 1]?.title = "x" },
          unrelated: { $0.rows[id: 1]?.count += 1 },
          rootRead: { _ = $0.rows[id: 1]?.title }, again: { $0.rows[id: 1]?.title = "y" }),
    Shape(name: "store.plain[0].count", read: { _ = $0.plain[0].count }, change: { $0.plain[0].count += 1 },
          unrelated: { $0.plain[1].count += 1 },
          rootRead: { _ = $0.plain[0].count }),
    Shape(name: "store.withState { child.title }", read: { store in store.withState { _ = $0.child.title } },
          change: { $0.child.title = "x" }, unrelated: { $0.child.count += 1 },
          rootRead: { root in root.read { _ = $0.child.title } }, again: { $0.child.title = "y" }),
    Shape(name: "store.currentState.child.title", read: { _ = $0.currentState.child.title }, change: { $0.child.title = "x" },
          unrelated: { $0.child.count += 1 },
          rootRead: { _ = $0.currentValue.child.title }, again: { $0.child.title = "y" }),
    Shape(name: "iterating a StoreCollection", read: { store in
            for row in store.scope(state: \.rows, action: CasePath(BridgeFeature.Action.rows)) { _ = row }
          }, change: { $0.rows.append(Row(id: 3)) }, unrelated: { $0.rows[id: 2]?.count += 1 },
          again: { $0.rows.append(Row(id: 4)) }),
    Shape(name: "an element store's title", read: { store in
            _ = store.scope(state: \.rows, action: CasePath(BridgeFeature.Action.rows))[id: 2]?.title
          }, change: { $0.rows[id: 2]?.title = "x" }, unrelated: { $0.rows[id: 2]?.count += 1 },
          again: { $0.rows[id: 2]?.title = "y" }),
    Shape(name: "a child store's count", read: { store in
            _ = store.scope(state: \.child, action: CasePath(BridgeFeature.Action.child)).count
          }, change: { $0.child.count += 1 }, unrelated: { $0.child.title = "x" }),
    Shape(name: "an optional child store's title", read: { store in
            _ = store.scope(state: \.optional, action: CasePath(BridgeFeature.Action.optional))?.title
          }, change: { $0.optional?.title = "x" }, unrelated: { $0.optional?.count += 1 },
          again: { $0.optional?.title = "y" }),
  ]

  @Test(arguments: 0..<shapes.count)
  func aReadThroughAStoreFiresForItsChangeOnly(_ index: Int) {
    let shape = Self.shapes[index]
    let store = Store(initialState: BridgeState(), reducer: BridgeFeature())
    let fired = FireCounter()
    withObservationTracking { shape.read(store) } onChange: { fired.tick() }
    store.send(.edit(shape.unrelated))
    #expect(fired.count == 0, "spurious: \(shape.name)")
    store.send(.edit(shape.change))
    #expect(fired.count == 1, "lost: \(shape.name)")
  }

  /// The same reads through an `ObservedRoot` (its accessors and `read`), mutated in place.
  @Test(arguments: 0..<shapes.count)
  func aReadThroughARootFiresForItsChangeOnly(_ index: Int) {
    let shape = Self.shapes[index]
    guard let read = shape.rootRead else { return }
    let root = ObservedRoot(BridgeState())
    let fired = FireCounter()
    withObservationTracking { read(root) } onChange: { fired.tick() }
    root.mutate(shape.unrelated)
    #expect(fired.count == 0, "spurious: \(shape.name)")
    root.mutate(shape.change)
    #expect(fired.count == 1, "lost: \(shape.name)")
  }

  @Test func readsOutsideTrackingAndUntrackedReadsAreNotBridged() {
    let store = Store(initialState: BridgeState(), reducer: BridgeFeature())
    _ = store.count
    let fired = FireCounter()
    withObservationTracking { untracked { _ = store.child.count } } onChange: { fired.tick() }
    store.send(.edit { $0.child.count += 1 })
    #expect(fired.count == 0)
  }

  @Test func aCopyTakenOutOfTheStoreAndMutatedDoesNotFire() {
    let store = Store(initialState: BridgeState(), reducer: BridgeFeature())
    let fired = FireCounter()
    withObservationTracking { _ = store.child.count } onChange: { fired.tick() }
    var copy = store.currentState
    copy.child.count += 1
    #expect(fired.count == 0)
    store.send(.edit { $0.child.count += 1 })
    #expect(fired.count == 1)
  }

  @Test func twoViewsReadingDifferentFieldsFireSeparately() {
    let store = Store(initialState: BridgeState(), reducer: BridgeFeature())
    let (first, second) = (FireCounter(), FireCounter())
    withObservationTracking { _ = store.rows[id: 1]?.title } onChange: { first.tick() }
    withObservationTracking { _ = store.rows[id: 2]?.title } onChange: { second.tick() }
    store.send(.edit { $0.rows[id: 2]?.title = "x" })
    #expect(first.count == 0)
    #expect(second.count == 1)
  }

  @Test(.timeLimit(.minutes(1)))
  func observationsOnAStoreYieldsEachNewValue() async {
    let store = Store(initialState: BridgeState(), reducer: BridgeFeature())
    var values = Observations { store.child.count }.makeAsyncIterator()
    #expect(await values.next() == 0)
    store.send(.edit { $0.child.count += 1 })
    #expect(await values.next() == 1)
    store.send(.edit { $0.child.title = "x" })
    store.send(.edit { $0.child.count += 1 })
    #expect(await values.next() == 2)
  }

  /// Bridges of fields that changed, or whose value is gone, do not pile up: views re-reading
  /// rows that come and go keep the bridge cache and the registration tables bounded. On a thread
  /// of its own: the cache is per thread, and other tests' never-fired Observation registrations
  /// keep theirs alive (as Apple's own registrar keeps its observers until they fire).
  @Test(.timeLimit(.minutes(1))) nonisolated func bridgesOfFieldsThatChangedOrWentAwayAreDropped() {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let sizes = LockIsolated<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let root = ObservedRoot(BridgeState())
      for round in 0..<2_000 {
        let id = 100 + round
        root.mutate { $0.rows.append(Row(id: id)) }
        withObservationTracking { _ = (root.rows[id: id]?.title, root.count) } onChange: {}
        root.mutate { _ = $0.rows.remove(id: id) }
        if round % 500 == 499 { sizes.withValue { $0.append(withRegistry { _ in root.root.location.treeSize }) } }
      }
      done.signal()
    }
    done.wait()
    #expect(sizes.value.count == 4)
    #expect(sizes.value.allSatisfy { $0 < 200 }, "\(sizes.value)")
  }
}
