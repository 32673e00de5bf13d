/// How ValueStore reaches the running test without linking a test framework: a test-support
/// library (StoreTesting) conforms a type of its own, which ValueStore finds by name at run time
/// once linked into the process. An app links none, and its reports go to standard error.
@_spi(Testing) public protocol _TestSupport {
  /// Fails the running test (Swift Testing's or XCTest's) with `message` at the location given.
  static func reportIssue(
    _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)
  /// The running Swift Testing test, if any: each test gets its own dependency values.
  static var currentTestID: (any Hashable & Sendable)? { get }
}

enum TestSupport {
  /// `StoreTesting.DependencyTestSupport`, when the process links it. (Set once; a metatype.)
  nonisolated(unsafe) static let linked = _typeByName("12StoreTesting21DependencyTestSupportO") as? any _TestSupport.Type
}

/// Reports a misuse of dependencies: a test failure in a test (when StoreTesting is linked), a
/// message on standard error otherwise.
func reportDependencyIssue(
  _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
) {
  if let support = TestSupport.linked {
    support.reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  } else {
    print("[ValueStore] \(fileID):\(line): \(message)")
  }
}

/// A place in the source, where a report points.
struct SourceSite: Sendable {
  var fileID: StaticString = #fileID
  var filePath: StaticString = #filePath
  var line: UInt = #line
  var column: UInt = #column
}
