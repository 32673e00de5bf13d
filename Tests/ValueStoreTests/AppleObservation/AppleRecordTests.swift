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

  /// Where Observation hashes a reused record's key path later: a registration of it that
  /// Observation kept (its own one-shot bug leaves a tracking registered for good) is hashed again
  /// whenever its registrar's tables grow or another tracking is cancelled, on whatever thread. Such
  /// a hash, on this thread or another, while the record waits for reuse, must not count as a
  /// registration or a recording: every closure that reads through a holder afterwards hears each
  /// change of what it read, and its run of reads ends as it returns. And the record, whose key
  /// path Observation may still call, is never reused: the next closure makes records of its own.
  @Test(arguments: [false, true])
  func aStaleHashOfAReusedRecordsKeyPathRegistersNothing(onAnotherThread: Bool) {
    let (fires, runsLeftOpen, keptReused) = onThread {
      let root = ObservedRoot(BridgeState())
      let recorder = ThreadContext.current.appleRecorder
      @Sendable func hashPooled() {
        nonisolated(unsafe) let keyPaths = recorder.pooledKeyPaths  // immutable key paths
        let hash: @Sendable () -> Void = { for keyPath in keyPaths { _ = Set([keyPath]) } }
        guard onAnotherThread else { return hash() }
        let done = DispatchSemaphore(value: 0)
        Thread {
          hash()
          done.signal()
        }.start()
        done.wait()
      }
      var fires: [Int] = []
      var runsLeftOpen = 0
      var keptReused = 0
      for round in 0..<6 {
        let fired = FireCounter()
        let made = recorder.made
        withObservationTracking { _ = (root.count, root.child.count) } onChange: { fired.tick() }
        if round > 0 && recorder.made == made { keptReused += 1 }
        if recorder.hasOpenRun { runsLeftOpen += 1 }
        if round.isMultiple(of: 2) { hashPooled() }
        root.mutate { $0.count += 1 }
        fires.append(fired.count)
        hashPooled()
      }
      return (fires, runsLeftOpen, keptReused)
    }
    #expect(fires == Array(repeating: 1, count: 6))
    #expect(runsLeftOpen == 0)
    #expect(keptReused == 0)
  }
}
