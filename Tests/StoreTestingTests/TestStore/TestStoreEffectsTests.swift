import StoreTesting
import Testing
import ValueStore

/// Running effects: waiting for them, cancelling and skipping them, and the failures for those
/// still running when they must have finished.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct TestStoreEffectsTests {
  @Test func finishWaitsForRunningEffects() async {
    let gate = Gate()
    let store = TestStore(initialState: Tally()) { TallyFeature(gate: gate) }

    await store.send(.waitForGate)
    async let opened: Void = gate.open()
    await store.finish()
    await opened
    await store.receive(.gateOpened)
  }

  @Test func finishFailsForEachEffectStillRunningNamingWhatStartedIt() async {
    let sendLine = #line + 3
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.waitForGate)
      await store.finish(timeout: .milliseconds(50))
      await store.skipInFlightEffects()
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            An effect returned for this action is still running. It must run to completion before \
            the end of the test. …

            Started by send(TallyFeature.Action.waitForGate) at TestStoreEffectsTests.swift:\(sendLine)
            """, line: sendLine + 1)
      ])
  }

  @Test func anEffectStillRunningAtTheEndFailsWhereItsActionWasSent() async {
    let sendLine = #line + 3
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.waitForGate)
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            An effect returned for this action is still running. It must run to completion before \
            the end of the test. …

            Started by send(TallyFeature.Action.waitForGate) at TestStoreEffectsTests.swift:\(sendLine)
            """, line: sendLine)
      ])
  }

  @Test func anEffectOfAReceivedActionNamesTheActionAndTheSendItFollowed() async {
    let sendLine = #line + 3
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.sendTimerToggled)
      await store.receive(.timerToggled) { $0.isTimerOn = true }
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            An effect returned for this action is still running. It must run to completion before \
            the end of the test. …

            Started by received action TallyFeature.Action.timerToggled (following \
            send(TallyFeature.Action.sendTimerToggled) at TestStoreEffectsTests.swift:\(sendLine))
            """, line: sendLine)
      ])
  }

  @Test func receivedActionsLeftUnassertedFailAfterTheLastStep() async {
    let lastLine = #line + 4
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.incrementThenSetCount(5))
      await store.receive(.increment) { $0.count = 1 }
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            The store received 1 unexpected action after this one: …

            Unhandled actions: [
              [0]: TallyFeature.Action.setCount(5)
            ]
            """, line: lastLine)
      ])
  }

  @Test func skippedEffectsMayStillRunAtTheEnd() async {
    let store = TestStore(initialState: Tally()) { TallyFeature() }

    await store.send(.waitForGate)
    await store.skipInFlightEffects()
  }

  @Test func theTaskSendReturnsCancelsOrAwaitsTheActionsEffects() async {
    let gate = Gate()
    let store = TestStore(initialState: Tally()) { TallyFeature(gate: gate) }

    let waiting = await store.send(.waitForGate)
    #expect(waiting.isInFlight)
    await waiting.cancel()
    #expect(!waiting.isInFlight)

    let waitingAgain = await store.send(.waitForGate)
    gate.open()
    await waitingAgain.finish()
    await store.receive(.gateOpened)
  }

  @Test func aTaskNotFinishingInTimeFails() async {
    let line = #line + 5
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      store.timeout = .milliseconds(50)
      let waiting = await store.send(.waitForGate)
      await waiting.finish()
      await store.skipInFlightEffects()
    }

    #expect(
      issues == [
        RecordedIssue(
          message: "Expected the effects of this action to finish within 0.05 seconds, but they "
            + "are still running.",
          line: line)
      ])
  }

  @Test func anErrorAnEffectDoesNotHandleFailsWhereTheStoreWasCreated() async {
    let line = #line + 2
    let issues = await recordIssues {
      let store = TestStore(initialState: Tally()) { TallyFeature() }
      await store.send(.failingEffect)
      await store.finish()
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            An effect threw an error it did not handle: …

              TallyFeature.Failure()

            Handle it with the `catch:` handler of `.run`.
            """, line: line)
      ])
  }
}
