import Foundation
@testable import ValueStore

/// Turns a stalled thread test into a crash with a backtrace instead of a hang.
///
/// A Swift Testing time limit cannot interrupt a thread blocked on a lock (a deadlock hung
/// `swift test` for 90 minutes once, time limits and all). A watchdog is a thread of its own that
/// waits for the guarded work to finish; if it has not finished after `seconds`, it names the test
/// on standard error and aborts the process (the crash prints every thread's stack).
/// `VALUESTORE_WATCHDOG_SECONDS` overrides the default of 60 s.
final class Watchdog: Sendable {
  static let defaultSeconds = ProcessInfo.processInfo.environment["VALUESTORE_WATCHDOG_SECONDS"]
    .flatMap(Double.init) ?? 60

  private let finished = DispatchSemaphore(value: 0)
  private let exited = DispatchSemaphore(value: 0)
  private let stalled = LockIsolated(false)
  private let steps = LockIsolated(0)

  /// Starts watching; `onStall` runs on the watchdog's thread if neither `finish()` nor
  /// `progress()` is called for `seconds`.
  init(_ name: String, seconds: Double = Watchdog.defaultSeconds, onStall: (@Sendable () -> Void)? = nil) {
    let (finished, exited, stalled, steps) = (finished, exited, stalled, steps)
    Thread {
      var seen = 0
      while finished.wait(timeout: .now() + seconds) == .timedOut {
        let now = steps.value
        if now != seen {
          seen = now
          continue
        }
        stalled.withValue { $0 = true }
        if let onStall {
          onStall()
        } else {
          FileHandle.standardError.write(Data("Watchdog: \(name) made no progress for \(seconds) s; aborting.\n".utf8))
          abort()
        }
        break
      }
      exited.signal()
    }.start()
  }

  /// Tells the watchdog that long-running work is still moving (a randomized run, per sequence).
  func progress() { steps.withValue { $0 += 1 } }

  /// Stops watching; returns whether the watchdog had already found the work stalled.
  @discardableResult
  func finish() -> Bool {
    finished.signal()
    exited.wait()
    return stalled.value
  }
}

/// Runs `body` under a watchdog (see ``Watchdog``).
func withWatchdog<T>(_ name: String = #function, _ body: () throws -> T) rethrows -> T {
  let watchdog = Watchdog(name)
  defer { watchdog.finish() }
  return try body()
}
