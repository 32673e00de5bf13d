import Foundation
import Observation
import Testing
@testable import ValueStore

/// Each read Apple's Observation records is a key path of its own (AppleSubscriptions.swift),
/// recorded for the closure that made it; a thread reuses one once no registration of it can
/// remain: its closure's notification was delivered on that thread, and no Observation closure
/// runs there.
@Suite(.timeLimit(.minutes(1))) struct AppleRecordTests {
  /// Runs `body` on a thread of its own (a context of its own) and waits for what it returns,
  /// under a watchdog.
  private func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T, function: String = #function) -> T {
    let watchdog = Watchdog(function)
    defer { watchdog.finish() }
    let done = DispatchSemaphore(value: 0)
    let result = LockIsolated<T?>(nil)
    Thread {
      result.setValue(body())
      done.signal()
    }.start()
    done.wait()
    return result.value!
  }

  @Test func aViewRenderedAgainOnItsThreadReusesItsRecords() {
    let (fired, made) = onThread {
      let root = ObservedRoot(BridgeState())
      let fired = FireCounter()
      @Sendable func view() {
        withObservationTracking { _ = (root.count, root.name, root.child.count) } onChange: {
          fired.tick()
          view()
        }
      }
      view()
      for _ in 0..<50 { root.mutate { $0.count += 1 } }
      root.mutate { $0.rows.append(.init(id: 7)) }
      return (fired.count, ThreadContext.current.appleRecorder.made)
    }
    #expect(fired == 50)
    // Two closures' records (four reads: `child`, and `count` below it) at most: the one delivered
    // is reused after its successor recorded.
    #expect(made <= 8)
  }

  @Test func recordsDeliveredOnAnotherThreadAreNotReused() {
    let (firedAcross, pooledAcross, firedHere, pooledHere) = onThread {
      let root = ObservedRoot(BridgeState())
      let fired = FireCounter()
      let recorder = ThreadContext.current.appleRecorder
      let pooled = recorder.pooled
      withObservationTracking { _ = root.count } onChange: { fired.tick() }
      let written = DispatchSemaphore(value: 0)
      Thread {
        root.mutate { $0.count += 1 }
        written.signal()
      }.start()
      written.wait()
      let across = (fired.count, recorder.pooled - pooled)
      // The same delivered here is reused.
      withObservationTracking { _ = root.count } onChange: { fired.tick() }
      root.mutate { $0.count += 1 }
      return (across.0, across.1, fired.count, recorder.pooled - pooled)
    }
    #expect(firedAcross == 1)
    #expect(pooledAcross == 0)
    #expect(firedHere == 2)
    #expect(pooledHere == 1)
  }

  /// A closure nested in another shares its run of reads; delivered while the outer one still
  /// runs, its records stay (the outer one may register them yet), and each closure is told once.
  @Test func aClosureStillRunningKeepsTheRecordsOfOneNestedInIt() {
    let (innerWhileOuterRuns, pooledWhileOuterRuns, inner, outer) = onThread {
      let root = ObservedRoot(BridgeState())
      let (outer, inner) = (FireCounter(), FireCounter())
      let recorder = ThreadContext.current.appleRecorder
      let pooled = recorder.pooled
      let whileOuterRuns = withObservationTracking {
        _ = root.count
        withObservationTracking { _ = root.name } onChange: { inner.tick() }
        root.mutate { $0.name += "x" }
        return (inner.count, recorder.pooled - pooled)
      } onChange: {
        outer.tick()
      }
      root.mutate { $0.count += 1 }
      root.mutate { $0.count += 1 }
      return (whileOuterRuns.0, whileOuterRuns.1, inner.count, outer.count)
    }
    #expect(innerWhileOuterRuns == 1)
    #expect(pooledWhileOuterRuns == 0)
    #expect(inner == 1)
    #expect(outer == 1)
  }

  /// Two closures, one nested in the other, each told of the first change of what it read.
  @Test(arguments: [false, true])
  func nestedClosuresAreEachToldOnce(outerKeyFirst: Bool) {
    let (inner, outer) = onThread {
      let root = ObservedRoot(BridgeState())
      let (outer, inner) = (FireCounter(), FireCounter())
      withObservationTracking {
        _ = root.count
        withObservationTracking { _ = root.name } onChange: { inner.tick() }
      } onChange: {
        outer.tick()
      }
      if outerKeyFirst { root.mutate { $0.count += 1 } }
      root.mutate { $0.name += "x" }
      root.mutate { $0.count += 1 }
      return (inner.count, outer.count)
    }
    #expect(inner == 1)
    #expect(outer == 1)
  }

  /// A read made between two Observation closures (Observation's window still open: no holder
  /// read found it over) belongs to neither: the next closure, repeating one of its own reads,
  /// records only what it read (seed 0x75905827588325a4 of the randomized store suite).
  @MainActor @Test func aReadBetweenClosuresIsNotRecordedForTheNext() {
    struct Edit: Sendable { let apply: @Sendable (inout RelState) -> Void }
    let store = Store(initialState: RelState()) {
      Reduce<RelState, Edit> { state, edit in
        edit.apply(&state)
        return .none
      }
    }
    let (first, second) = (FireCounter(), FireCounter())
    withObservationTracking { _ = (store.childCountViaFields, store.childCountViaFields) } onChange: { first.tick() }
    let copy = store.currentState
    _ = withTracking { (copy.count, copy.child.title) } onChange: { _ in }
    withObservationTracking {
      _ = (store.withState(\.mode), store.withState(\.mode))
    } onChange: {
      second.tick()
    }
    store.send(Edit { $0.count += 2 })
    #expect(second.count == 0)
    #expect(first.count == 1)  // read under `.any`: a computed property of `Fields`
    store.send(Edit { $0.mode = .editing(Child()) })
    #expect(second.count == 1)
  }

  /// A read made between two Observation closures and repeated by the next one is that closure's
  /// from then on: it hears the read's changes.
  @MainActor @Test func aReadRepeatedFromBetweenClosuresIsHeard() {
    let store = Store(initialState: BridgeState(), reducer: BridgeFeature())
    let fired = FireCounter()
    withObservationTracking { _ = store.name } onChange: {}
    let copy = store.currentState
    _ = withTracking { copy.count } onChange: { _ in }
    withObservationTracking { _ = store.withState(\.count) } onChange: { fired.tick() }
    store.send(.edit { $0.count += 1 })
    #expect(fired.count == 1)
  }

  /// A read repeated in a run of reads that outlived its window (closed, and a new one opened)
  /// hands its value out again: reads made on that value are still the holder's. Two generated
  /// sequences of the store suite (base 0x34D2, 14141 then 14143): the first leaves a run of
  /// reads open; in the second, element reads went to the elements' own boxes, and a copy's
  /// removal of an element notified a closure that read it through the store.
  @MainActor @Test func aRunOutlivingItsWindowHandsItsReadsOutAgain() {
    let generator = RelGenerator(styles: [.chain, .anchored, .scoped])
    let runner = RelRunner(makeTarget: { RelStoreTarget() }, avoiding: RelRandomConfig.avoiding)
    let sequences = [14141, 14143].map { generator.sequence(seed: RelRandom.sequenceSeed(base: 0x34D2, index: $0)) }
    #expect(runner.run(sequences[0]).map { $0.kind != .spurious || sequences[0][$0.opIndex].isB6Shaped } ?? true)
    let failure = runner.run(sequences[1])
    #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
  }
}
