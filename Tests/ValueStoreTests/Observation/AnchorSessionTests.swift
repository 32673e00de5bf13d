import Foundation
import Observation
import Testing
@testable import ValueStore

/// A value a closure took through a holder is the holder's for the whole closure, whatever else
/// runs meanwhile: a tracking scope nested in it (ours in Observation's), or another thread's
/// scope reading the same value through the holder. (Found by a user-style probe of the per-session
/// mark: a nested scope, or another thread's session, re-marked the value for itself, the
/// closure's read became a copy's, and with an undo snapshot alive it was lost for good.) An undo
/// snapshot is kept alive, so that the holder's write forks and only the holder's readers move on.
@Suite(.serialized) struct AnchorSessionTests {
  @Test func ourScopeNestedInAnObservationClosureReadsWhatTheClosureTook() {
    let root = ObservedRoot(BridgeState())
    let ours = FireCounter(), apple = FireCounter()
    withObservationTracking {
      let child = root.child
      withTracking { _ = child.count } onChange: { _ in ours.tick() }
    } onChange: { apple.tick() }
    let undo = root.currentValue
    root.mutate { $0.child.count += 1 }
    #expect(ours.count == 1)
    #expect(apple.count == 1)
    _ = undo
  }

  @Test func aNestedScopeReadingTheSameValueDoesNotTakeItFromTheClosure() {
    let root = ObservedRoot(BridgeState())
    let apple = FireCounter()
    withObservationTracking {
      let child = root.child
      withTracking { _ = root.child.title } onChange: { _ in }
      _ = child.count
    } onChange: { apple.tick() }
    let undo = root.currentValue
    root.mutate { $0.child.count += 1 }
    #expect(apple.count == 1)
    _ = undo
  }

  @Test(.timeLimit(.minutes(1)), arguments: [false, true], [false, true])
  func anotherThreadsScopeReadingTheSameValueDoesNotTakeItFromTheClosure(appleHere: Bool, appleThere: Bool) {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let root = ObservedRoot(BridgeState())
    let fired = FireCounter()
    let otherRead = DispatchSemaphore(value: 0)
    let read: @Sendable () -> Void = {
      let child = root.child
      // Another thread reads `child` through the holder in a session of its own, begun later.
      Thread {
        if appleThere {
          withObservationTracking { _ = root.child.title } onChange: {}
        } else {
          withTracking { _ = root.child.title } onChange: { _ in }
        }
        otherRead.signal()
      }.start()
      #expect(otherRead.wait(timeout: .now() + 10) == .success)
      _ = child.count
    }
    if appleHere {
      withObservationTracking(read) { fired.tick() }
    } else {
      withTracking(read) { _ in fired.tick() }
    }
    let undo = root.currentValue
    root.mutate { $0.child.count += 1 }
    #expect(fired.count == 1)
    _ = undo
  }
}
