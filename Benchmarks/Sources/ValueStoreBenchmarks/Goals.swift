import Foundation

/// The performance goals, checked against one run's medians and printed after the table.
///
/// Every criterion prints its measured value, its target, `measured ÷ target` and PASS or MISS; a
/// criterion whose scenario was not run (`--filter`) or does not exist yet says so. Nothing is
/// left out: a miss must be visible in every run.
struct Goal {
  let name: String
  let criteria: [Criterion]
}

/// One checkable number of a goal.
struct Criterion {
  enum Bound { case atMost, atLeast, exactly }

  let label: String
  let bound: Bound
  let target: Double
  let unit: Unit
  /// The measured value, or why there is none.
  let measure: (_ results: [String: ScenarioResult]) -> Result<Double, Unmeasured>

  enum Unit {
    case nanoseconds, times, firesPerOperation

    func format(_ value: Double) -> String {
      switch self {
      case .nanoseconds:
        value >= 1_000 ? String(format: "%.2f µs", value / 1_000) : String(format: "%.3g ns", value)
      case .times: String(format: "%.2f×", value)
      case .firesPerOperation: String(format: "%.3g", value) + " fired/op"
      }
    }
  }

  struct Unmeasured: Error { let reason: String }

  var targetText: String {
    switch bound {
    case .atMost: "≤ " + unit.format(target)
    case .atLeast: "≥ " + unit.format(target)
    case .exactly: "= " + unit.format(target)
    }
  }

  func passes(_ value: Double) -> Bool {
    switch bound {
    case .atMost: value <= target
    case .atLeast: value >= target
    case .exactly: value == target
    }
  }
}

extension Criterion {
  /// ValueStore's median time in `scenario`.
  static func time(_ label: String, _ scenario: String, atMost target: Double) -> Criterion {
    Criterion(label: label, bound: .atMost, target: target, unit: .nanoseconds) { results in
      ours(results, scenario).map(\.median)
    }
  }

  /// How many times faster ValueStore is than Apple in `scenario`.
  static func fasterThanApple(_ scenario: String, atLeast target: Double, label: String = "Apple ÷ ours") -> Criterion {
    Criterion(label: label, bound: .atLeast, target: target, unit: .times) { results in
      guard let result = results[scenario] else { return .failure(notRun(scenario)) }
      guard let ratio = result.appleOverOurs else { return .failure(Unmeasured(reason: "no Apple column")) }
      return .success(ratio)
    }
  }

  /// ValueStore's time in `slow` over its time in `fast`: how a cost grows with size, or what a part
  /// of an operation (observation) adds to the same operation without it.
  static func growth(_ label: String, _ slow: String, over fast: String, atMost target: Double) -> Criterion {
    Criterion(label: label, bound: .atMost, target: target, unit: .times) { results in
      ours(results, slow).flatMap { slow in ours(results, fast).map { slow.median / $0.median } }
    }
  }

  /// ValueStore's time in `scenario` minus its time in `base`: what one part of an operation (a
  /// composition hop) adds to the same operation without it.
  static func overhead(_ label: String, _ scenario: String, over base: String, atMost target: Double) -> Criterion {
    Criterion(label: label, bound: .atMost, target: target, unit: .nanoseconds) { results in
      ours(results, scenario).flatMap { slow in ours(results, base).map { slow.median - $0.median } }
    }
  }

  /// Exactly `expected` observer calls per operation in every run of a workload (see ``Facts``).
  /// The measured value is the run farthest from `expected`.
  static func fires(_ label: String, key: String, exactly expected: Double) -> Criterion {
    Criterion(label: label, bound: .exactly, target: expected, unit: .firesPerOperation) { _ in
      guard let values = Facts.distinct(key) else { return .failure(Unmeasured(reason: "not run")) }
      return .success(values.max { abs($0 - expected) < abs($1 - expected) }!)
    }
  }

  private static func ours(_ results: [String: ScenarioResult], _ scenario: String) -> Result<Measurement, Unmeasured> {
    guard let result = results[scenario] else { return .failure(notRun(scenario)) }
    guard let ours = result.ours else { return .failure(Unmeasured(reason: "no ValueStore column")) }
    return .success(ours)
  }

