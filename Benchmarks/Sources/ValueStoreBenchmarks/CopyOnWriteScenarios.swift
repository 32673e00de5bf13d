import Observation
import ValueStore

/// Mutations that are cheap only if nothing is copied that need not be: appending to a large
/// array field (must stay O(1) amortized), and mutating while snapshots share the value.
enum CopyOnWriteScenarios {
  static var all: [Scenario] {
    [
      Scenario(
        name: "append to 100k array, root.mutate",
        note: "`root.mutate { $0.numbers.append(i) }` on a 100k-element field: must not copy it.",
        ours: Workload("ours.append.root", setUp: { ObservedRoot(Counter(numbers: numbers())) }) { root, n in
          for i in 0..<n { root.mutate { $0.numbers.append(i) } }
        },
        apple: appleAppend,
        plain: plainAppend
      ),
      Scenario(
        name: "append to 100k array, bare",
        note: "`state.numbers.append(i)` on a bare value / object / plain struct.",
        ours: Workload("ours.append.bare", setUp: { Counter(numbers: numbers()) }) { state, n in
          for i in 0..<n { state.numbers.append(i) }
        },
        apple: appleAppend,
        plain: plainAppend
      ),
      Scenario(
        name: "snapshot + write, 100 kept, root",
        note: """
          Keep the last 100 values in an undo ring (`history[i % 100] = root.currentValue`), then \
          `root.mutate { $0.count += 1 }`: the write forks the shared value. A class has no \
          snapshots.
          """,
        ours: Workload(
          "ours.snapshot.root",
          setUp: { (root: ObservedRoot(Counter()), history: history(of: Counter())) },
          body: { undo, n in
            for i in 0..<n {
              undo.history[i % historyCount] = undo.root.currentValue
              undo.root.mutate { $0.count += 1 }
            }
          }),
        plain: plainSnapshot
      ),
      Scenario(
        name: "snapshot + write, 100 kept, bare",
        note: "As above on a bare value: `history[i % 100] = state`, then `state.count += 1`.",
        ours: Workload(
          "ours.snapshot.bare",
          setUp: { (state: Counter(), history: history(of: Counter())) },
          body: { undo, n in
            for i in 0..<n {
              undo.history[i % historyCount] = undo.state
              undo.state.count += 1
            }
          }),
        plain: plainSnapshot
      ),
      Scenario(
        name: "snapshot + write, up to 10k kept, bare",
        note: """
          An undo stack keeping every version of a bare value (`kept.append(state)`, then \
          `state.count += 1`), emptied at 10k: each write forks, and its lineage holds every \
          version kept (walking all of it on each write made this O(versions) a write).
          """,
        ours: Workload(
          "ours.snapshot.bare.all",
          setUp: { (state: Counter(), kept: [Counter]()) },
          body: { undo, n in
            for _ in 0..<n {
              if undo.kept.count == keptCount { undo.kept.removeAll(keepingCapacity: true) }
              undo.kept.append(undo.state)
              undo.state.count += 1
            }
          }),
        plain: Workload(
          "plain.snapshot.all",
          setUp: { (plain: PlainCounter(), kept: [PlainCounter]()) },
          body: { undo, n in
            for _ in 0..<n {
              if undo.kept.count == keptCount { undo.kept.removeAll(keepingCapacity: true) }
              undo.kept.append(undo.plain)
              undo.plain.count += 1
            }
          })
      ),
      Scenario(
        name: "write `+=`, bare, after 1 snapshot",
        note: """
          As "write `+=`, 0 observers", on a bare value that was copied and written once before \
          (the copy is gone): does it return to the fast path?
          """,
        ours: Workload("ours.write.bare.forked", setUp: forkedOnce) { state, n in
          for i in 0..<n {
            state.count += 1
            blackHole(i)
          }
        },
        apple: WriteScenarios.appleWrite,
        plain: WriteScenarios.plainWrite
      ),
    ]
  }

  private static let historyCount = 100
  private static let keptCount = 10_000

  /// A fresh 100k-element array, owned by nobody else (so the first append does not copy it).
  private static func numbers() -> [Int] { Array(0..<100_000) }

  private static func history<Value>(of value: Value) -> [Value] {
    Array(repeating: value, count: historyCount)
  }

  /// A value written once while a copy of it was alive; the copy is dropped.
  private static func forkedOnce() -> Counter {
    var state = Counter()
    let snapshot = state
    state.count += 1
    blackHole(snapshot)
    return state
  }

  private static var appleAppend: Workload {
    Workload("apple.append", setUp: { AppleCounter(numbers: numbers()) }) { object, n in
      for i in 0..<n { object.numbers.append(i) }
    }
  }

  private static var plainAppend: Workload {
    Workload("plain.append", setUp: { PlainCounter(numbers: numbers()) }) { plain, n in
      for i in 0..<n { plain.numbers.append(i) }
    }
  }

  private static var plainSnapshot: Workload {
    Workload(
      "plain.snapshot",
      setUp: { (plain: PlainCounter(), history: history(of: PlainCounter())) },
      body: { undo, n in
        for i in 0..<n {
          undo.history[i % historyCount] = undo.plain
          undo.plain.count += 1
        }
      })
  }
}
