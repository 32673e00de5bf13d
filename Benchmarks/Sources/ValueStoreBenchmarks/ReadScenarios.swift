import Observation
import ValueStore

/// Reading a field: untracked (the common case, paid on every access) and inside a tracking call.
enum ReadScenarios {
  static var all: [Scenario] {
    [
      Scenario(
        name: "read, untracked",
        note: "One field read of a bare value / an @Observable object / a plain struct, no tracking open.",
        ours: Workload("ours.read.bare", setUp: { Counter() }) { state, n in
          for _ in 0..<n { blackHole(state.count) }
        },
        apple: appleRead,
        plain: plainRead
      ),
      Scenario(
        name: "read, untracked, via root",
        note: "`root.count` on an ObservedRoot: its lock plus a key path through the dynamic member.",
        ours: Workload("ours.read.root", setUp: { ObservedRoot(Counter()) }) { root, n in
          for _ in 0..<n { blackHole(root.count) }
        },
        apple: appleRead
      ),
      Scenario(
        name: "read, tracked",
        note: """
          One of 100 reads of the same field inside one withTracking / withObservationTracking \
          call on a value made for that call; includes 1/100 of making the value, the call, and \
          dropping the value with its registration.
          """,
        ours: Workload("ours.read.tracked.bare", operationsPerIteration: 100) { n in
          for _ in 0..<n {
            let state = Counter()
            withTracking { for _ in 0..<100 { blackHole(state.count) } } onChange: { _ in }
          }
        },
        apple: appleTrackedRead
      ),
      Scenario(
        name: "read, tracked, via root",
        note: "As \"read, tracked\", reading `root.count` of a root made for the call (reads are anchored).",
        ours: Workload("ours.read.tracked.root", operationsPerIteration: 100) { n in
          for _ in 0..<n {
            let root = ObservedRoot(Counter())
            withTracking { for _ in 0..<100 { blackHole(root.count) } } onChange: { _ in }
          }
        },
        apple: appleTrackedRead
      ),
    ]
  }

  static var appleRead: Workload {
    Workload("apple.read", setUp: { AppleCounter() }) { object, n in
      for _ in 0..<n { blackHole(object.count) }
    }
  }

  static var plainRead: Workload {
    Workload("plain.read", setUp: { PlainCounter() }) { plain, n in
      for _ in 0..<n { blackHole(plain.count) }
    }
  }

  static var appleTrackedRead: Workload {
    Workload("apple.read.tracked", operationsPerIteration: 100) { n in
      for _ in 0..<n {
        let object = AppleCounter()
        withObservationTracking { for _ in 0..<100 { blackHole(object.count) } } onChange: {}
      }
    }
  }
}
