#if canImport(XCTest) && !canImport(Darwin)
  import StoreTesting
  import XCTest

  final class ReportIssueXCTests: FailureCapturingTestCase {
    func testReportsAFailureWithTheMessageAtTheCallSite() async {
      let expectedLine = #line + 1
      let failures = await capturingFailures { reportIssue("boom") }

      // `XCTFail` prefixes its message with "failed - ".
      XCTAssertEqual(
        failures, [Failure(description: "failed - boom", filePath: #filePath, line: expectedLine)])
      XCTAssertEqual(testRun?.failureCount, 0, "a captured failure must not fail the test")
    }

    func testReportsAFailureAtAForwardedLocation() async {
      let failures = await capturingFailures {
        reportIssue("custom assertion failed", filePath: "/src/Module/File.swift", line: 42)
      }

      XCTAssertEqual(
        failures,
        [
          Failure(
            description: "failed - custom assertion failed", filePath: "/src/Module/File.swift",
            line: 42)
        ])
      XCTAssertEqual(testRun?.failureCount, 0, "a captured failure must not fail the test")
    }
  }
#endif
