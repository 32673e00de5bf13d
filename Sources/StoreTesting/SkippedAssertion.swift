#if canImport(Testing)
  import Testing
#endif

/// Reports the checks that ``Exhaustivity/off(showSkippedAssertions:)`` skips, when asked to show
/// them.
enum SkippedAssertion {
  /// Where skipped checks go; by default ``record(_:at:)``. A task-local, so that this package's
  /// tests can capture them: Swift Testing does not show a known issue to an enclosing
  /// `withKnownIssue`, so known issues cannot be asserted on from the outside.
  @TaskLocal static var reporter = Reporter(report: record)

  /// A task-local's value is never a function type: see Documentation/Core.md, "Toolchain bugs worked around".
  struct Reporter: Sendable {
    let report: @Sendable (_ message: String, _ site: CallSite) -> Void
  }

  /// Reports a skipped check to the reporter in force.
  static func report(_ message: String, _ site: CallSite) { reporter.report(message, site) }

  /// `body`'s result, with the issues it records (and an error it throws) known issues in Swift
  /// Testing; nil if it throws.
  static func expectingIssues<R>(_ body: () throws -> R) -> R? {
    #if canImport(Testing)
      if Test.current != nil {
        var result: R?
        withKnownIssue("Applied to the state before the action, to show skipped assertions", isIntermittent: true) { result = try body() }
        return result
      }
    #endif
    return try? body()
  }

  /// Records `message` as a known issue in Swift Testing: shown in the results, never a failure.
  /// XCTest on Linux has no known issues, so there the message is printed instead.
  @Sendable static func record(_ message: String, at site: CallSite) {
    #if canImport(Testing)
      if Test.current != nil {
        withKnownIssue("Skipped assertion (exhaustivity is off)") {
          Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
              fileID: "\(site.fileID)", filePath: "\(site.filePath)", line: Int(site.line),
              column: Int(site.column)
            )
          )
        }
        return
      }
    #endif
    print("\(site.filePath):\(site.line): skipped assertion (exhaustivity is off): \(message)")
  }
}
