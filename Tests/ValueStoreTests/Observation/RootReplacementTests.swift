import Foundation
import Observation
import Testing
@testable import ValueStore

/// A root replaced during a holder's mutation tells its readers wherever the old root dies — on
/// this thread inside the mutation, later, or on another thread meanwhile (the holder's
/// `RootHandle`; the per-thread list it replaced missed a death on another thread). Found by a
/// review of the send work.
@Suite struct RootReplacementTests {
  final class Box<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
  }

  @Test(.timeLimit(.minutes(1))) func anOldRootDyingOnAnotherThreadDuringTheMutationTellsItsReaders() {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let root = ObservedRoot(ReadPathParent())
    let reader = tracking { _ = root.child.count }
    let snapshot = Box<ReadPathParent?>(root.currentValue)
    root.mutate { value in
      value = ReadPathParent()
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        snapshot.value = nil
        done.signal()
      }
      done.wait()
    }
    #expect(reader.count == 1, "lost: the replaced root's reader")
  }

  /// The snapshot released on another thread at about the moment the mutation reconciles: one
  /// notification each time, whichever side wins.
  @Test(.timeLimit(.minutes(1))) func anOldRootDyingWhileTheMutationReconcilesTellsItsReadersOnce() {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    for _ in 0..<500 {
      let root = ObservedRoot(ReadPathParent())
      let reader = tracking { _ = root.child.count }
      let snapshot = Box<ReadPathParent?>(root.currentValue)
      let (go, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
      Thread.detachNewThread {
        go.wait()
        snapshot.value = nil
        done.signal()
      }
      root.mutate { value in
        value = ReadPathParent()
        go.signal()
      }
      done.wait()
      #expect(reader.count == 1)
    }
  }

  @Test func nestedMutationsOfTwoRootsEachTellTheirReaders() {
    let (a, b) = (ObservedRoot(ReadPathParent()), ObservedRoot(ReadPathParent()))
    let readerA = tracking { _ = a.child.count }
    let readerB = tracking { _ = b.child.count }
    var snapshotB: ReadPathParent? = b.currentValue
    a.mutate { outer in
      b.mutate { $0 = ReadPathParent() }
      snapshotB = nil
      outer = ReadPathParent()
    }
    _ = snapshotB
    #expect(readerA.count == 1)
    #expect(readerB.count == 1)
  }

  @Test func aRootReplacedTwiceInOneMutationTellsItsReadersOnce() {
    let root = ObservedRoot(ReadPathParent())
    let reader = tracking { _ = root.child.count }
    root.mutate { value in
      value = ReadPathParent()
      value = ReadPathParent()
    }
    #expect(reader.count == 1)
  }
}
