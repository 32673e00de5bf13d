import Foundation

/// What `--json FILE` writes: the table's data, with the raw samples and the settings behind them.
struct JSONReport: Encodable {
  let context: MachineContext
  let samplesPerMeasurement: Int
  let targetSampleMilliseconds: Double
  let results: [ScenarioResult]
  /// Every goal criterion, checked against this run (see `Goals.swift`).
  let goals: [GoalCheck]

  init(context: MachineContext, settings: HarnessSettings, results: [ScenarioResult], goals: [GoalCheck]) {
    self.context = context
    samplesPerMeasurement = settings.samples
    targetSampleMilliseconds = settings.sampleNanoseconds / 1e6
    self.results = results
    self.goals = goals
  }

  func write(to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(self).write(to: URL(fileURLWithPath: path))
  }
}
