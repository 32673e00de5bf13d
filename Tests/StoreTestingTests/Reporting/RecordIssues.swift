import Testing

/// A failure a test store reported: its message and the line it points at.
struct RecordedIssue: Equatable, CustomStringConvertible {
  let message: String
  let line: Int

  var description: String { "line \(line): \(message)" }
}

/// Runs `body`, which must report failures, and returns them. They are recorded as known issues,
/// so they don't fail the test; the test asserts them instead.
func recordIssues(
  isolation: isolated (any Actor)? = #isolation, _ body: () async -> Void
) async -> [RecordedIssue] {
  let issues = Log<RecordedIssue>()
  await withKnownIssue {
    await body()
  } matching: { issue in
    issues.append(
      RecordedIssue(
        message: issue.comments.map(\.rawValue).joined(separator: "\n"),
        line: issue.sourceLocation?.line ?? 0))
    return true
  }
  return issues.values
}
