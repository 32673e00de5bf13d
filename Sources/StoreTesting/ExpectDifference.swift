/// Expects two values to be equal, and shows how they differ when they are not.
///
/// ```swift
/// expectNoDifference(user, User(id: 1, name: "Blob", tags: ["admin"]))
/// ```
///
/// On failure it reports, through ``reportIssue(_:fileID:filePath:line:column:)``, a diff of the
/// two values' dumps rather than two long one-line descriptions:
///
/// ```text
/// Difference: …
///
///     User(
///       id: 1,
///   −   name: "Blob",
///   +   name: "Blob Jr.",
///       tags: [
///         [0]: "admin"
///       ]
///     )
///
/// (First: −, Second: +)
/// ```
///
/// A non-empty `message` replaces "Difference". An error thrown by either expression is reported
/// as a failure.
public func expectNoDifference<T: Equatable>(
  _ expression1: @autoclosure () throws -> T,
  _ expression2: @autoclosure () throws -> T,
  _ message: @autoclosure () -> String = "",
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  do {
    let first = try expression1()
    let second = try expression2()
    guard first != second else { return }
    site.reportFailure(
      differenceMessage(headline(message()), first, second, firstName: "First", secondName: "Second")
    )
  } catch {
    site.reportFailure("Threw error: \(error)")
  }
}

/// Expects `operation` to change `value` exactly as `changes` describes.
///
/// `value` is evaluated before and after `operation`; `changes` turns the value from before into
/// the expected one, which must equal the value after:
///
/// ```swift
/// expectDifference(model.counters) {
///   model.incrementButtonTapped(at: 0)
/// } changes: {
///   $0[0].count = 1
/// }
/// ```
///
/// On failure the diff shows the expected value (−) against the actual one (+):
///
/// ```text
/// Difference: …
///
///     [
///       [0]: Counter(
///   −     count: 1
///   +     count: 2
///       )
///     ]
///
/// (Expected: −, Actual: +)
/// ```
///
/// A non-empty `message` replaces "Difference". An error thrown by `value`, `operation` or
/// `changes` is reported as a failure.
public func expectDifference<T: Equatable>(
  _ value: @autoclosure () throws -> T,
  _ message: @autoclosure () -> String = "",
  operation: () throws -> Void = {},
  changes updateValueToExpectedResult: (inout T) throws -> Void,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  do {
    var expected = try value()
    try operation()
    let actual = try value()
    try updateValueToExpectedResult(&expected)
    guard expected != actual else { return }
    site.reportFailure(
      differenceMessage(headline(message()), expected, actual, firstName: "Expected", secondName: "Actual")
    )
  } catch {
    site.reportFailure("Threw error: \(error)")
  }
}

/// The first line of a failure: the caller's message, or "Difference".
private func headline(_ message: String) -> String {
  "\(message.isEmpty ? "Difference" : message): …"
}
