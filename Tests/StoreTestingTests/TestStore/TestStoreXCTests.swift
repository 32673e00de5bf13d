#if canImport(XCTest) && !canImport(Darwin)
  import StoreTesting
  import XCTest

  /// The main test store failures reach XCTest, at the test's lines.
  final class TestStoreXCTests: FailureCapturingTestCase {
    @MainActor
    func testAWrongExpectationFailsAtTheSend() async {
      let line = #line + 3
      let failures = await capturingFailures {
        let store = TestStore(initialState: Tally()) { TallyFeature() }
        await store.send(.setCount(3)) { $0.count = 4 }
      }

      XCTAssertEqual(
        failures,
        [
          Failure(
            description: """
              failed - State change does not match expectation:

                  Tally(
                −   count: 4,
                +   count: 3,
                    fact: nil,
                    isTimerOn: false
                  )

              (Expected: −, Actual: +)
              """, filePath: #filePath, line: line)
        ])
      XCTAssertEqual(testRun?.failureCount, 0)
    }

    @MainActor
    func testAnUnexpectedReceivedActionFailsAtTheReceive() async {
      let line = #line + 4
      let failures = await capturingFailures {
        let store = TestStore(initialState: Tally()) { TallyFeature() }
        await store.send(.incrementTwice)
        await store.receive(.decrement)
        await store.receive(.increment) { $0.count = 2 }
      }

      XCTAssertEqual(
        failures,
        [
          Failure(
            description: """
              failed - Received unexpected action: …

                − TallyFeature.Action.decrement
                + TallyFeature.Action.increment

              (Expected: −, Received: +)
              """, filePath: #filePath, line: line)
        ])
      XCTAssertEqual(testRun?.failureCount, 0)
    }

    @MainActor
    func testAnEffectStillRunningFailsAtFinish() async {
      let sendLine = #line + 3
      let failures = await capturingFailures {
        let store = TestStore(initialState: Tally()) { TallyFeature() }
        await store.send(.waitForGate)
        await store.finish(timeout: .milliseconds(50))
        await store.skipInFlightEffects()
      }

      XCTAssertEqual(
        failures,
        [
          Failure(
            description: """
              failed - An effect returned for this action is still running. It must run to \
              completion before the end of the test. …

              Started by send(TallyFeature.Action.waitForGate) at TestStoreXCTests.swift:\(sendLine)
              """, filePath: #filePath, line: sendLine + 1)
        ])
      XCTAssertEqual(testRun?.failureCount, 0)
    }

    @MainActor
    func testWhatIsLeftAtTheEndFailsWhenTheStoreIsReleased() async {
      let line = #line + 3
      let failures = await capturingFailures {
        let store = TestStore(initialState: Tally()) { TallyFeature() }
        await store.send(.incrementTwice)
      }

      XCTAssertEqual(
        failures,
        [
          Failure(
            description: """
              failed - The store received 2 unexpected actions after this one: …

              Unhandled actions: [
                [0]: TallyFeature.Action.increment,
                [1]: TallyFeature.Action.increment
              ]
              """, filePath: #filePath, line: line)
        ])
      XCTAssertEqual(testRun?.failureCount, 0)
    }
  }
#endif
