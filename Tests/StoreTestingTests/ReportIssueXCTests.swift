// Corelibs XCTest has no `XCTExpectFailure`; this file captures failures through the hook that
// every corelibs assertion goes through. Apple's XCTest routes failures through `record(_:)`
// instead, and has `XCTExpectFailure`, so this file is for corelibs XCTest only.
#if canImport(XCTest) && !canImport(Darwin)
  import StoreTesting
  import XCTest

  final class ReportIssueXCTests: XCTestCase {
    private struct Failure: Equatable {
      let description: String
      let filePath: String
      let line: Int
    }

    /// Failures recorded while ``capturingFailures(_:)`` runs; `nil` outside it.
    private var capturedFailures: [Failure]?

    // Every corelibs assertion, `XCTFail` included, reports through this method. Not calling
    // `super` while capturing is what keeps the captured failure from failing the test.
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
      expected: Bool
    ) {
      guard capturedFailures != nil else {
        super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        return
      }
      capturedFailures?.append(
        Failure(description: description, filePath: filePath, line: lineNumber))
    }

    private func capturingFailures(_ body: () -> Void) -> [Failure] {
      capturedFailures = []
      defer { capturedFailures = nil }
      body()
      return capturedFailures ?? []
    }

    func testReportsAFailureWithTheMessageAtTheCallSite() {
      let expectedLine = #line + 1
      let failures = capturingFailures { reportIssue("boom") }

      // `XCTFail` prefixes its message with "failed - ".
      XCTAssertEqual(
        failures, [Failure(description: "failed - boom", filePath: #filePath, line: expectedLine)])
      XCTAssertEqual(testRun?.failureCount, 0, "a captured failure must not fail the test")
    }

    func testReportsAFailureAtAForwardedLocation() {
      let failures = capturingFailures {
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