  private static func notRun(_ scenario: String) -> Unmeasured {
    let exists = allScenarios.contains { $0.name == scenario }
    return Unmeasured(reason: exists ? "not run (--filter)" : "not measured: no scenario \"\(scenario)\"")
  }
}

/// The goals of the issue (`nonisolated(unsafe)`: closures are not Sendable; read on the main thread
/// only). TCA's numbers from the issue, for context: a counter increment `send`
/// ≈ 6.8 µs, a `send` changing one row of 10k ≈ 205 µs, a `TestStore` send ≈ 28.6 µs.
nonisolated(unsafe) let goals: [Goal] = [
  Goal(
    name: "untracked read",
    criteria: [
      .time("time", "read, untracked", atMost: 2),
      .fasterThanApple("read, untracked", atLeast: 7),
    ]),
  Goal(
    name: "write, 0 observers",
    criteria: [
      .time("time", "write `+=`, 0 observers", atMost: 3),
      .fasterThanApple("write `+=`, 0 observers", atLeast: 15),
    ]),
  Goal(
    name: "tracking call, 1 / 10 fields",
    criteria: [
      .time("1 field", "tracking call, 1 field", atMost: 100),
      .time("10 fields", "tracking call, 10 fields", atMost: 500),
    ]),
  Goal(
    name: "reads through a store / root",
    criteria: [
      .time("store, untracked", "store read, untracked", atMost: 30),
      .time("root, untracked", "read, untracked, via root", atMost: 30),
      .fasterThanApple("store read, tracked", atLeast: 1, label: "store, tracked: Apple ÷ ours"),
      .fasterThanApple("read, tracked, via root", atLeast: 1, label: "root, tracked: Apple ÷ ours"),
      .fasterThanApple("store read, tracked by Observation", atLeast: 1, label: "store, by Observation: Apple ÷ ours"),
    ]),
  Goal(
    name: "send + 1 observer ≤ 2× Apple",
    criteria: [
      .fasterThanApple("send, 1 observer fires", atLeast: 0.5, label: "observe: Apple ÷ ours"),
      .fasterThanApple("send, 1 Observation observer fires", atLeast: 0.5, label: "Observation: Apple ÷ ours"),
    ]),
  Goal(
    name: "trivial send",
    criteria: [.time("time", "send, 0 observers", atMost: 150)]),
  // Issue 34, goal 1: one hop of composition, a row of HopScenarios minus its send without a hop.
  Goal(
    name: "a Scope / ifLet / forEach / ifCaseLet hop ≤ 50 ns",
    criteria: HopScenarios.hops.map { kind, scenario in
      Criterion.overhead("\(kind): row − 0 hops", scenario, over: HopScenarios.baseName, atMost: 50)
    }),
  Goal(
    name: "one row of 10k / 100k changed",
    criteria: [
      .time("10k", StoreScenarios.rowScenarioName(rows: 10_000), atMost: 500),
      .time("100k", StoreScenarios.rowScenarioName(rows: 100_000), atMost: 500),
      .growth(
        "t(100k) ÷ t(1k)", StoreScenarios.rowScenarioName(rows: 100_000),
        over: StoreScenarios.rowScenarioName(rows: 1_000), atMost: 1.5),
    ]
      + StoreScenarios.rowCounts.map { rows in
        Criterion.fires(
          "observers fired, \(StoreScenarios.rowsLabel(rows))", key: StoreScenarios.rowFiresKey(rows: rows),
          exactly: 1)
      }),
  Goal(
    name: "adding observed rows is linear",
    criteria: [
      .growth(
        "t(10k) ÷ t(1k)", ListGrowthScenarios.name(rows: 10_000), over: ListGrowthScenarios.name(rows: 1_000),
        atMost: 1.5)
    ]),
  // Issue 33 item 5b: observation's share of a send after record() is O(what it changes), not
  // O(observers). The send itself copies the rows array after a snapshot (O(rows) in any design),
  // so the criterion is the 16k observed row over the same send with nothing observed. Expected to
  // MISS until the observation core's redesign (each send after a record moves every registration
  // on the values it forks: O(observed rows)); today ≈ 3.4× (1.07 ms ÷ 0.32 ms; 3.2× at 1k).
  Goal(
    name: "a send after record() costs O(what it changes)",
    criteria: [
      .growth(
        "observed ÷ unobserved, 16k", HistoryScenarios.name(stores: 16_000),
        over: HistoryScenarios.unobservedName(rows: 16_000), atMost: 1.5)
    ]
      + HistoryScenarios.sizes.map { stores in
        Criterion.fires(
          "observers fired, \(StoreScenarios.rowsLabel(stores))", key: HistoryScenarios.firesKey(stores: stores),
          exactly: 1)
      }),
  Goal(
    name: "ending an effect costs O(its ids)",
    criteria: [
      // 16,000 effects end in under a second: 62.5 µs each.
      .time("16k, per effect", EffectScenarios.name(effects: 16_000), atMost: 62_500),
      .growth(
        "t(16k) ÷ t(1k)", EffectScenarios.name(effects: 16_000), over: EffectScenarios.name(effects: 1_000),
        atMost: 1.5),
    ]),
  // MISS for append and insert + remove: the ids and the id → offset dictionary are one buffer each,
  // copied by a structural change with a snapshot alive. Element writes copy the list of pages, a
  // page and a chunk.
  Goal(
    name: "writes with a snapshot alive cost O(log n)",
    criteria: SnapshotStorageScenarios.kinds.map { kind in
      .growth(
        "\(kind), t(100k) ÷ t(1k)", SnapshotStorageScenarios.name(kind, rows: 100_000),
        over: SnapshotStorageScenarios.name(kind, rows: 1_000), atMost: 1.5)
    }),
  Goal(
    name: "TestStore send: counter / 10k rows",
    criteria: [
      .time("counter", TestingScenarios.testStoreCounterName, atMost: 2_000),
      .time("10k rows", TestingScenarios.testStoreRowsName, atMost: 20_000),
    ]),
  Goal(
    name: "diff in O(changed)",
    criteria: [.time("10k rows, 1 changed", TestingScenarios.diffName, atMost: 1_000_000)]),
]

