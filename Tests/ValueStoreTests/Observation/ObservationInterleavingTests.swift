import Foundation
import Observation
import Testing
@testable import ValueStore

/// A view reads a value out of a holder (`let mode = root.mode`) and reads into it a moment later
/// (`mode.payload?.count`), while another thread writes what it reads in between — as a render
/// thread does under a writer. Every shape of copy a read can make (a child, a chain, an optional,
/// an enum payload, a collection, an element) meets 0–3 writes between its two reads: the view
/// must hear the next change, however many moves its copy missed.
///
/// The generator the render-thread test lacked: it hit "several writes between the two reads"
/// only by chance, and an enum payload (forked by every write) lost its observer there, because
/// a dead extent in the middle of the chain of moves cut the chain (`Extent.unlink`).
@Suite struct ObservationInterleavingTests {
  typealias Edit = @Sendable (inout BridgeState) -> Void

  /// A read split where a view's code splits it: the value copied out of the root, then a read
  /// made on that copy.
  struct SplitRead: Sendable, CustomStringConvertible {
    let description: String
    let copy: @Sendable (ObservedRoot<BridgeState>) -> Any
    let read: @Sendable (Any) -> Void
    let change: Edit
    let unrelated: Edit
  }

  static func split<T>(
    _ name: String, _ copy: @escaping @Sendable (ObservedRoot<BridgeState>) -> T, _ read: @escaping @Sendable (T) -> Void,
    change: @escaping Edit, unrelated: @escaping Edit
  ) -> SplitRead {
    SplitRead(description: name, copy: copy, read: { read($0 as! T) }, change: change, unrelated: unrelated)
  }

  static let reads: [SplitRead] = [
    split("child | .count", { $0.child }, { _ = $0.count },
          change: { $0.child.count += 1 }, unrelated: { $0.child.title = "x" }),
    split("outer | .middle.child.count", { $0.outer }, { _ = $0.middle.child.count },
          change: { $0.outer.middle.child.count += 1 }, unrelated: { $0.outer.middle.child.title = "x" }),
    split("outer.middle | .child.count", { $0.outer.middle }, { _ = $0.child.count },
          change: { $0.outer.middle.child.count += 1 }, unrelated: { $0.outer.middle.child.title = "x" }),
    split("optional | ?.count", { $0.optional }, { _ = $0?.count },
          change: { $0.optional?.count += 1 }, unrelated: { $0.optional?.title = "x" }),
    split("mode | .payload?.count", { $0.mode }, { _ = $0.payload?.count },
          change: { $0.mode.modifyEditing { $0.count += 1 } }, unrelated: { $0.mode.modifyEditing { $0.title = "x" } }),
    split("mode.payload | ?.count", { $0.mode.payload }, { _ = $0?.count },
          change: { $0.mode.modifyEditing { $0.count += 1 } }, unrelated: { $0.mode.modifyEditing { $0.title = "x" } }),
    split("rows | .count", { $0.rows }, { _ = $0.count },
          change: { $0.rows.append(Row(id: ($0.rows.ids.max() ?? 0) + 1)) }, unrelated: { $0.rows[id: 1]?.title = "x" }),
    split("rows | [id: 1]?.title", { $0.rows }, { _ = $0[id: 1]?.title },
          change: { $0.rows[id: 1]?.title += "x" }, unrelated: { $0.rows[id: 1]?.count += 1 }),
    split("rows[id: 1] | ?.title", { $0.rows[id: 1] }, { _ = $0?.title },
          change: { $0.rows[id: 1]?.title += "x" }, unrelated: { $0.rows[id: 1]?.count += 1 }),
    split("plain | [0].count", { $0.plain }, { _ = $0[0].count },
          change: { $0.plain[0].count += 1 }, unrelated: { $0.plain[1].count += 1 }),
    split("currentValue | .mode.payload?.count", { $0.currentValue }, { _ = $0.mode.payload?.count },
          change: { $0.mode.modifyEditing { $0.count += 1 } }, unrelated: { $0.mode.modifyEditing { $0.title = "x" } }),
  ]

  // Each change changes what it reads however often it is made (a fresh id, a longer title).
  static let cases = reads.indices.flatMap { read in (0...3).map { (read, $0) } }

