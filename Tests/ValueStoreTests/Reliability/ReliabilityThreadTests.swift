import Foundation
import Testing
@testable import ValueStore

/// Runs `body(i)` for `i` in `0..<count`, each on a thread of its own, all released at once (a
/// start gate, so the bodies really overlap), and returns when all have finished.
/// Under a watchdog: a deadlock among them crashes the run with a backtrace instead of hanging it.
func relOnThreads(_ count: Int, _ name: String = #function, _ body: @escaping @Sendable (Int) -> Void) {
  let watchdog = Watchdog(name)
  defer { watchdog.finish() }
  let ready = DispatchGroup()
  let done = DispatchGroup()
  let start = DispatchSemaphore(value: 0)
  for index in 0..<count {
    ready.enter()
    done.enter()
    Thread {
      ready.leave()
      start.wait()
      body(index)
      done.leave()
    }.start()
  }
  ready.wait()
  for _ in 0..<count { start.signal() }
  done.wait()
}

/// The number of active registrations on the extent of `value` (read under the registry lock).
func relRegistrations<S: ObservableState>(_ value: S) -> Int {
  withRegistry { _ in value._$fields._extent.registrations.filter(\.observer.isActive).count }
}

/// Concurrency: copies of one value on several threads, tracking on several threads, cancellation
/// from other threads, one holder mutated from several threads. Synchronised only by the library's
/// own locks and the start gates. Run under the thread sanitizer with
/// `swift test --sanitize=thread --filter Reliability` (`.ci/run` does). Observers here run or are
/// cancelled while no other thread mutates their holder; `ReliabilityRaceTests` has them race.
@Suite(.timeLimit(.minutes(1))) struct ReliabilityThreadTests {
  static let threads = 4

  static func populated() -> RelState {
    var state = RelState()
    state.rows = [Row(id: 1), Row(id: 2), Row(id: 3)]
    state.optional = Child()
    state.mode = .editing(Child())
    return state
  }

  /// Each thread mutates its own copy of the holder's value: every copy ends with exactly its own
  /// writes, the holder is untouched, and its (anchored) observers never hear the copies (S11).
  @Test func separateCopiesOfAHeldValueOnSeveralThreads() {
    let root = ObservedRoot(Self.populated())
    let runs = FireCounter()
    let token = observe {
      _ = root.read { ($0.count, $0.child.count, $0.rows[id: 1]?.count, $0.optional?.title, $0.rows.count) }
      runs.tick()
    }
    let iterations = 300
    relOnThreads(Self.threads) { thread in
      var copy = root.currentValue
      for i in 0..<iterations {
        copy.count += 1
        copy.child.count += 1
        copy.rows[id: 1]?.count += 1
        copy.optional?.title = "\(thread)-\(i)"
        copy.rows.append(Row(id: 100 + i))
        let snapshot = copy  // a snapshot alive while the copy is mutated again
        copy.rows.remove(id: 100 + i)
        #expect(snapshot.rows.count == 4)
      }
      #expect(copy.count == iterations)
      #expect(copy.child.count == iterations)
      #expect(copy.rows[id: 1]?.count == iterations)
      #expect(copy.optional?.title == "\(thread)-\(iterations - 1)")
      #expect(copy.rows.count == 3)
    }
    #expect(root.currentValue == Self.populated())
    #expect(runs.count == 1)  // the first run only
    token.cancel()
  }

  /// Copies of one bare value mutated and read on several threads: value semantics hold, and the
  /// original is untouched.
  @Test func separateCopiesOfABareValueOnSeveralThreads() {
    let base = Self.populated()
    relOnThreads(Self.threads) { thread in
      var copy = base
      for i in 0..<300 {
        copy.child.count += 1
        copy.rows[id: 1]?.count += 1
        copy.rows.swapAt(0, 2)
        let snapshot = copy
        copy.name = "\(thread)-\(i)"
        #expect(snapshot.name != copy.name)
      }
      #expect(copy.child.count == 300)
      #expect(copy.rows.ids == [1, 2, 3])
    }
    #expect(base == Self.populated())
  }

  /// Observers installed on several threads at once, then one change: each runs exactly once.
  @Test func trackingOnSeveralThreadsAtOnce() {
    let root = ObservedRoot(Self.populated())
    for round in 0..<100 {
      let fired = (0..<Self.threads * 3).map { _ in FireCounter() }
      relOnThreads(Self.threads) { thread in
        for k in 0..<3 {
          let fires = fired[thread * 3 + k]
          _ = withTracking {
            switch k {
            case 0: root.count
            case 1: root.read { $0.child.count }
            default: root.read { $0.rows[id: 2]?.count ?? -1 }
            }
          } onChange: { _ in
            fires.tick()
          }
        }
      }
      root.mutate {
        $0.count += 1
        $0.child.count += 1
        $0.rows[id: 2]?.count += 1
      }
      #expect(fired.allSatisfy { $0.count == 1 }, "round \(round)")
    }
    #expect(relRegistrations(root.currentValue) == 0)
  }

  /// Subscriptions cancelled (or released) on several threads at once: afterwards they never run
  /// again and leave no registration behind.
  @Test func observersCancelledFromOtherThreads() {
    let root = ObservedRoot(Self.populated())
    let count = Self.threads * 25
    let runs = (0..<count).map { _ in FireCounter() }
    let tokens = TokenBox(
      runs.map { fires in
        observe {
          _ = root.read { ($0.count, $0.child.count) }
          fires.tick()
        }
      })
    root.mutate { $0.count += 1 }
    relOnThreads(Self.threads) { thread in
      for k in stride(from: thread, to: count, by: Self.threads) {
        if k.isMultiple(of: 2) { tokens.cancel(k) } else { tokens.release(k) }
      }
    }
    #expect(runs.allSatisfy { $0.count == 2 })
    root.mutate {
      $0.count += 1
      $0.child.count += 1
    }
    #expect(runs.allSatisfy { $0.count == 2 })
    #expect(relRegistrations(root.currentValue) == 0)
    #expect(relRegistrations(root.currentValue.child) == 0)
  }

  /// Several threads mutate one holder: no write is lost, observers of another field are neither
  /// notified nor dropped meanwhile, and run once at its change.
  @Test func holderMutatedFromSeveralThreads() {
    let root = ObservedRoot(Self.populated())
    let nameFired = (0..<20).map { _ in FireCounter() }
    for fires in nameFired {
      _ = withTracking { root.name } onChange: { _ in fires.tick() }
    }
    relOnThreads(Self.threads) { _ in
      for _ in 0..<500 { root.mutate { $0.count += 1 } }
    }
    #expect(root.count == Self.threads * 500)
    #expect(nameFired.allSatisfy { $0.count == 0 })
    root.mutate { $0.name = "done" }
    #expect(nameFired.allSatisfy { $0.count == 1 })
    #expect(relRegistrations(root.currentValue) == 0)
  }

  /// Each thread edits its own row through copies written back (T8) while the others do the same:
  /// every write lands, and the structure's observer is not notified (then is, by an append).
  @Test func rowsWrittenBackFromSeveralThreads() {
    var initial = RelState()
    initial.rows = IdentifiedArray(uniqueElements: (0..<Self.threads).map { Row(id: $0) })
    let root = ObservedRoot(initial)
    let structureFired = FireCounter()
    _ = withTracking { root.read { $0.rows.count } } onChange: { _ in structureFired.tick() }
    let iterations = 300
    relOnThreads(Self.threads) { id in
      for _ in 0..<iterations {
        var row = root.read { $0.rows[id: id]! }
        row.count += 1
        root.mutate { $0.rows[id: id] = row }
      }
    }
    #expect(root.read { $0.rows.map(\.count) } == Array(repeating: iterations, count: Self.threads))
    #expect(structureFired.count == 0)
    root.mutate { $0.rows.append(Row(id: 100)) }
    #expect(structureFired.count == 1)
  }
}

/// Tokens that threads cancel or release.
final class TokenBox: @unchecked Sendable {
  private let lock = NSLock()
  private var tokens: [ObservationToken?]

  init(_ tokens: [ObservationToken]) { self.tokens = tokens }

  func cancel(_ index: Int) { lock.withLock { tokens[index] }?.cancel() }

  /// Drops the last reference; the token's deinitializer cancels, on this thread.
  func release(_ index: Int) {
    let token = lock.withLock { () -> ObservationToken? in
      defer { tokens[index] = nil }
      return tokens[index]
    }
    withExtendedLifetime(token) {}
  }
}
