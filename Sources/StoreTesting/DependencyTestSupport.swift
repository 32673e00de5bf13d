#if canImport(Testing)
  import Testing
#endif
@_spi(Testing) import ValueStore

/// ValueStore's way into the running test: it finds this type by name at run time (ValueStore
/// links no test framework), once StoreTesting is linked into the test process. An unimplemented
/// dependency used anywhere in a test then fails it, and each Swift Testing test gets its own
/// dependency values.
enum DependencyTestSupport: _TestSupport {
  static func reportIssue(
    _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    StoreTesting.reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The running test, and its case if it is parameterized: each argument gets values of its own.
  /// (`Test.Case` names its arguments only in its description.)
  static var currentTestID: (any Hashable & Sendable)? {
    #if canImport(Testing)
      guard let test = Test.current else { return nil }
      guard let testCase = Test.Case.current, testCase.isParameterized else { return test.id }
      return TestCaseID(test: test.id, testCase: String(describing: testCase))
    #else
      nil
    #endif
  }
}

#if canImport(Testing)
  private struct TestCaseID: Hashable, Sendable {
    let test: Test.ID
    let testCase: String
  }
#endif
