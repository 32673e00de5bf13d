import StoreTesting

extension TestClock {
  /// Suspends until `count` tasks are asleep on the clock, so that a test advances the clock
  /// only once the tasks it started have registered their deadlines.
  func waitForSleepers(_ count: Int) async {
    while sleeperCount < count {
      await Task.yield()
    }
  }
}
