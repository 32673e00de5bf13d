import StoreTesting
import Testing
import ValueStore

@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreSendTests {
  @Test func aCounterPassesWhenEveryChangeIsAsserted() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }

    await store.send(.increment) { $0.count = 1 }
    await store.send(.increment) { $0.count = 2 }
    await store.send(.decrement) { $0.count = 1 }
    await store.send(.noop)
    #expect(store.state.count == 1)
  }

  @Test func theReducerInitializerWorksLikeTheBuilder() async {
    let store = TestStore(initialState: Tally(), reducer: TallyFeature())

    await store.send(.setCount(7)) { $0.count = 7 }
  }

  @Test func aWrongExpectationFailsWithADiffOfExpectedAgainstActual() async {
    let line = #line + 3
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.increment) { $0.count = 2 }
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

  @Test func aChangeWithoutAClosureFails() async {
    let line = #line + 3
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.increment)
    }

    #expect(
      issues == [
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
            """, line: line)
      ])
  }

  @Test func aClosureForAnActionThatChangesNothingFails() async {
    let line = #line + 3
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.noop) { $0.count = 0 }
    }

    #expect(
      issues == [
        RecordedIssue(
          message: "Expected state to change, but no change occurred. The trailing closure made "
            + "no observable modifications to state. If no change to state is expected, omit the "
            + "trailing closure.",
          line: line)
      ])
  }

  @Test func anErrorThrownByTheClosureFails() async {
    let line = #line + 3
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.increment) { _ in throw TallyFeature.Failure() }
    }

    #expect(issues == [RecordedIssue(message: "Threw error: Failure()", line: line)])
  }

  @Test func sendingWithReceivedActionsUnassertedFailsAndLeavesThemToReceive() async {
    let line = #line + 4
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.incrementTwice)
      await store.send(.increment) { $0.count = 3 }  // from the last asserted state
      await store.receive(.increment) { $0.count = 1 }
      await store.receive(.increment) { $0.count = 2 }
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            Must handle 2 received actions before sending an action: …

            Unhandled actions: [
              [0]: TallyFeature.Action.increment,
              [1]: TallyFeature.Action.increment
            ]
            """, line: line)
      ])
  }
}
