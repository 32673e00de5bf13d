import Foundation

/// Measures every side of every scenario, each shared workload once, reporting progress on stderr
/// (a full run takes a while; stdout stays the table alone).
func runScenarios(_ scenarios: [Scenario], settings: HarnessSettings) -> [ScenarioResult] {
  var measured: [String: Measurement] = [:]
  return scenarios.map { scenario in
    let sides = [scenario.ours, scenario.apple, scenario.plain]
    let pending = sides.compactMap { $0 }.filter { measured[$0.key] == nil }
    FileHandle.standardError.write(Data("  measuring \(scenario.name)\n".utf8))
    for (workload, measurement) in zip(pending, measure(pending, settings: settings)) {
      measured[workload.key] = measurement
    }
    let results = sides.map { $0.flatMap { measured[$0.key] } }
    return ScenarioResult(
      name: scenario.name, note: scenario.note, ours: results[0], apple: results[1], plain: results[2])
  }
}
