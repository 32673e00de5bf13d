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

  static var currentTestID: (any Hashable & Sendable)? {
    #if canImport(Testing)
      Test.current?.id
    #else
      nil
    #endif
  }
}
