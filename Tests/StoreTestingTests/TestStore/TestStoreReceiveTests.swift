import StoreTesting
import Testing
import ValueStore

@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreReceiveTests {
  @Test func anActionAnEffectSendsBackIsReceived() async {
    let store = TestStore(initialState: Tally()) {
      TallyFeature(fact: { "\($0) is a good number." })
    }

    await store.send(.increment) { $0.count = 1 }
    await store.send(.factButtonTapped)
    await store.receive(.factResponse("1 is a good number.")) { $0.fact = "1 is a good number." }
  }

  @Test func actionsSentWithSendAreReceivedInOrderEachWithItsState() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }

    await store.send(.incrementThenSetCount(10))
    await store.receive(.increment) { $0.count = 1 }
    await store.receive(.setCount(10)) { $0.count = 10 }
  }

  @Test func receiveWaitsForAnActionAnEffectHasNotSentYet() async {
    let gate = Gate()
    let store = TestStore(initialState: Tally()) { TallyFeature(gate: gate) }

    await store.send(.waitForGate)
    // Whether the action comes before or while `receive` waits, it is received.
    async let opened: Void = gate.open()
    await store.receive(.gateOpened)
    await opened
  }

  @Test func aPredicateOrACasePathMatchesWhateverThePayload() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }

    await store.send(.factButtonTapped)
    await store.receive({ if case .factResponse = $0 { true } else { false } }) {
      $0.fact = "0 is a number."
    }
    await store.send(.factButtonTapped)
    await store.receive(CasePath(TallyFeature.Action.factResponse))
  }

  @Test func aDifferentActionFailsWithADiffOfExpectedAgainstReceived() async {
    let line = #line + 4
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.factButtonTapped)
      await store.receive(.factResponse("0 is a good number."))
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            Received unexpected action: …

              − TallyFeature.Action.factResponse("0 is a good number.")
              + TallyFeature.Action.factResponse("0 is a number.")

            (Expected: −, Received: +)
            """, line: line)
      ])
  }

  @Test func anActionNotMatchingAPredicateFailsShowingTheAction() async {
    let line = #line + 4
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.incrementTwice)
      await store.receive({ $0 == .decrement })
      await store.receive(.increment) { $0.count = 2 }
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            Received unexpected action: …

              TallyFeature.Action.increment

            (Expected: an action matching the predicate)
            """, line: line)
      ])
  }

  @Test func noActionWithinTheTimeoutFails() async {
    let line = #line + 5
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      let waiting = await store.send(.waitForGate)
      store.timeout = .milliseconds(50)
      await store.receive(CasePath(TallyFeature.Action.factResponse))
      await waiting.cancel()
    }

    #expect(
      issues == [
        RecordedIssue(
          message: "Expected to receive an action matching TallyFeature.Action.factResponse, but didn't "
            + "get one within 0.05 seconds.",
          line: line)
      ])
  }

  @Test func waitingForAnActionWhenNoEffectRunsFailsAtOnce() async {
    let line = #line + 4
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      store.timeout = .seconds(60)  // never reached
      await store.receive(.increment, timeout: .seconds(60))
    }

    #expect(
      issues == [
        RecordedIssue(
          message: "Expected to receive an action matching TallyFeature.Action.increment, but no "
            + "effect is running that could send one.",
          line: line)
      ])
  }

  @Test func skippedReceivedActionsNeedNoAssertion() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }

    await store.send(.incrementTwice)
    await store.skipReceivedActions()
    await store.send(.increment) { $0.count = 3 }
  }
}