/// One checked criterion, as printed and as written to JSON.
struct GoalCheck: Encodable {
  let goal: String
  let criterion: String
  let target: String
  let measured: String
  /// measured ÷ target; nil when nothing was measured.
  let ratio: Double?
  /// "PASS", "MISS" or "NOT MEASURED".
  let result: String
}

func checkGoals(_ results: [ScenarioResult]) -> [GoalCheck] {
  let byName = Dictionary(results.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  return goals.flatMap { goal in
    goal.criteria.map { criterion in
      switch criterion.measure(byName) {
      case let .success(value):
        return GoalCheck(
          goal: goal.name, criterion: criterion.label, target: criterion.targetText,
          measured: criterion.unit.format(value), ratio: value / criterion.target,
          result: criterion.passes(value) ? "PASS" : "MISS")
      case let .failure(unmeasured):
        return GoalCheck(
          goal: goal.name, criterion: criterion.label, target: criterion.targetText,
          measured: unmeasured.reason, ratio: nil, result: "NOT MEASURED")
      }
    }
  }
}

/// The Goals section: one line per criterion, misses counted at the end.
func goalsTable(_ checks: [GoalCheck]) -> String {
  let header = ["goal", "criterion", "target", "measured", "measured ÷ target", "result"]
  let rows = checks.map { check in
    [
      check.goal, check.criterion, check.target, check.measured,
      check.ratio.map { String(format: "%.2f", $0) } ?? "—", check.result,
    ]
  }
  let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
  func line(_ cells: [String]) -> String {
    "| " + cells.indices.map { cells[$0] + String(repeating: " ", count: widths[$0] - cells[$0].count) }
      .joined(separator: " | ") + " |"
  }
  let separator = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
  let misses = checks.filter { $0.result == "MISS" }.count
  let unmeasured = checks.filter { $0.result == "NOT MEASURED" }.count
  let passes = checks.count - misses - unmeasured
  return (["Goals (this run's medians; TCA for context: counter send ≈ 6.8 µs, one row of 10k ≈ 205 µs, "
    + "TestStore send ≈ 28.6 µs):", "", line(header), separator] + rows.map(line)
    + ["", "\(passes) passed, \(misses) missed, \(unmeasured) not measured."])
    .joined(separator: "\n")
}
