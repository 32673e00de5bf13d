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
}
