import StoreTesting
import Testing

@Suite struct ExpectDifferenceTests {
  struct User: Equatable {
    var id: Int
    var name: String
  }

  /// Never equal, yet dumps like any other value: `==` compares something the dump doesn't show.
  struct Opaque: Equatable, CustomStringConvertible {
    var description: String { "opaque" }
    static func == (lhs: Self, rhs: Self) -> Bool { false }
  }

  struct Failure: Error {}

  func failingValue() throws -> Int { throw Failure() }

  @Test func equalValuesPass() {
    expectNoDifference(User(id: 1, name: "Blob"), User(id: 1, name: "Blob"))
    var user = User(id: 1, name: "Blob")
    expectDifference(user) {
      user.name = "Blob Jr."
    } changes: {
      $0.name = "Blob Jr."
    }
  }

  @Test func differentValuesFailWithADiffOfFirstAgainstSecond() async {
    let line = #line + 2
    let issues = await recordIssues {
      expectNoDifference(User(id: 1, name: "Blob"), User(id: 1, name: "Blob Jr."))
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            Difference: …

                ExpectDifferenceTests.User(
                  id: 1,
              −   name: "Blob"
              +   name: "Blob Jr."
                )

            (First: −, Second: +)
            """, line: line)
      ])
  }

  @Test func aMessageReplacesDifference() async {
    let issues = await recordIssues {
      expectNoDifference(1, 2, "Counts differ")
    }

    #expect(issues.map(\.message) == ["Counts differ: …\n\n  − 1\n  + 2\n\n(First: −, Second: +)"])
  }

  @Test func anUnexpectedChangeFailsWithADiffOfExpectedAgainstActual() async {
    let line = #line + 3
    let issues = await recordIssues {
      var user = User(id: 1, name: "Blob")
      expectDifference(user) {
        user.name = "Blob Sr."
      } changes: {
        $0.name = "Blob Jr."
      }
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            Difference: …

                ExpectDifferenceTests.User(
                  id: 1,
              −   name: "Blob Jr."
              +   name: "Blob Sr."
                )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func anErrorFails() async {
    let issues = await recordIssues { expectWithThrowingExpressions() }

    #expect(issues.map(\.message) == ["Threw error: Failure()", "Threw error: Failure()"])
  }

  // A function, not a closure: a closure containing `try` is inferred to throw, even when the
  // `try` is inside an autoclosure that handles the error.
  private func expectWithThrowingExpressions() {
    expectNoDifference(try failingValue(), 1)
    expectDifference(1, operation: { throw Failure() }, changes: { $0 = 2 })
  }

  @Test func unequalValuesThatDumpIdenticallyAreShownOnce() async {
    let issues = await recordIssues {
      expectNoDifference(Opaque(), Opaque())
    }

    #expect(
      issues.map(\.message) == [
        """
        Difference: …

          opaque

        (First and Second are not equal, but they dump identically.)
        """
      ])
  }
}
