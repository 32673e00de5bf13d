/// Counts observer calls, so a scenario can check that its observers fired once per operation: a
/// benchmark whose observer silently stopped firing would time nothing and look fast.
///
/// `@unchecked Sendable`: `onChange` closures are `@Sendable`, but every benchmark runs on one
/// thread and observers run on the thread that made the change.
final class FireCounter: @unchecked Sendable {
  private(set) var count = 0

  func fire() { count += 1 }

  /// Stops the run unless the observers fired exactly `expected` times.
  func expect(_ expected: Int, in scenario: String) {
    precondition(count == expected, "\(scenario): observers fired \(count) times, expected \(expected)")
  }

  /// Records, without stopping the run, how many times the observers fired per operation after
  /// `initial` calls made while setting up: for a goal ("exactly 1 observer fires"), which then
  /// reports a miss instead of aborting the whole run.
  func record(_ key: String, operations: Int, initial: Int = 0) {
    Facts.record(key, Double(count - initial) / Double(max(operations, 1)))
  }
}

/// Values observed while measuring (observer calls per operation), reported in the Goals section.
/// Every run of a workload records; all distinct values are kept, so one bad run shows.
enum Facts {
  nonisolated(unsafe) private static var values: [String: [Double]] = [:]

  static func record(_ key: String, _ value: Double) {
    if values[key]?.contains(value) != true { values[key, default: []].append(value) }
  }

  /// The distinct values recorded under `key`, in the order first seen; nil if it never ran.
  static func distinct(_ key: String) -> [Double]? { values[key] }
}
