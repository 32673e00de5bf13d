import Foundation
import Testing
@testable import ValueStore

/// The address of a local of the caller's frame: how deep the stack is.
@inline(never)
func stackDepthMarker() -> UInt {
  var local = 0
  return withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
}

/// Records the spread of stack depths seen across calls.
final class StackSpread: @unchecked Sendable {
  private let lock = NSLock()
  private var lowest = UInt.max
  private var highest = UInt.min
  func sample() {
    let depth = stackDepthMarker()
    lock.withLock {
      lowest = min(lowest, depth)
      highest = max(highest, depth)
    }
  }
  var bytes: UInt { lock.withLock { highest &- lowest } }
}

/// Observers never nest: a notification caused by an observer (its `onChange` mutating, an
/// `observe` body mutating or sending what it read) runs after that observer returns, from a loop,
/// so any number of rounds runs at a constant stack depth (issue 12, defect 10); and a mutation
/// takes the registry lock once for all the observers it fires, whatever other threads do
/// meanwhile (defect 11).
@Suite(.timeLimit(.minutes(1)))
struct NotificationLoopTests {
  static let rounds = 300
  /// Far below what `rounds` nested rounds take (≈ 2 KB each in a debug build).
  static let boundedStack: UInt = 32 * 1024

  @Test func anObserveBodyMutatingWhatItReadRunsItsRoundsAtConstantDepth() {
    let root = ObservedRoot(AppState())
    let spread = StackSpread()
    let token = observe {
      spread.sample()
      if root.count < Self.rounds { root.mutate { $0.count += 1 } }
    }
    #expect(root.count == Self.rounds)
    #expect(spread.bytes < Self.boundedStack)
    withExtendedLifetime(token) {}  // `_ = token` does not keep it alive in an optimized build
  }

  @Test func anOnChangeMutatingWhatOthersObserveRunsThemAfterItReturns() {
    let root = ObservedRoot(AppState())
    let events = LockIsolated<[String]>([])
    _ = withTracking { root.count } onChange: { _ in
      events.withValue { $0.append("count: begin") }
      root.mutate { $0.name = "x" }
      events.withValue { $0.append("count: end") }
    }
    _ = withTracking { root.name } onChange: { _ in events.withValue { $0.append("name") } }
    root.mutate { $0.count += 1 }
    #expect(events.value == ["count: begin", "count: end", "name"])
  }

  @Test func aChainOfOneShotObserversEachMutatingRunsAtConstantDepth() {
    let root = ObservedRoot(AppState())
    let spread = StackSpread()
    @Sendable func chain() {
      _ = withTracking { root.count } onChange: { _ in
        spread.sample()
        guard root.count < Self.rounds else { return }
        chain()
        root.mutate { $0.count += 1 }
      }
    }
    chain()
    root.mutate { $0.count += 1 }
    #expect(root.count == Self.rounds)
    #expect(spread.bytes < Self.boundedStack)
  }

  @MainActor @Test func aStoreObserverSendingWhatItReadRunsItsRoundsAtConstantDepth() {
    let store = Store.app()
    let spread = StackSpread()
    let token = store.observe {
      spread.sample()
      if store.count < Self.rounds { store.send(.increment) }
    }
    #expect(store.count == Self.rounds)
    #expect(spread.bytes < Self.boundedStack)
    withExtendedLifetime(token) {}  // `_ = token` does not keep it alive in an optimized build
  }

  /// Two threads keep installing one-shot observers of the field a third thread writes. Each
  /// mutation fires the observers installed before it under one acquisition of the registry lock,
  /// so the writer keeps its pace (it made 14 mutations in 2 s when each observer took the
  /// contended lock once); and each observer runs exactly once.
  @Test func observersInstalledByOtherThreadsDoNotStarveAMutation() {
    let root = ObservedRoot(AppState())
    let writing = LockIsolated(true)
    let installed = LockIsolated<[FireCounter]>([])
    let finished = returnsInTime(seconds: 50) {
      relOnThreads(3) { thread in
        guard thread > 0 else {
          for _ in 0..<5_000 { root.mutate { $0.count += 1 } }
          writing.withValue { $0 = false }
          return
        }
        var mine: [FireCounter] = []
        while writing.value {
          let fires = FireCounter()
          _ = withTracking { root.count } onChange: { _ in fires.tick() }
          mine.append(fires)
        }
        installed.withValue { $0 += mine }
      }
    }
    #expect(finished, "5,000 mutations did not finish while other threads installed observers")
    root.mutate { $0.count += 1 }  // reaches the observers installed after the last mutation
    #expect(installed.value.allSatisfy { $0.count == 1 })
  }
}
