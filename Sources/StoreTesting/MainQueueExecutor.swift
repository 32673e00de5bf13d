import Dispatch

/// Runs a test store's effects one job at a time on the main queue, interleaved with the main
/// actor's jobs: when the test yields, every effect that can make progress does, so a test waits
/// for effects by yielding instead of by time.
final class MainQueueExecutor: TaskExecutor {
  static let shared = MainQueueExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    DispatchQueue.main.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
