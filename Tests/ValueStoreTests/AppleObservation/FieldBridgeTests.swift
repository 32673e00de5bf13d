import Foundation
import Observation
import Testing
@testable import ValueStore

/// A root store's fields as Apple's Observation sees them (FieldBridges.swift): one registrar for
/// the store, a key path per field read under Observation, re-armed round after round, carried
/// through forks and root replacements, and never recorded inside `untracked`.
@MainActor @Suite struct FieldBridgeTests {
  typealias TestStore = Store<BridgeState, BridgeFeature.Action>

  private func makeStore() -> TestStore { Store(initialState: BridgeState(), reducer: BridgeFeature()) }

  /// A view re-rendering on each change: it tracks `read` again in its onChange.
  private func view(_ store: TestStore, _ fired: FireCounter, _ read: @escaping @MainActor (TestStore) -> Void) {
    let box = UncheckedStore(store)
    withObservationTracking { read(store) } onChange: {
      fired.tick()
      MainActor.assumeIsolated { view(box.store, fired, read) }
    }
  }

  @Test func aViewIsToldOfEveryChangeOfItsFieldsAndOfNothingElse() {
    let store = makeStore()
    let fired = FireCounter()
    view(store, fired) { _ = ($0.count, $0.name) }
    for round in 1...5 {
      store.send(.edit { $0.count += 1 })
      store.send(.edit { $0.child.count += 1 })
      store.send(.edit { $0.name += "x" })
      #expect(fired.count == 2 * round)
    }
  }

  @Test func viewsReadingDifferentFieldsAreToldSeparately() {
    let store = makeStore()
    let (counts, names) = (FireCounter(), FireCounter())
    view(store, counts) { _ = $0.count }
    view(store, names) { _ = $0.name }
    store.send(.edit { $0.name = "x" })
    #expect(counts.count == 0)
    #expect(names.count == 1)
    store.send(.edit { $0.count += 1 })
    #expect(counts.count == 1)
    #expect(names.count == 1)
  }

  /// A snapshot of the state alive during the change (an undo history, a test's "before") forks
  /// the store's value: the armed field is carried to the fork, and re-armed on it.
  @Test func aSnapshotAliveDuringTheChangeDoesNotLoseTheView() {
    let store = makeStore()
    let fired = FireCounter()
    view(store, fired) { _ = $0.count }
    var snapshots: [BridgeState] = []
    for round in 1...3 {
      snapshots.append(store.currentState)
      store.send(.edit { $0.count += 1 })
      #expect(fired.count == round)
    }
    #expect(snapshots.map(\.count) == [0, 1, 2])
  }

  /// Replacing the whole state tells the view (its value was replaced), which reads the new value
  /// and hears its changes.
  @Test func replacingTheStateIsHeardAndTheNewValueObserved() {
    let store = makeStore()
    let fired = FireCounter()
    view(store, fired) { _ = $0.count }
    store.send(.edit { $0 = BridgeState() })
    #expect(fired.count == 1)
    store.send(.edit { $0.count += 1 })
    #expect(fired.count == 2)
  }

  /// Once a field has a key path, an untracked read of it is asked of Observation through that
  /// key path; inside `untracked` it must not be recorded.
  @Test func aFieldReadInsideUntrackedIsNotRecordedOnceItHasAKeyPath() {
    let store = makeStore()
    withObservationTracking { _ = store.count } onChange: {}
    #expect(appleKeys(store) == 1)
    _ = store.count  // finds Observation gone: the next read is on the fast path
    let fired = FireCounter()
    withObservationTracking {
      untracked { _ = store.count }
      _ = store.name
    } onChange: { fired.tick() }
    store.send(.edit { $0.count += 1 })
    #expect(fired.count == 0)
    store.send(.edit { $0.name = "x" })
    #expect(fired.count == 1)
  }

