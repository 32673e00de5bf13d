/// A place in a test (the call of a test store method, or of an expectation) where failures are
/// reported.
struct CallSite: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  /// How messages name the place: `File.swift:42`.
  var description: String {
    let fileID = "\(fileID)"
    let fileName = fileID.split(separator: "/").last.map(String.init) ?? fileID
    return "\(fileName):\(line)"
  }

  /// Reports a test failure here.
  func reportFailure(_ message: String) {
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
