/// Counts observer calls, so a scenario can check that its observers fired once per operation: a
/// benchmark whose observer silently stopped firing would time nothing and look fast.
///
/// `@unchecked Sendable`: `onChange` closures are `@Sendable`, but every benchmark runs on one
/// thread and observers run on the thread that made the change.
final class FireCounter: @unchecked Sendable {
  private var count = 0

  func fire() { count += 1 }

  /// Stops the run unless the observers fired exactly `expected` times.
  func expect(_ expected: Int, in scenario: String) {
    precondition(count == expected, "\(scenario): observers fired \(count) times, expected \(expected)")
  }
}
