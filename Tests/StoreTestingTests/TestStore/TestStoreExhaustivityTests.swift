@testable import StoreTesting
import Testing
import ValueStore

@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreExhaustivityTests {
  @Test func offChecksOnlyWhatTheTestStates() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }
    store.exhaustivity = .off

    await store.send(.incrementThenSetCount(5))  // the two actions it sends back are skipped
    await store.send(.factButtonTapped)
    await store.receive(.factResponse("5 is a number."))
    await store.send(.reset) { $0.count = 0 }  // `fact` changes too, unasserted
    await store.send(.increment) { $0.count = 1 }
    await store.send(.waitForGate)  // still running at the end
  }

  @Test func offStillFailsWhenAFieldTheTestSetsIsWrong() async {
    let line = #line + 5
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      store.exhaustivity = .off
      await store.send(.setCount(5))
      await store.send(.reset) { $0.count = 1 }
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            State change does not match expectation:

                Tally(
              −   count: 1,
              +   count: 0,
                  fact: nil,
                  isTimerOn: false
                )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  // The closure is applied to the state after the action: a relative change is one more than the
  // state, not what the action did.
  @Test func offFailsARelativeChange() async {
    let line = #line + 4
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      store.exhaustivity = .off
      await store.send(.increment) { $0.count += 1 }
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            State change does not match expectation:

                Tally(
              −   count: 2,
              +   count: 1,
                  fact: nil,
                  isTimerOn: false
                )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func offReceiveSkipsActionsThatDontMatch() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }
    store.exhaustivity = .off

    await store.send(.incrementThenSetCount(5))
    await store.receive(.setCount(5)) { $0.count = 5 }
  }

  @Test func skippedAssertionsAreShownWithTheMessagesExhaustiveTestsFailWith() async {
    let lines = (fact: #line + 5, reset: #line + 7, increment: #line + 8, wait: #line + 9, last: #line + 10)
    let skipped = await recordSkippedAssertions {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.incrementThenSetCount(5))
      await store.send(.factButtonTapped)
      await store.receive(.factResponse("5 is a number.")) { $0.fact = "5 is a number." }
      await store.send(.reset) { $0.count = 0 }
      await store.send(.increment)
      await store.send(.waitForGate)
      await store.send(.incrementTwice)
    }

    #expect(
      skipped == [
        RecordedIssue(
          message: """
            Must handle 2 received actions before sending an action: …

            Unhandled actions: [
              [0]: TallyFeature.Action.increment,
              [1]: TallyFeature.Action.setCount(5)
            ]
            """, line: lines.fact),
        RecordedIssue(
          message: """
            State change does not match expectation:

                Tally(
                  count: 0,
              −   fact: "5 is a number.",
              +   fact: nil,
                  isTimerOn: false
                )

            (Expected: −, Actual: +)
            """, line: lines.reset),
        RecordedIssue(
          message: """
            State was expected not to change, but it did:

                Tally(
              −   count: 0,
              +   count: 1,
                  fact: nil,
                  isTimerOn: false
                )

            (Expected: −, Actual: +)
            """, line: lines.increment),
        RecordedIssue(
          message: """
            The store received 2 unexpected actions after this one: …

            Unhandled actions: [
              [0]: TallyFeature.Action.increment,
              [1]: TallyFeature.Action.increment
            ]
            """, line: lines.last),
        RecordedIssue(
          message: """
            An effect returned for this action is still running. It must run to completion before \
            the end of the test. …

            Started by send(TallyFeature.Action.waitForGate) at TestStoreExhaustivityTests.swift:\(lines.wait)
            """, line: lines.wait),
      ])
  }

  @Test func skippedAssertionsNeverFailTheTest() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }
    store.exhaustivity = .off(showSkippedAssertions: true)

    await store.send(.increment)  // recorded as a known issue
  }
}

/// Runs `body` and returns the assertions that non-exhaustive test stores skipped and showed.
private func recordSkippedAssertions(
  isolation: isolated (any Actor)? = #isolation, _ body: () async -> Void
) async -> [RecordedIssue] {
  let skipped = Log<RecordedIssue>()
  await SkippedAssertion.$reporter.withValue(.init { message, site in
    skipped.append(RecordedIssue(message: message, line: Int(site.line)))
  }) {
    await body()
  }
  return skipped.values
}
