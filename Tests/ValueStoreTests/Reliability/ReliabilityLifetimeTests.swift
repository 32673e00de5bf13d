import Foundation
import Testing
@testable import ValueStore

/// An object whose deallocation the tests watch through a weak reference.
final class Canary: Sendable {}

/// Lifetimes: what the library keeps alive, and for how long. Every test drops the last strong
/// reference it holds and checks, through weak references, that the object is gone.
@Suite(.timeLimit(.minutes(1))) struct ReliabilityLifetimeTests {
  @MainActor
  static func store() -> Store<RelState, RelAction> {
    Store(initialState: ReliabilityThreadTests.populated()) {
      Reduce<RelState, RelAction> { state, action in
        if case let .steps(steps) = action {
          for step in steps { step.apply(to: &state, RelCopies()) }
        }
        return .none
      }
    }
  }

  @MainActor @Test func storeAndChildStoresAreFreedWithTheStore() {
    weak var weakStore: Store<RelState, RelAction>?
    weak var weakChild: Store<Child, RelNoAction>?
    do {
      let store = Self.store()
      let child = store.scope(state: \.child, action: CasePath(RelAction.child))
      // Reads install the Observation bridges.
      _ = (store.count, store.child.count, child.count)
      let token = store.observe { _ = store.count }
      store.send(.steps([.addCount(1), .childAdd(1)]))
      (weakStore, weakChild) = (store, child)
      withExtendedLifetime(token) {}
    }
    #expect(weakStore == nil)
    #expect(weakChild == nil)
  }

  /// B11: scoping a collection (`store.scope(state: \.rows, action:)`) arms an observer on the
  /// store's own state whose `onChange` holds the store: the store is never freed.
  @MainActor @Test func storesWithElementStoresAreFreedWithTheStore() {
    weak var weakStore: Store<RelState, RelAction>?
    weak var weakRow: Store<Row, RelNoAction>?
    do {
      let store = Self.store()
      let row = store.scope(state: \.rows, action: CasePath(RelAction.rows))[id: 1]
      _ = row?.count
      (weakStore, weakRow) = (store, row)
    }
    #expect(weakStore == nil)
    #expect(weakRow == nil)
  }

  /// A child store owns its parent's core, not the parent store: the parent store object goes,
  /// the child keeps working on the state they shared.
  @MainActor @Test func aChildStoreOutlivesItsParentStoreObject() {
    weak var weakParent: Store<RelState, RelAction>?
    var child: Store<Child, RelNoAction>?
    do {
      let store = Self.store()
      child = store.scope(state: \.child, action: CasePath(RelAction.child))
      weakParent = store
    }
    #expect(weakParent == nil)
    #expect(child?.count == 0)
    #expect(child?.hasState == true)
    weak let weakChild = child
    child = nil
    #expect(weakChild == nil)
  }

  /// Releasing a store cancels its effects, which then release what they captured.
  @MainActor @Test func effectsAreCancelledAndFreedWithTheStore() async {
    weak var weakCanary: Canary?
    weak var weakStore: Store<RelState, RelAction>?
    let gate = Gate()  // never opened: only cancellation ends the effect
    var task: StoreTask?
    do {
      let canary = Canary()
      weakCanary = canary
      let store = Store(initialState: RelState()) {
        Reduce<RelState, RelAction> { _, _ in
          .run { [canary] _ in
            await gate.wait()
            withExtendedLifetime(canary) {}
          }
        }
      }
      task = store.send(.steps([]))
      weakStore = store
    }
    #expect(weakStore == nil)
    await task?.finish()
    task = nil
    #expect(weakCanary == nil)
  }

  /// A one-shot observer is freed (with what its `onChange` captured) when it fires, and when the
  /// value it observes goes away without changing.
  @Test func oneShotObserversAreFreedWhenFiredOrWhenTheirValueDies() {
    weak var firedCanary: Canary?
    weak var orphanedCanary: Canary?
    weak var weakRoot: ObservedRoot<RelState>?
    /// Tracks `read` with an `onChange` that holds a new canary, returned for the caller to keep
    /// weakly (a local binding would keep it alive to the end of the scope).
    func trackHoldingACanary(_ read: () -> Void) -> Canary? {
      let canary = Canary()
      withTracking(read) { [canary] _ in withExtendedLifetime(canary) {} }
      return canary
    }
    do {
      let root = ObservedRoot(ReliabilityThreadTests.populated())
      weakRoot = root
      firedCanary = trackHoldingACanary { _ = root.count }
      orphanedCanary = trackHoldingACanary { _ = root.read { $0.rows[id: 1]?.title } }
      root.mutate { $0.count += 1 }
      #expect(firedCanary == nil)
      #expect(orphanedCanary != nil)  // still waiting for its row
    }
    #expect(weakRoot == nil)
    #expect(orphanedCanary == nil)
  }

  /// A subscription lives as long as its token: releasing the token frees `apply` and its captures;
  /// cancelling stops it at once.
  @Test func tokensOwnTheirSubscription() {
    let root = ObservedRoot(RelState())
    weak var weakCanary: Canary?
    weak var weakToken: ObservationToken?
    let runs = FireCounter()
    do {
      let canary = Canary()
      weakCanary = canary
      let token = observe { [canary] in
        _ = root.count
        withExtendedLifetime(canary) {}
        runs.tick()
      }
      weakToken = token
      root.mutate { $0.count += 1 }
      #expect(runs.count == 2)
    }
    #expect(weakToken == nil)
    #expect(weakCanary == nil)
    root.mutate { $0.count += 1 }
    #expect(runs.count == 2)
    #expect(relRegistrations(root.currentValue) == 0)
  }
}
