import Observation
import Testing
@testable import ValueStore

// Reads through a holder (a store, a child store, an `ObservedRoot`) of a computed property of
// `Fields`, which reads other values (key `.any`), and child store reads no scope records: each
// stays anchored to the holder exactly as a read inside `read { }` is — found by a review of the
// reads that project the field at the call site (each failed there first).

/// A state whose `Fields` has a computed property reading a child's field through the child's
/// dynamic member: the holder's field subscript (`KeyPath<Fields, T>`) accepts it (key `.any`).
struct ReadPathInner: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var child = Child()
    var count = 0
  }
  var _$fields = Observed(Fields())
}
extension ReadPathInner.Fields {
  var childCount: Int { child.count }
}

struct ReadPathParent: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var child = Child()
    var inner = ReadPathInner()
  }
  var _$fields = Observed(Fields())
}
extension ReadPathParent.Fields {
  var childCount: Int { child.count }
}

enum ReadPathAction: Sendable {
  case inner(ReadPathInnerAction)
  case bump
}

enum ReadPathInnerAction: Sendable { case none }

@MainActor
func readPathStore() -> Store<ReadPathParent, ReadPathAction> {
  Store(initialState: ReadPathParent()) {
    Reduce<ReadPathParent, ReadPathAction> { state, action in
      if case .bump = action { state.child.count += 1; state.inner.child.count += 1 }
      return .none
    }
  }
}

@Suite struct ReadPathReadPathTests {
  /// S24: a read through the holder, then a bare copy of the root mutated outside it: N.
  @Test func computedFieldsPropertyThroughObservedRootIsAnchored() {
    let root = ObservedRoot(ReadPathParent())
    let reader = tracking { _ = root.childCount }
    var copy = root.currentValue
    copy.child.count += 1
    #expect(reader.count == 0, "spurious: a copy mutated outside the holder notified a holder read")
    root.mutate { $0.child.count += 1 }
    #expect(reader.count == 1)
  }

  @MainActor @Test func computedFieldsPropertyThroughRootStoreIsAnchored() {
    let store = readPathStore()
    let reader = tracking { _ = store.childCount }
    var copy = store.currentState
    copy.child.count += 1
    #expect(reader.count == 0, "spurious: a copy mutated outside the store notified a store read")
    store.send(.bump)
    #expect(reader.count == 1)
  }

  @MainActor @Test func computedFieldsPropertyThroughChildStoreIsAnchored() {
    let store = readPathStore()
    let inner = store.scope(state: \.inner, action: ReadPathAction.inner)
    let reader = tracking { _ = inner.childCount }
    var copy = store.currentState
    copy.inner.child.count += 1
    #expect(reader.count == 0, "spurious: a copy mutated outside the store notified a child store read")
    store.send(.bump)
    #expect(reader.count == 1)
  }

  /// Control: the same read through a stored field then the child's field (no computed property).
  @MainActor @Test func storedPathThroughChildStoreIsAnchored() {
    let store = readPathStore()
    let inner = store.scope(state: \.inner, action: ReadPathAction.inner)
    let reader = tracking { _ = inner.child.count }
    var copy = store.currentState
    copy.inner.child.count += 1
    #expect(reader.count == 0)
    store.send(.bump)
    #expect(reader.count == 1)
  }
}

@Suite struct ReadPathBridgeReadPathTests {
  /// The same through Apple's withObservationTracking (the bridge registers the nested read).
  @MainActor @Test func computedFieldsPropertyThroughStoreUnderObservationIsAnchored() {
    let store = readPathStore()
    let fired = FireCounter()
    withObservationTracking { _ = store.childCount } onChange: { fired.tick() }
    var copy = store.currentState
    copy.child.count += 1
    #expect(fired.count == 0, "spurious: Observation told of a copy mutated outside the store")
    store.send(.bump)
    #expect(fired.count == 1)
  }
}

@Suite struct ReadPathStickyAnchorTests {
  /// A child store read that no scope on this thread records (inside `untracked`, or while a scope
  /// is open on another thread) now marks the child's extent anchored; a bare copy of the child
  /// tracked afterwards then registers anchored, and its own mutation is not heard.
  @MainActor @Test func untrackedChildStoreReadDoesNotAnchorTheChild() {
    // Nothing tracks on this thread: a bridge window another test's `withObservationTracking`
    // left open here (it closes at the next read that finds Observation gone) is closed first.
    ThreadContext.current.closeAppleWindow()
    let store = readPathStore()
    let inner = store.scope(state: \.inner, action: ReadPathAction.inner)
    _ = withTracking { untracked { inner.child.count } } onChange: { _ in }
    var copy = store.currentState.inner
    let reader = tracking { _ = copy.count }
    copy.count += 1
    #expect(reader.count == 1, "lost: a bare copy's own mutation")
  }

