#if canImport(Testing)
  import Testing
#endif
#if canImport(XCTest)
  import XCTest
#endif

/// Reports a test failure to whichever test framework is running the current test.
///
/// Swift Testing and XCTest each ignore failures reported through the other's API: an
/// `Issue.record` inside an XCTest test passes, and so does an `XCTFail` inside a Swift Testing
/// test. This function picks the right one: it records an `Issue` when called from a Swift
/// Testing test (when `Test.current` is set), and calls `XCTFail` otherwise.
///
/// It is the building block of custom assertions and of the failures the test store reports.
/// Forward your caller's source location so the failure points at the assertion's call site
/// rather than at the helper's body:
///
/// ```swift
/// func expectEven(
///   _ value: Int,
///   fileID: StaticString = #fileID,
///   filePath: StaticString = #filePath,
///   line: UInt = #line,
///   column: UInt = #column
/// ) {
///   guard !value.isMultiple(of: 2) else { return }
///   reportIssue(
///     "Expected an even number, got \(value)",
///     fileID: fileID, filePath: filePath, line: line, column: column
///   )
/// }
/// ```
///
/// - Important: `Test.current` is a task-local value, so call this from the test's own task or
///   from a child task. A failure reported from a detached or otherwise unstructured task inside
///   a Swift Testing test falls back to `XCTFail` and is lost.
///
/// - Parameters:
///   - message: A description of the failure. It is evaluated exactly once.
///   - fileID: The file ID of the failure's location. Swift Testing uses it; XCTest does not.
///   - filePath: The file path of the failure's location.
///   - line: The line of the failure's location.
///   - column: The column of the failure's location. Swift Testing uses it; XCTest does not.
public func reportIssue(
  _ message: @autoclosure () -> String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  #if canImport(Testing)
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message()),
        sourceLocation: SourceLocation(
          fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)
        )
      )
      return
    }
  #endif
  #if canImport(XCTest)
    XCTFail(message(), file: filePath, line: line)
  #endif
}
