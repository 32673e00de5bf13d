import Foundation
import Testing
@testable import ValueStore

/// Extents link to others (a fork to its origin, a placed value to the one it is the same as), and
/// a history of values keeps links alive. Two shapes every undo history makes: a holder written
/// after each snapshot, with the snapshots dropped as they age, must keep no chain of the values
/// before them (a chain kept every extent ever made alive, and releasing it overflowed the stack:
/// a million writes crashed a release build); and a long chain, where one is kept (every version
/// of a bare value), must be released without recursion.
@Suite(.timeLimit(.minutes(1))) struct ExtentChainTests {
  @Test func aHolderWrittenAfterEachSnapshotKeepsNoEarlierExtent() {
    let root = ObservedRoot(Child())
    var ring: [Child] = []
    root.mutate { $0.count += 1 }
    weak let first = root.currentValue._$fields._extent
    #expect(first != nil)
    for _ in 0..<200 {
      ring.append(root.currentValue)
      if ring.count > 10 { ring.removeFirst() }
      root.mutate { $0.count += 1 }
    }
    #expect(first == nil, "the first value's extent outlived every snapshot of it")
    withExtendedLifetime(ring) {}
  }

  @Test func aStoreWithAnUndoHistoryKeepsNoEarlierExtent() async {
    await MainActor.run {
      let store = Store(initialState: AppState()) { AppFeature() }
      store.send(.increment)
      weak let first = store.currentState._$fields._extent
      var ring: [AppState] = []
      for _ in 0..<200 {
        ring.append(store.currentState)
        if ring.count > 10 { ring.removeFirst() }
        store.send(.increment)
      }
      #expect(first == nil, "the first state's extent outlived every snapshot of it")
      withExtendedLifetime(ring) {}
    }
  }

  /// Every version of a bare value kept, then released last to first on a thread whose stack
  /// holds a few hundred frames: recursive releases of the lineage would overflow it.
  @Test func aLongLineageIsReleasedOnASmallStack() async {
    await #expect(processExitsWith: .success) {
      var value = Child()
      var kept: [Child] = []
      for _ in 0..<4_000 {
        kept.append(value)
        value.count += 1
      }
      // The thread releases them: `versions` is the only holder, handed over.
      final class Versions: @unchecked Sendable {
        var kept: [Child]
        var latest: Child?
        init(_ kept: [Child], _ latest: Child) { self.kept = kept; self.latest = latest }
      }
      let versions = Versions(kept, value)
      kept = []
      value = Child()
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        versions.kept = []
        versions.latest = nil
        done.signal()
      }
      thread.stackSize = 64 * 1024
      thread.start()
      done.wait()
    }
  }
}
