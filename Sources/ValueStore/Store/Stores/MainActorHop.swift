import Dispatch
import Foundation

/// Runs `body` on the main actor: at once when called there, else as a main-actor task.
///
/// Whether this is the main actor is asked of the main thread *and* of the main queue: on Linux
/// the main actor may run its jobs on the main queue from a thread that is not the main thread
/// (as under `swift test`), and synchronous top-level code runs on the main thread outside the queue.
func onMainActor(_ body: @escaping @Sendable @MainActor () -> Void) {
  if ThreadContext.current.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) != nil {
    MainActor.assumeIsolated(body)
  } else {
    Task { @MainActor in body() }
  }
}

/// Marks the main queue, so that code can tell it runs there.
private let mainQueueKey: DispatchSpecificKey<Void> = {
  let key = DispatchSpecificKey<Void>()
  DispatchQueue.main.setSpecific(key: key, value: ())
  return key
}()
