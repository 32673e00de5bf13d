import Observation
import Testing
@testable import ValueStore

/// A tracking closure that itself mutates the holder it read (an `observe` body sending an action,
/// "if this, send that"): the observer hears exactly what the mutation changed of what it had read
/// — and an `observe` loop whose body changes something it did not read runs once, not forever.
/// The reads inside the mutation (a reducer's, a `mutate` body's) are not the closure's. Found by
/// trying the library as a user (the loop re-ran forever).
@Suite(.timeLimit(.minutes(1))) struct MutationInsideTrackingTests {
  enum Action: Sendable { case setTitle(String), increment, countTitle }

  @MainActor func makeStore() -> Store<Child, Action> {
    Store(initialState: Child()) {
      Reduce<Child, Action> { state, action in
        switch action {
        case let .setTitle(title): state.title = title
        case .increment: state.count += 1
        case .countTitle: state.count = state.title.count
        }
        return .none
      }
    }
  }

  @MainActor @Test func anObserveBodySendingWhatItDidNotReadRunsOnce() {
    let store = makeStore()
    var runs = 0
    let token = store.observe {
      runs += 1
      if store.count == 0, runs < 20 { store.send(.setTitle("x\(runs)")) }
    }
    #expect(runs == 1)
    store.send(.increment)
    #expect(runs == 2)
    token.cancel()
  }

  @MainActor @Test func anObserveBodySendingWhatItReadRunsAgain() {
    let store = makeStore()
    var runs = 0
    let token = store.observe {
      runs += 1
      if store.count < 3 { store.send(.increment) }
    }
    #expect(runs == 4)
    #expect(store.count == 3)
    token.cancel()
  }

  @Test func anObserveBodyMutatingARootWhatItDidNotReadRunsOnce() {
    let root = ObservedRoot(Child())
    let runs = FireCounter()
    let token = observe {
      runs.tick()
      if root.count == 0, runs.count < 20 { root.mutate { $0.title += "x" } }
    }
    #expect(runs.count == 1)
    root.mutate { $0.count += 1 }
    #expect(runs.count == 2)
    token.cancel()
  }

  @MainActor @Test func aOneShotClosureSendingIsToldOnlyOfWhatItRead() {
    let store = makeStore()
    let fired = FireCounter()
    withTracking {
      _ = store.count
      store.send(.setTitle("x"))
    } onChange: { _ in fired.tick() }
    #expect(fired.count == 0)
    store.send(.setTitle("y"))
    #expect(fired.count == 0)
    store.send(.increment)
    #expect(fired.count == 1)
  }

  @MainActor @Test func aOneShotClosureSendingWhatItReadIsTold() {
    let store = makeStore()
    let fired = FireCounter()
    withTracking {
      _ = store.count
      store.send(.increment)
    } onChange: { _ in fired.tick() }
    #expect(fired.count == 1)
  }

  @MainActor @Test func aReducersReadsAreNotTheClosures() {
    let store = makeStore()
    let fired = FireCounter()
    withTracking {
      _ = store.count
      store.send(.countTitle)  // reads title; changes nothing
    } onChange: { _ in fired.tick() }
    store.send(.setTitle("abc"))
    #expect(fired.count == 0, "spurious: the reducer's read of title")
  }

  @Test func aMutateBodysReadsAreNotTheClosures() {
    let root = ObservedRoot(Child())
    let fired = FireCounter()
    withTracking {
      _ = root.count
      root.mutate { $0.count = $0.title.count }
    } onChange: { _ in fired.tick() }
    root.mutate { $0.title = "abc" }
    #expect(fired.count == 0, "spurious: the mutate body's read of title")
  }

  @MainActor @Test func underObservationAClosureSendingIsToldOnlyOfWhatItRead() {
    let store = makeStore()
    let fired = FireCounter()
    withObservationTracking {
      _ = store.count
      store.send(.setTitle("x"))
    } onChange: { fired.tick() }
    store.send(.setTitle("y"))
    #expect(fired.count == 0)
    store.send(.increment)
    #expect(fired.count == 1)
  }

  @Test func nestedScopesBothHearWhatTheInnerReadBeforeTheMutation() {
    let root = ObservedRoot(Child())
    let (outer, inner) = (FireCounter(), FireCounter())
    withTracking {
      withTracking {
        _ = root.count
        root.mutate { $0.title = "x" }
      } onChange: { _ in inner.tick() }
    } onChange: { _ in outer.tick() }
    #expect(outer.count == 0)
    #expect(inner.count == 0)
    root.mutate { $0.count += 1 }
    #expect(outer.count == 1)
    #expect(inner.count == 1)
  }

  /// Observers its mutation notifies run outside the closure: what they read (an `observe`
  /// re-tracking) is not the closure's.
  @Test func theReadsOfObserversItsMutationNotifiesAreNotTheClosures() {
    let root = ObservedRoot(Child())
    let token = observe { _ = root.title }
    let fired = FireCounter()
    withTracking {
      _ = root.count
      root.mutate { $0.title = "x" }
    } onChange: { _ in fired.tick() }
    root.mutate { $0.title = "y" }
    #expect(fired.count == 0, "spurious: the observe loop's read of title")
    token.cancel()
  }
}
