import StoreTesting
import Testing

@Suite struct ReportIssueTests {
  @Test func recordsAnIssueWithTheMessageAtTheCallSite() {
    var evaluations = 0
    let expectedLine = #line + 2
    withKnownIssue {
      reportIssue({ evaluations += 1; return "boom" }())
    } matching: { issue in
      issue.comments == ["boom"]
        && issue.sourceLocation?.fileID == #fileID
        && issue.sourceLocation?.filePath == #filePath
        && issue.sourceLocation?.line == expectedLine
    }
    #expect(evaluations == 1, "the message is evaluated exactly once")
  }

  @Test func recordsTheIssueAtAForwardedLocation() {
    withKnownIssue {
      reportIssue(
        "custom assertion failed",
        fileID: "Module/File.swift", filePath: "/src/Module/File.swift", line: 42, column: 7
      )
    } matching: { issue in
      issue.comments == ["custom assertion failed"]
        && issue.sourceLocation
          == SourceLocation(
            fileID: "Module/File.swift", filePath: "/src/Module/File.swift", line: 42, column: 7
          )
    }
  }

  // `Test.current` is task-local: child tasks inherit it, so their failures reach Swift Testing.
  @Test func recordsIssuesFromChildTasks() async {
    await withKnownIssue {
      async let reported: Void = reportIssue("from a child task")
      await reported
    } matching: { issue in
      issue.comments == ["from a child task"]
    }
  }
}
