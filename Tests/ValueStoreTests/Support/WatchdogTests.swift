import Foundation
import Testing
@testable import ValueStore

/// The watchdog that guards thread tests acts on a stall, and only on one. (Its real action aborts
/// the process; here the action is injected.)
@Suite(.timeLimit(.minutes(1))) struct WatchdogTests {
  @Test func aStalledBodyTriggersIt() {
    let blocked = DispatchSemaphore(value: 0)
    let watchdog = Watchdog("stalled", seconds: 0.05, onStall: { blocked.signal() })
    blocked.wait()  // stands for a deadlock: only the watchdog's action ends it
    #expect(watchdog.finish())
  }

  @Test func aBodyThatFinishesDoesNotTriggerIt() {
    let triggered = LockIsolated(false)
    let watchdog = Watchdog("finishing", seconds: 30, onStall: { triggered.withValue { $0 = true } })
    #expect(!watchdog.finish())
    #expect(!triggered.value)
  }
}
