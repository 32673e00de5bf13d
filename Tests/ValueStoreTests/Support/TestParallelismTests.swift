import Foundation
import TestParallelism
import Testing

/// The test process runs a bounded number of test cases at once (see `Tests/TestParallelism`).
@Suite struct TestParallelismTests {
  @Test func theWidthIsCappedAtTwiceTheCoresUnlessTheEnvironmentSetsIt() {
    #expect(test_parallelism_width() > 0)
    if test_parallelism_defaulted() != 0 {
      #expect(test_parallelism_width() == 2 * ProcessInfo.processInfo.activeProcessorCount)
    }
  }
}
