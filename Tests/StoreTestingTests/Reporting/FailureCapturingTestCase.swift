// Corelibs XCTest has no `XCTExpectFailure`; this file captures failures through the hook that
// every corelibs assertion goes through. Apple's XCTest routes failures through `record(_:)`
// instead, and has `XCTExpectFailure`, so this file is for corelibs XCTest only.
#if canImport(XCTest) && !canImport(Darwin)
  import XCTest

  /// A test case that can capture the failures an operation reports, instead of failing.
  class FailureCapturingTestCase: XCTestCase {
    struct Failure: Equatable {
      let description: String
      let filePath: String
      let line: Int
    }

    /// Failures recorded while ``capturingFailures(isolation:_:)`` runs; `nil` outside it.
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

    /// Runs `body` and returns the failures it reported.
    func capturingFailures(
      isolation: isolated (any Actor)? = #isolation, _ body: () async -> Void
    ) async -> [Failure] {
      capturedFailures = []
      defer { capturedFailures = nil }
      await body()
      return capturedFailures ?? []
    }
  }
#endif
