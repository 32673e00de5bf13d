import Foundation
import Observation
import Testing
@testable import ValueStore

@MainActor
@Suite(.timeLimit(.minutes(1))) struct StoreTests {
  @Test func thousandSendsNotifyTheCountObserverOncePerSendAndNobodyElse() {
    let store = Store.app()
    let count = Recorder()
    let name = Recorder()
    let tokens = [
      store.observe { _ = store.count; count.record(ObservationChange(keyPaths: [])) },
      store.observe { _ = store.name; name.record(ObservationChange(keyPaths: [])) },
    ]
    for _ in 0..<1_000 { store.send(.increment) }
    #expect(store.count == 1_000)
    #expect(count.count == 1 + 1_000)
    #expect(name.count == 1)
    withExtendedLifetime(tokens) {}  // `_ = tokens` does not keep it alive in an optimized build
  }

  @Test func eachFieldObserverIsCalledOncePerSendAfterTheReducer() {
    let store = Store.app()
    let recorders = (Recorder(), Recorder(), Recorder())
    nonisolated(unsafe) var seen: [String] = []
    let tokens = [
      store.observe { _ = store.count; recorders.0.record(ObservationChange(keyPaths: [])) },
      store.observe { _ = store.name; recorders.1.record(ObservationChange(keyPaths: [])) },
      store.observe {
        _ = store.child.title
        recorders.2.record(ObservationChange(keyPaths: []))
        seen.append("\(store.count) \(store.name) \(store.child.title)")
      },
    ]
    store.send(.setAll)
    store.send(.setAll)
    #expect(recorders.0.count == 3)
    #expect(recorders.1.count == 3)
    #expect(recorders.2.count == 3)
    #expect(seen == ["0  ", "1 ! !", "2 !! !!"])  // each run saw the whole action applied
    withExtendedLifetime(tokens) {}  // `_ = tokens` does not keep it alive in an optimized build
  }

  @Test func actionsSentSynchronouslyAreBatchedIntoOneNotification() {
    let store = Store.app()
    let recorder = tracking { store.count }
    store.send(.sendTwice)
    #expect(store.count == 2)
    #expect(recorder.count == 1)
  }

  @Test func reentrantSendsAreQueuedNeverRecursive() {
    let log = AppFeature.Log()
    let store = Store.app(log: log)
    // An observer that sends while being notified.
    let token = store.observe {
      if store.count == 1 { store.send(.setName("from observer")) }
    }
    store.send(.sendTwice)
    #expect(log.actions == [.sendTwice, .increment, .increment])
    store.send(.replaceCount(1))
    #expect(log.actions.suffix(2) == [.replaceCount(1), .setName("from observer")])
    #expect(log.maxDepth == 1)
    #expect(store.name == "from observer")
    withExtendedLifetime(token) {}  // `_ = token` does not keep it alive in an optimized build
  }

  @Test func s11_reducerMutatingADiscardedCopyNotifiesNobody() {
    let store = Store.app()
    let recorder = tracking { store.count }
    store.send(.mutateDiscardedCopy)
    #expect(recorder.count == 0)
    #expect(store.count == 0)
  }

  @Test func s11_mutatingACopyOfTheStoresStateNotifiesNobody() {
    let store = Store.app()
    let count = tracking { store.count }
    let child = tracking { store.child.count }
    var copy = store.currentState
    copy.count += 1
    copy.child.count += 1
    #expect(count.count == 0)
    #expect(child.count == 0)
    store.send(.child(.increment))
    #expect(child.count == 1)
  }

  @Test func s12_sendWhileASnapshotIsHeldNotifies() {
    let store = Store.app()
    let recorder = tracking { store.count }
    let snapshot = store.currentState
    store.send(.increment)
    #expect(recorder.count == 1)
    #expect(snapshot.count == 0)
  }

  @Test func s13_copyWrittenBackNotifiesExactlyTheChangedFields() {
    let store = Store.app()
    var copy = store.child
    copy.count = 5
    let count = tracking { store.child.count }
    let title = tracking { store.child.title }
    store.send(.writeBack(copy))
    #expect(count.count == 1)
    #expect(title.count == 0)
    #expect(store.child.count == 5)
  }

  @Test func rootReplaceAndResetNotifyWhatWasReadFromTheOldRoot() {
    let store = Store.app()
    store.send(.increment)
    let count = tracking { store.count }
    let child = tracking { store.child.count }
    store.send(.reset)
    #expect(store.count == 0)
    #expect(count.count == 1)
    #expect(child.count == 1)

    let again = tracking { store.count }
    store.send(.replaceCount(9))
    #expect(again.count == 1)
    let afterReplace = tracking { store.count }
    store.send(.increment)
    #expect(afterReplace.count == 1)  // observers keep working on the new root
  }

  @Test func runEffectSendsBack() async {
    let store = Store.app()
    let gate = Gate()
    gate.open()
    await store.send(.fetch(gate: .init(gate: gate))).finish()
    #expect(store.count == 42)
  }

  @Test func cancelByIDStopsARunningEffect() async {
    let store = Store.app()
    let gate = Gate()
    let task = store.send(.fetch(gate: .init(gate: gate)))
    #expect(task.isInFlight)
    store.send(.cancelFetch)
    gate.open()
    await task.finish()
    #expect(store.count == 0)
  }

  @Test func cancelInFlightReplacesTheOlderEffect() async {
    let store = Store.app()
    let first = Gate()
    let second = Gate()
    let older = store.send(.fetch(gate: .init(gate: first)))
    let newer = store.send(.fetch(gate: .init(gate: second)))
    first.open()
    await older.finish()
    #expect(store.count == 0)  // the older request was cancelled: no response
    second.open()
    await newer.finish()
    #expect(store.count == 42)
  }

  @Test func releasingTheStoreCancelsItsEffectsAndFreesIt() async {
    weak var weakStore: Store<AppState, AppFeature.Action>?
    let gate = Gate()
    var task: StoreTask?
    do {
      let store = Store.app()
      weakStore = store
      task = store.send(.fetch(gate: .init(gate: gate)))
    }
    #expect(weakStore == nil)
    await task?.finish()  // returns although the gate never opens: the effect was cancelled
  }

  @Test func errorsThrownByEffectsAreReported() async {
    let warnings = Warnings()
    let store = Store.app()
    await RuntimeWarning.withHandler({ warnings.append($0) }) {
      await store.send(.fail).finish()
    }
    #expect(warnings.all == ["An effect threw an error it did not handle: boom"])
  }

  @Test func scopedChildStoreSeesAndSends() {
    let store = Store.app()
    let child = store.scope(state: \.child, action: CasePath(AppFeature.Action.child))
    #expect(child === store.scope(state: \.child, action: CasePath(AppFeature.Action.child)))
    let recorder = tracking { child.count }
    child.send(.increment)
    #expect(store.child.count == 1)
    #expect(child.count == 1)
    #expect(recorder.count == 1)
  }

  @Test func optionalChildStoreIsNilWhileTheStateIsNil() {
    let store = Store.app()
    #expect(store.scope(state: \.optional, action: CasePath(AppFeature.Action.optional)) == nil)
    store.send(.showOptional(true))
    let child = store.scope(state: \.optional, action: CasePath(AppFeature.Action.optional))
    child?.send(.increment)
    #expect(store.optional?.count == 1)
    store.send(.showOptional(false))
    #expect(store.scope(state: \.optional, action: CasePath(AppFeature.Action.optional)) == nil)
  }

  @Test func sendingToAStoreWhoseStateIsGoneIsReportedAndIgnored() {
    let warnings = Warnings()
    let store = Store.app()
    store.send(.showOptional(true))
    let child = store.scope(state: \.optional, action: CasePath(AppFeature.Action.optional))!
    store.send(.showOptional(false))
    let before = store.currentState
    RuntimeWarning.withHandler({ warnings.append($0) }) {
      child.send(.increment)
    }
    #expect(store.currentState == before)
    #expect(warnings.all == ["increment was sent to a store of AppState → Child, whose state no longer exists; the action was ignored."])
    #expect(child.count == 0)  // reads return the last state seen
  }

  @Test func observationBridgeTracksPerField() {
    let store = Store.app()
    let fired = Recorder()
    withObservationTracking {
      _ = store.count
    } onChange: {
      fired.record(ObservationChange(keyPaths: []))
    }
    store.send(.setName("x"))
    #expect(fired.count == 0)
    store.send(.increment)
    #expect(fired.count == 1)
  }

  /// Issue 12, defect 8: a store observer that also reads a holder mutated on another thread
  /// trapped in `MainActor.assumeIsolated`. It re-runs on the main actor instead.
  @Test(.timeLimit(.minutes(1)))
  func anObserverReadingAHolderMutatedOnAnotherThreadRunsOnTheMainActor() async {
    let store = Store.app()
    let model = ObservedRoot(AppState())
    let (seen, continuation) = AsyncStream.makeStream(of: Int.self)
    let token = store.observe {
      MainActor.preconditionIsolated()
      continuation.yield(store.count + model.count)
    }
    var values = seen.makeAsyncIterator()
    #expect(await values.next() == 0)
    Thread { model.mutate { $0.count = 5 } }.start()
    #expect(await values.next() == 5)
    store.send(.increment)
    #expect(await values.next() == 6)
    withExtendedLifetime(token) {}  // `_ = token` does not keep it alive in an optimized build
  }
}