  /// The same with the scope open on another thread (simulated: the global count of open scopes).
  @MainActor @Test func childStoreReadWhileAnotherThreadTracksDoesNotAnchorTheChild() {
    // Nothing tracks on this thread: a bridge window another test's `withObservationTracking`
    // left open here (it closes at the next read that finds Observation gone) is closed first.
    ThreadContext.current.closeAppleWindow()
    let store = readPathStore()
    let inner = store.scope(state: \.inner, action: ReadPathAction.inner)
    openTrackingScopes.add(1, ordering: .relaxed)
    _ = inner.child.count
    openTrackingScopes.subtract(1, ordering: .relaxed)
    var copy = store.currentState.inner
    let reader = tracking { _ = copy.count }
    copy.count += 1
    #expect(reader.count == 1, "lost: a bare copy's own mutation")
  }
}

@Suite struct ReadPathBridgeOrderTests {
  /// Under withObservationTracking while a scope is open elsewhere (simulated: the global count),
  /// the store skips the probe before the field is projected; the computed property's nested read
  /// then runs before the bridge window opens and is not bridged.
  @MainActor @Test func computedFieldsPropertyUnderObservationWhileAnotherThreadTracks() {
    let store = readPathStore()
    let fired = FireCounter()
    openTrackingScopes.add(1, ordering: .relaxed)
    withObservationTracking { _ = store.childCount } onChange: { fired.tick() }
    openTrackingScopes.subtract(1, ordering: .relaxed)
    store.send(.bump)
    #expect(fired.count == 1, "lost: Observation not told of child.count's change")
  }
}

@Suite struct ReadPathBridgeWindowTests {
  /// Found by a review: a probe no bridged read followed left "Observation tracks" set; the next
  /// bridged read of an unarmed field trusted it once Observation had stopped, so the window stayed
  /// open and the holder anchored a child it returned — a bare copy of it then missed its own
  /// change.
  @Test func aStaleSignOfTrackingDoesNotKeepTheBridgeWindowOpen() {
    let context = ThreadContext.current
    context.closeAppleWindow()
        let root = ObservedRoot(ReadPathParent())
    withObservationTracking { _ = root.currentValue } onChange: {}
    _ = root.inner  // Observation is gone: this read closes the window
    #expect(context.window == nil)
    let child = root.child
    context.closeAppleWindow()
    var copy = child
    let reader = tracking { _ = copy.count }
    copy.count += 1
    #expect(reader.count == 1, "lost: a bare copy's own change")
  }

  /// After Observation stopped tracking the bridge window stays open until a read finds out; that
  /// read records nothing and anchors nothing — here the child it returns, whose bare copy must then
  /// hear its own change (the read anchored it before finding Observation gone).
  @Test func aReadFindingObservationGoneAnchorsNothing() {
    ThreadContext.current.closeAppleWindow()
    let root = ObservedRoot(RelState())
    withObservationTracking { _ = root.count } onChange: {}
    let child = root.child
    var copy = child
    let reader = tracking { _ = copy.count }
    copy.count += 1
    #expect(reader.count == 1, "lost: a bare copy's own change")
  }
}

@Suite struct ReadPathWholeValueTests {
  /// Comparing values read through a store reads their nested values too (their own `==`): those
  /// reads are the store's as well, so a copy mutated outside it tells nobody. (Found by trying
  /// the library as a user: it notified, and an `observe` loop re-ran for it.) Compared with a
  /// bare value, the nested reads are not anchored: that would lose the bare value's own changes.
  @MainActor @Test func comparingAChildReadThroughAStoreIsAnchoredAtEveryDepth() {
    let store = readPathStore()
    let fired = FireCounter()
    withTracking { _ = store.inner == store.inner } onChange: { _ in fired.tick() }
    var copy = store.currentState
    copy.inner.child.count += 1
    #expect(fired.count == 0, "spurious: a copy mutated outside the store")
    store.send(.bump)
    #expect(fired.count == 1)
  }

  @Test func comparingAChildReadThroughARootIsAnchoredAtEveryDepth() {
    let root = ObservedRoot(ReadPathParent())
    let fired = FireCounter()
    withTracking { _ = root.inner == root.inner } onChange: { _ in fired.tick() }
    var copy = root.currentValue
    copy.inner.child.count += 1
    #expect(fired.count == 0, "spurious: a copy mutated outside the root")
    root.mutate { $0.inner.child.count += 1 }
    #expect(fired.count == 1)
  }
}
