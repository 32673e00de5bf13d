import Foundation
import Observation
import Testing
@testable import ValueStore

/// A view re-rendering on its own thread after each notification (as SwiftUI re-renders on the
/// main thread) while another thread writes what it read: once the writes stop, every change must
/// still be heard. Below the top level it was not, in a few runs in a hundred under contention
/// (found by a user-style probe; hence four copies in parallel): the view's read of a nested field
/// armed its bridge on the extent of the copy it read, and when the writer's change had moved that
/// value's observers on to a fork in between, the bridge waited where nothing is written again
/// (the bridge's form of B10). A late registration now follows the move (`Extent.successor`),
/// through any number of moves (an enum's payload forks at every write, and the chain of moves
/// broke where an extent in its middle died; `ObservationInterleavingTests` makes that case
/// deterministic).
@Suite struct ObservationRenderThreadTests {
  @Test(.timeLimit(.minutes(1)), arguments: 0..<(4 * ObservationBridgeTests.shapes.count))
  func aViewKeepsHearingAfterAnotherThreadsWrites(_ index: Int) {
    keepsHearing(ObservationBridgeTests.shapes[index % ObservationBridgeTests.shapes.count], runs: 40)
  }

  /// A view rendering `shape` on its own thread, doing `between` after each render, hears a
  /// change made after another thread wrote 200 times, in each of `runs` runs.
  func keepsHearing(
    _ shape: ObservationBridgeTests.Shape, runs: Int, between: @escaping @Sendable () -> Void = {},
    function: String = #function
  ) {
    guard let read = shape.rootRead, shape.again == nil else { return }
    let watchdog = Watchdog(function)
    defer { watchdog.finish() }
    for run in 0..<runs {
      watchdog.progress()
      let root = ObservedRoot(BridgeState())
      let view = RenderThread({ read(root) }, between: between)
      defer { view.stop() }
      let written = DispatchSemaphore(value: 0)
      Thread {
        for _ in 0..<200 { root.mutate(shape.change) }
        written.signal()
      }.start()
      written.wait()
      let before = view.settledCalls()
      root.mutate(shape.change)
      if !view.waitForCall(after: before) {
        Issue.record("lost for good: \(shape.name), run \(run)")
        return
      }
    }
  }
}

extension ObservationRenderThreadTests {
  /// The same, with the view's thread reading another holder between renders, outside tracking,
  /// as a thread that does more than render does: that read closes its bridge window, so a
  /// bridge fired meanwhile by the writer is dropped, not kept. The next render could find such
  /// a bridge still armed — the fire had decided to drop it and not yet done so — and record it:
  /// it then waited on a bridge gone dead (lost in most runs of a user-style probe's stress
  /// test). The read now sees the decision under way (`ObservationBridge.deciding`).
  @Test(.timeLimit(.minutes(1)), arguments: 0..<(2 * ObservationBridgeTests.shapes.count))
  func aViewThatReadsOtherHoldersBetweenRendersKeepsHearing(_ index: Int) {
    keepsHearing(ObservationBridgeTests.shapes[index % ObservationBridgeTests.shapes.count], runs: 20) {
      _ = ObservedRoot(BridgeState()).child.count
    }
  }

  /// A bridge fired by another thread while the view's thread may still be rendering is kept, so
  /// that a render that recorded it hears the next change. Kept for as long as that thread's
  /// bridge window stayed open — which, on a thread that only renders, is for good — the bridges
  /// of an enum's payload (a new extent, so a new bridge, at every write) piled up: one more
  /// registration per round, each fired by every write. A bridge superseded by a newer one for the
  /// same field of the same location is kept for one more change at most.
  @Test(.timeLimit(.minutes(1)))
  func bridgesAViewKeepsForItsNextRenderDoNotPileUp() {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let root = ObservedRoot(BridgeState())
    let view = RenderThread { _ = root.mode.payload?.count }
    defer { view.stop() }
    for round in 0..<100 {
      let before = view.settledCalls()
      root.mutate { $0.mode.modifyEditing { $0.count += 1 } }
      #expect(view.waitForCall(after: before), "lost in round \(round)")
    }
    _ = view.settledCalls()
    let payload = root.read { $0.mode.payload!._$fields._extent }
    let registrations = withRegistry { _ in payload.registrations.count }
    #expect(registrations <= 3)
  }
}

/// A thread that tracks `read` with Observation and tracks it again after each notification.
private final class RenderThread: @unchecked Sendable {
  private let condition = NSCondition()
  private var calls = 0
  private var renders = 0
  private var stopped = false

  /// `between`: what the thread does after each render, before it waits for the next call.
  init(_ read: @escaping @Sendable () -> Void, between: @escaping @Sendable () -> Void = {}) {
    Thread { [self] in
      while true {
        condition.lock()
        if stopped { return condition.unlock() }
        condition.unlock()
        withObservationTracking(read) { [self] in
          condition.lock()
          calls += 1
          condition.broadcast()
          condition.unlock()
        }
        between()
        condition.lock()
        renders += 1
        condition.broadcast()
        while renders > calls, !stopped { condition.wait() }
        condition.unlock()
      }
    }.start()
  }

  /// The notifications so far, once each has been followed by a render.
  func settledCalls() -> Int {
    condition.lock()
    defer { condition.unlock() }
    while renders != calls + 1 { condition.wait() }
    return calls
  }

  /// Whether a notification after the first `count` arrives (within seconds: a stalled view never
  /// hears one).
  func waitForCall(after count: Int) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date(timeIntervalSinceNow: 2)
    while calls == count { if !condition.wait(until: deadline) { return calls != count } }
    return true
  }

  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }
}