  /// Our own tracking makes no key paths for Observation (the store's bridges ask it whether it
  /// tracks, but bridge no field): only reads it tracks do, one registrar for the store and one
  /// key path per field.
  @Test func onlyReadsObservationTracksMakeKeyPathsOneRegistrarPerStore() {
    let store = makeStore()
    let token = store.observe { _ = (store.count, store.name) }
    _ = withTracking { store.child.count } onChange: { _ in }
    #expect(appleKeys(store) == 0)
    withObservationTracking { _ = (store.count, store.name, store.count) } onChange: {}
    #expect(appleKeys(store) == 2)
    token.cancel()
  }

  /// A read of a field made first while the window is open (another field opened it) is recorded
  /// too, through its new key path.
  @Test func eachFieldOfOneViewGetsItsKeyPath() {
    let store = makeStore()
    let fired = FireCounter()
    view(store, fired) { _ = ($0.name, $0.count, $0.child.count) }
    store.send(.edit { $0.count += 1 })
    store.send(.edit { $0.child.count += 1 })
    store.send(.edit { $0.name = "x" })
    #expect(fired.count == 3)
  }

  /// A store and its armed fields go away with their last reference: nothing the bridge registers
  /// keeps the store alive.
  @Test func aStoreWithArmedFieldsIsReleased() {
    weak var weakStore: TestStore?
    weak var weakLocation: Location?
    do {
      let store = makeStore()
      weakStore = store
      withObservationTracking { _ = (store.count, store.child.count) } onChange: {}
      weakLocation = store.holderRoot?.location
      #expect(weakLocation != nil)
    }
    #expect(weakStore == nil)
    #expect(weakLocation == nil)  // Apple's registrations on it held it
  }

  /// A bridge window left open after a closure (its reads below the top level needed it) closes
  /// at a read that finds Observation gone. Reads of armed `Int` fields seldom ask (asking costs a
  /// second Observation access), but they ask often enough: within 16 reads it is closed, and
  /// reads of every holder are back on their fast path.
  @Test func readsOfArmedFieldsCloseAWindowLeftOpen() {
    let store = makeStore()
    withObservationTracking { _ = (store.child.count, store.count) } onChange: {}
    #expect(ThreadContext.current.window != nil)
    for _ in 0..<16 { _ = store.count }
    #expect(ThreadContext.current.window == nil)
  }

  /// A field's observer stays registered while the field is read between changes (a view
  /// re-rendering), and retires once a change finds it unread: a view that went away costs
  /// nothing after the next change. A later view arms it again and hears every change.
  @Test func aFieldsObserverStaysWhileReadAndRetiresOnceUnread() {
    let store = makeStore()
    let fired = FireCounter()
    withObservationTracking { _ = store.count } onChange: { fired.tick() }
    store.send(.edit { $0.count += 1 })
    #expect(fired.count == 1)
    store.send(.edit { $0.count += 1 })
    _ = store.count  // untracked: subscribes nothing
    let again = FireCounter()
    view(store, again) { _ = $0.count }
    for round in 1...3 {
      store.send(.edit { $0.count += 1 })
      #expect(again.count == round)
    }
    #expect(fired.count == 1)
  }

  /// The ways the store's value leaves the extent a field's observer is registered on — a fork
  /// carrying it (a snapshot alive), a replacement leaving it behind, a return to a snapshot whose
  /// registrations had moved on — each followed by a change: a view re-arming after each change,
  /// and one made afresh after the move, hear exactly the changes of the field they read.
  @Test(arguments: [0, 1, 2, 3])
  func aViewFollowsTheStoresValueThroughForksReplacementsAndReturns(_ shape: Int) {
    let store = makeStore()
    let (counts, names) = (FireCounter(), FireCounter())
    view(store, counts) { _ = $0.count }
    view(store, names) { _ = $0.name }
    let snapshot = store.currentState
    store.send(.edit { $0.count += 1 })  // forks: the snapshot holds the old extent
    #expect(counts.count == 1)
    switch shape {
    case 0: store.send(.edit { $0 = snapshot })  // back to the extent the observers left
    case 1: store.send(.edit { $0 = BridgeState() })
    case 2:
      store.send(.edit { $0 = snapshot })
      store.send(.edit { $0 = snapshot })  // replaced by the very value it holds
    default:
      let later = store.currentState
      store.send(.edit { $0.count += 1 })
      store.send(.edit { $0 = later })
    }
    let replacements = names.count  // a replacement is heard by every field's view
    #expect(replacements >= 1)
    #expect(counts.count == 1 + replacements + (shape == 3 ? 1 : 0))
    let fresh = FireCounter()
    withObservationTracking { _ = store.count } onChange: { fresh.tick() }
    store.send(.edit { $0.name += "x" })
    let counted = counts.count
    #expect(names.count == replacements + 1)
    #expect(fresh.count == 0)
    store.send(.edit { $0.count += 1 })
    #expect(counts.count == counted + 1)
    #expect(names.count == replacements + 1)
    #expect(fresh.count == 1)
  }
}

