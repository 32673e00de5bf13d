import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One row of the table: an operation measured on ValueStore, on Apple's `@Observable` and on a
/// plain struct. A side that has no equivalent is `nil` and prints "—".
struct Scenario {
  /// Short, stable name: the table's first column, the JSON key, what `--filter` matches.
  let name: String
  /// What one operation does and what its number includes; printed under the table.
  let note: String
  // `var`: the memberwise initializer then defaults a missing side to nil.
  var ours: Workload?
  var apple: Workload?
  var plain: Workload?
}

/// Something to time: `setUp` builds fresh state (untimed) and `body` performs the operation
/// `iterations` times on it (timed). The state is dropped after the clock stops.
///
/// The state is a local variable passed `inout`, never a variable captured by an escaping closure:
/// those get dynamic exclusivity checks (`swift_beginAccess`) on every access, which would cost
/// more than the plain-struct operations being measured.
///
/// `key` names the measurement. Rows that compare against the same Apple or plain operation give
/// it the same key, and it is measured once per run.
///
/// An iteration may perform several operations (100 tracked reads in one tracking call), so that a
/// cost too small to time alone is measured where it occurs; times are reported per operation.
struct Workload {
  let key: String
  let operationsPerIteration: Int
  /// Runs `iterations` iterations on fresh state; returns the CPU nanoseconds they took.
  let run: (_ iterations: Int) -> Double

  init<State>(
    _ key: String, operationsPerIteration: Int = 1, setUp: @escaping () -> State,
    body: @escaping (_ state: inout State, _ iterations: Int) -> Void
  ) {
    self.key = key
    self.operationsPerIteration = operationsPerIteration
    run = { iterations in
      var state = setUp()
      let start = threadCPUNanoseconds()
      body(&state, iterations)
      let elapsed = threadCPUNanoseconds() - start
      withExtendedLifetime(state) {}
      return elapsed
    }
  }

  /// A workload whose operations make their own state.
  init(_ key: String, operationsPerIteration: Int = 1, body: @escaping (_ iterations: Int) -> Void) {
    self.init(key, operationsPerIteration: operationsPerIteration, setUp: {}) { _, iterations in
      body(iterations)
    }
  }

  /// An asynchronous workload: `body` awaits its `iterations` operations one after another, on
  /// the main actor.
  ///
  /// The harness is synchronous and runs on the main thread, so it starts the run as a main-actor
  /// task and pumps the main run loop until the task is done (see ``runOnMainActor(_:)``): every
  /// main-actor job of the run, including its resumptions after each `await`, executes on this
  /// thread, so this thread's CPU time covers the whole loop — the operations, the hops between
  /// them and the run loop's dispatch of each resumption — and none of the time spent suspended.
  /// Work an operation hands to other threads (effects running on the cooperative pool) is not
  /// counted; a scenario must keep its work on the main actor, and its note must say so.
  init<State>(
    _ key: String, operationsPerIteration: Int = 1, setUp: @escaping @MainActor () async -> State,
    asyncBody body: @escaping @MainActor (_ state: inout State, _ iterations: Int) async -> Void
  ) {
    self.key = key
    self.operationsPerIteration = operationsPerIteration
    run = { iterations in
      runOnMainActor {
        var state = await setUp()
        let start = threadCPUNanoseconds()
        await body(&state, iterations)
        let elapsed = threadCPUNanoseconds() - start
        withExtendedLifetime(state) {}
        return elapsed
      }
    }
  }
}

/// Runs `operation` as a main-actor task and returns its result, from synchronous code on the main
/// thread.
///
/// The main actor's executor is the main dispatch queue. Nothing drains it while the main thread
/// runs synchronous code, so this thread drains it itself, as CoreFoundation's run loop does
/// (`_dispatch_main_queue_callback_4CF`), and otherwise sleeps in `poll` on the queue's wake-up
/// handle: the task's jobs all run on this thread, between two reads of this thread's CPU clock.
/// (`RunLoop.main.run(mode:before:)` does the same but costs ≈30 µs of CPU per resumption on
/// Linux, which would swamp a 2 µs operation.)
func runOnMainActor<T: Sendable>(_ operation: @escaping @MainActor () async -> T) -> T {
  precondition(Thread.isMainThread, "async workloads run from the main thread")
  let box = ResultBox<T>()
  Task { @MainActor in box.value = await operation() }
  var wakeUp = pollfd(fd: mainQueueHandle(), events: Int16(POLLIN), revents: 0)
  while true {
    drainMainQueue(nil)
    if let value = box.value { return value }
    _ = poll(&wakeUp, 1, 1)
  }
}

// libdispatch's hooks for a run loop that services the main queue (exported; what CF calls).
@_silgen_name("_dispatch_main_queue_callback_4CF")
private func drainMainQueue(_ message: UnsafeMutableRawPointer?)

@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func mainQueueHandle() -> Int32

/// Where a main-actor task leaves its result for the thread pumping the run loop (the same thread).
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}