  /// Takes the copy, lets another thread make `writes` changes, reads into the copy, then lets
  /// it make `writesAfter` more before the closure ends (the registration window, B10).
  static func interleave(
    _ root: ObservedRoot<BridgeState>, _ split: SplitRead, writes: Int, writesAfter: Int = 0
  ) {
    let copy = split.copy(root)
    write(root, split.change, writes)
    split.read(copy)
    write(root, split.change, writesAfter)
  }

  /// `count` changes made on another thread, this one waiting.
  static func write(_ root: ObservedRoot<BridgeState>, _ change: @escaping Edit, _ count: Int) {
    guard count > 0 else { return }
    let done = DispatchSemaphore(value: 0)
    Thread {
      for _ in 0..<count { root.mutate(change) }
      done.signal()
    }.start()
    done.wait()
  }

  /// Apple's Observation: a change made before the scope subscribes is missed, as its own would
  /// be; the next one is heard, and an unrelated one is not.
  @Test(.timeLimit(.minutes(1)), arguments: cases)
  func anObservationScopeHearsTheNextChange(_ read: Int, _ writes: Int) {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let split = Self.reads[read]
    let root = ObservedRoot(BridgeState())
    let fired = FireCounter()
    withObservationTracking { Self.interleave(root, split, writes: writes) } onChange: { fired.tick() }
    root.mutate(split.unrelated)
    #expect(fired.count == 0, "spurious: \(split), \(writes) writes between")
    root.mutate(split.change)
    #expect(fired.count == 1, "lost: \(split), \(writes) writes between")
  }

  /// Our own scopes: the copy read is older than the location, which changed while the closure
  /// ran: heard as the scope ends (as a change between a read and the registration is, B10).
  /// Without writes, only the change is heard.
  @Test(.timeLimit(.minutes(1)), arguments: cases)
  func aTrackingScopeHearsTheChange(_ read: Int, _ writes: Int) {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let split = Self.reads[read]
    let root = ObservedRoot(BridgeState())
    let fired = FireCounter()
    withTracking { Self.interleave(root, split, writes: writes) } onChange: { _ in fired.tick() }
    if writes == 0 {
      root.mutate(split.unrelated)
      #expect(fired.count == 0, "spurious: \(split)")
      root.mutate(split.change)
    }
    #expect(fired.count == 1, "lost: \(split), \(writes) writes between")
  }

  /// Writes on both sides of the read into the copy: an Observation scope hears the first change
  /// after it subscribes (the bridge stays armed for it), our own scope hears them as it ends.
  @Test(.timeLimit(.minutes(1)), arguments: reads.indices, [1, 2])
  func changesAfterTheReadAreHeardToo(_ read: Int, _ writesAfter: Int) {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let split = Self.reads[read]
    for writes in 0...2 {
      let root = ObservedRoot(BridgeState())
      let fired = FireCounter()
      withObservationTracking {
        Self.interleave(root, split, writes: writes, writesAfter: writesAfter)
      } onChange: { fired.tick() }
      root.mutate(split.change)
      #expect(fired.count == 1, "Observation lost: \(split), \(writes) writes before, \(writesAfter) after")

      let ours = FireCounter()
      withTracking {
        Self.interleave(root, split, writes: writes, writesAfter: writesAfter)
      } onChange: { _ in ours.tick() }
      #expect(ours.count == 1, "lost: \(split), \(writes) writes before, \(writesAfter) after")
    }
  }

  /// A snapshot whose location moved on before the scope opened is read as the snapshot it is:
  /// reading it again does not fire at once (an `observe` re-reading it would loop).
  @Test func aSnapshotOlderThanTheScopeDoesNotFireAtOnce() {
    let root = ObservedRoot(BridgeState())
    let snapshot = withTracking { root.currentValue } onChange: { _ in }
    // Made while a scope is open, the move is linked (`Extent.successor`).
    withTracking { root.mutate { $0.mode.modifyEditing { $0.count += 1 } } } onChange: { _ in }
    let fired = FireCounter()
    withTracking { _ = snapshot.mode.payload?.count } onChange: { _ in fired.tick() }
    #expect(fired.count == 0)
  }
}