/// Carries a main-actor store through Observation's `@Sendable` onChange.
private struct UncheckedStore: @unchecked Sendable {
  let store: Store<BridgeState, BridgeFeature.Action>
  init(_ store: Store<BridgeState, BridgeFeature.Action>) { self.store = store }
}

/// More fields than the pool of argument-less key paths holds (FieldBridges+KeyPaths.swift).
struct WideBridgeState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var f0 = 0, f1 = 0, f2 = 0, f3 = 0, f4 = 0, f5 = 0, f6 = 0, f7 = 0, f8 = 0, f9 = 0
    var f10 = 0, f11 = 0, f12 = 0, f13 = 0, f14 = 0, f15 = 0, f16 = 0, f17 = 0, f18 = 0, f19 = 0
  }
  var _$fields = Observed(Fields())

  static let all: [WritableKeyPath<Fields, Int> & Sendable] = [
    \.f0, \.f1, \.f2, \.f3, \.f4, \.f5, \.f6, \.f7, \.f8, \.f9,
    \.f10, \.f11, \.f12, \.f13, \.f14, \.f15, \.f16, \.f17, \.f18, \.f19,
  ]
}

@MainActor @Suite struct WideFieldBridgeTests {
  /// Views of single fields, armed in turn so that the late ones get subscript key paths, each
  /// re-arming: every field's view hears exactly its field's changes, twice over (both
  /// generations of each key path).
  @Test func everyFieldsViewHearsItsFieldAloneBeyondThePool() {
    let store = Store(initialState: WideBridgeState()) {
      Reduce<WideBridgeState, Int> { state, index in
        state[dynamicMember: WideBridgeState.all[index]] += 1
        return .none
      }
    }
    let counters = WideBridgeState.all.map { _ in FireCounter() }
    for (index, counter) in counters.enumerated() { wideView(store, index, counter) }
    #expect(appleKeys(store) == WideBridgeState.all.count)
    for round in 1...2 {
      for index in WideBridgeState.all.indices {
        store.send(index)
        #expect(counters[index].count == round, "field \(index)")
        #expect(counters.enumerated().allSatisfy { $0.offset <= index ? $0.element.count == round : $0.element.count == round - 1 })
      }
    }
  }

  private func wideView(_ store: Store<WideBridgeState, Int>, _ index: Int, _ fired: FireCounter) {
    let box = UncheckedWideStore(store)
    withObservationTracking { _ = store[dynamicMember: WideBridgeState.all[index]] } onChange: {
      fired.tick()
      MainActor.assumeIsolated { wideView(box.store, index, fired) }
    }
  }
}

private struct UncheckedWideStore: @unchecked Sendable {
  let store: Store<WideBridgeState, Int>
  init(_ store: Store<WideBridgeState, Int>) { self.store = store }
}

/// How many of a root store's top-level keys Apple's Observation knows a key path for.
@MainActor
func appleKeys<State, Action>(_ store: Store<State, Action>) -> Int {
  withRegistry { _ in store.holderRoot!.location.apple?.keyCount ?? 0 }
}
