/// The child stores of the elements of an identified array, in order: what a list view iterates.
///
/// ```swift
/// for rowStore in store.scope(state: \.rows, action: AppAction.rows) {
///   render(rowStore.title)
/// }
/// ```
///
/// Element stores are created on first access, cached by id in the parent store, reused across
/// collections, and dropped when their element is removed. Accessing one is O(1). Making the
/// collection reads the array's ids (a tracked read of its structure: a change of order or
/// membership is heard, as with TCA's scoped collections), not its elements; to watch one
/// element and not its siblings, read `store.rows[id: id]` or look it up in a collection made
/// outside the tracking closure.
///
/// A collection is a snapshot: it lists the elements as they were when it was made. Indexed after
/// an element was removed (as SwiftUI's `ForEach` may do with the collection of its last render),
/// it returns a store of that element that reads its last known state and ignores sends with a
/// runtime warning, as TCA's does; `self[id:]` returns nil for it.
@MainActor
public struct StoreCollection<ID: Hashable & Sendable, State, Action: Sendable>: @MainActor RandomAccessCollection {
  /// The elements' ids, in order (reading them makes no store).
  public let ids: ContiguousArray<ID>
  /// The elements when the collection was made, `ids` order: the state of a removed one's store.
  let elements: ChunkedArray<State>
  let cache: ElementStoreCache<ID, State, Action>

  public var startIndex: Int { 0 }
  public var endIndex: Int { ids.count }

  /// The store of the element at `position` (of a removed element: see the type's documentation).
  public subscript(position: Int) -> Store<State, Action> {
    cache.store(id: ids[position], lastKnown: elements[position])
  }

  /// The store of the element with `id`, or nil if there is none.
  public subscript(id id: ID) -> Store<State, Action>? {
    cache.contains(id) ? cache.store(id: id, lastKnown: { preconditionFailure("a present element is read from the state") }()) : nil
  }
}

/// The element stores of one scoped collection, by id.
@MainActor
final class ElementStoreCache<ID: Hashable & Sendable, State, Action: Sendable> {
  private var stores: [ID: Store<State, Action>] = [:]
  let contains: (ID) -> Bool
  private let make: (ID, () -> State) -> Store<State, Action>

  init(contains: @escaping (ID) -> Bool, make: @escaping (ID, () -> State) -> Store<State, Action>) {
    self.contains = contains
    self.make = make
  }

  /// The cached store of `id`, made if there is none; for an element that is gone, an uncached
  /// store that reads `lastKnown` (a cached one would outlive its element until the next prune).
  func store(id: ID, lastKnown: @autoclosure () -> State) -> Store<State, Action> {
    if let store = stores[id] { return store }
    let store = make(id, lastKnown)
    if contains(id) { stores[id] = store }
    return store
  }

  /// The ids when the cache was last pruned.
  private var lastIDs: ContiguousArray<ID> = []

  /// Drops the stores of elements not in `ids`. Appending removes nothing: that common case costs
  /// one comparison of the ids (no hashing, no read through the store per cached element).
  func prune(keeping ids: ContiguousArray<ID>) {
    defer { lastIDs = ids }
    if ids.isAppended(to: lastIDs) { return }
    let present = Set(ids)
    stores = stores.filter { present.contains($0.key) }
  }

  var count: Int { stores.count }
}

extension Store {
  /// The child stores of the elements of an identified array field.
  public func scope<ID, ElementState, ElementAction>(
    state: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    action: CasePath<Action, IdentifiedAction<ID, ElementAction>>
  ) -> StoreCollection<ID, ElementState, ElementAction> {
    elementStores(
      key: ScopeKey(state: state, action: ElementAction.self), ids: { $0[keyPath: state].ids },
      elements: { $0[keyPath: state]._elements },
      element: { $0[keyPath: state][id: $1] }, embed: { action.embed(.element(id: $0, action: $1)) })
  }

  /// The child stores of the elements of an identified array field, for the actions of the case
  /// `action` constructs.
  public func scope<ID, ElementState, ElementAction>(
    state: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    action: @escaping @Sendable (IdentifiedAction<ID, ElementAction>) -> Action
  ) -> StoreCollection<ID, ElementState, ElementAction> {
    scope(state: state, action: CasePath(action))
  }

  /// The element stores of a collection of the state (cached under `key`), in the order `ids`
  /// reads; `elements` gives them in that order, sharing the array's storage (O(1): a write to the
  /// array while the collection is kept copies the path to what it writes, as a snapshot of the
  /// state would; copying here would cost O(n) on every scope), `element` finds one,
  /// `embed` makes the action that carries one's action.
  func elementStores<ID, ElementState, ElementAction>(
    key: ScopeKey,
    ids: @escaping (State) -> ContiguousArray<ID>,
    elements: (State) -> ChunkedArray<ElementState>,
    element: @escaping (State, ID) -> ElementState?,
    embed: @escaping @Sendable (ID, ElementAction) -> Action
  ) -> StoreCollection<ID, ElementState, ElementAction> {
    let cache = cachedChild(key) {
      elementStoreCache(ids: ids, element: element, embed: embed)
    }
    // The elements are not read: only the ids are, so a view hears a change of membership only.
    return StoreCollection(ids: withState(ids), elements: untracked { withState(elements) }, cache: cache)
  }

  private func elementStoreCache<ID, ElementState, ElementAction>(
    ids: @escaping (State) -> ContiguousArray<ID>,
    element: @escaping (State, ID) -> ElementState?,
    embed: @escaping @Sendable (ID, ElementAction) -> Action
  ) -> ElementStoreCache<ID, ElementState, ElementAction> {
    let core = self.core
    let cache = ElementStoreCache<ID, ElementState, ElementAction>(
      contains: { id in core.read { element($0, id) != nil } },
      make: { id, lastKnown in
        Store<ElementState, ElementAction>(
          core: ScopedCore(
            base: core, path: "\(core.path) → \(ElementState.self)[id: \(id)]",
            initial: core.read { element($0, id) } ?? lastKnown(),
            toState: { element($0, id) },
            fromAction: { embed(id, $0) }))
      })
    let current = pruneOnRemoval(cache, ids: { [weak core] in core?.read { ids($0) } })
    cache.prune(keeping: current ?? [])
    return cache
  }

  /// Keeps `cache` free of removed elements: tracks the array's structure (its ids), and when it
  /// changes prunes the cache and tracks it again. Returns the ids read.
  @discardableResult
  private func pruneOnRemoval<ID, ElementState, ElementAction>(
    _ cache: ElementStoreCache<ID, ElementState, ElementAction>,
    ids: @escaping @MainActor () -> ContiguousArray<ID>?
  ) -> ContiguousArray<ID>? {
    // Weak: this registration lives on the store's own state; holding the store or the cache
    // from it would keep them alive forever.
    let weakCache = UncheckedWeak(cache)
    let weakStore = UncheckedWeak(self)
    return withTracking(ids) { _ in
      MainActor.assumeIsolated {
        guard let cache = weakCache.value, let store = weakStore.value else { return }
        cache.prune(keeping: store.pruneOnRemoval(cache, ids: ids) ?? [])
      }
    }
  }
}

/// A weak reference to a main-actor object, passed through `@Sendable` closures that only
/// dereference it on the main actor.
struct UncheckedWeak<Object: AnyObject>: @unchecked Sendable {
  weak var value: Object?
  init(_ value: Object) { self.value = value }
}
