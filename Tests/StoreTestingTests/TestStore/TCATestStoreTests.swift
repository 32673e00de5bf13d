import StoreTesting
import Testing
import ValueStore

/// TCA's `TestStoreTests` and `TestStoreFailureTests`, translated: what a TCA user's tests rely on.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct TCATestStoreTests {
  enum Step: Equatable, Sendable { case a, b1, b2, b3, c1, c2, c3, d }

  @Test func testEffectConcatenation() async {
    let clock = TestClock()
    let store = TestStore(initialState: Number()) {
      Reduce<Number, Step> { _, action in
        switch action {
        case .a:
          return .merge(
            .run { send in
              try await clock.sleep(for: .seconds(1))
              await send(.b1)
              await send(.c1)
            },
            .run { _ in await Gate().wait() }.cancellable(id: 1)
          )
        case .b1: return .concatenate(.send(.b2), .send(.b3))
        case .c1: return .concatenate(.send(.c2), .send(.c3))
        case .b2, .b3, .c2, .c3: return .none
        case .d: return .cancel(id: 1)
        }
      }
    }

    await store.send(.a)
    await clock.advance(by: .seconds(1))
    await store.receive(.b1)
    await store.receive(.b2)
    await store.receive(.b3)
    await store.receive(.c1)
    await store.receive(.c2)
    await store.receive(.c3)
    await store.send(.d)
  }

  @Test func testStateAccess() async {
    enum Action: Equatable, Sendable { case a, b, c, d }
    let store = TestStore(initialState: Number()) {
      Reduce<Number, Action> { state, action in
        state.value += 1
        return action == .a ? .merge(.send(.b), .send(.c), .send(.d)) : .none
      }
    }

    await store.send(.a) {
      $0.value = 1
      #expect(store.state.value == 0)
    }
    #expect(store.state.value == 1)
    await store.receive(.b) {
      $0.value = 2
      #expect(store.state.value == 1)
    }
    #expect(store.state.value == 2)
    await store.receive(.c) {
      $0.value = 3
      #expect(store.state.value == 2)
    }
    #expect(store.state.value == 3)
    await store.receive(.d) {
      $0.value = 4
      #expect(store.state.value == 3)
    }
    #expect(store.state.value == 4)
  }

  enum FirstSecond: Equatable, Sendable { case first, second }
  /// `first` sends back `second`, which does nothing.
  static let firstSendsSecond = Reduce<Number, FirstSecond> { _, action in
    action == .first ? .send(.second) : .none
  }

  // As in TCA, the actions are still unasserted at the end of the test, and fail it again there.
  @Test func testReceivedActionBeforeFinish() async {
    let line = #line + 4
    let issues = await recordIssues {
      let store = TestStore(initialState: Number()) { Self.firstSendsSecond }
      await store.send(.first)
      await store.finish()
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            The store received 1 unexpected action: …

            Unhandled actions: [
              [0]: TCATestStoreTests.FirstSecond.second
            ]
            """, line: line),
        RecordedIssue(
          message: """
            The store received 1 unexpected action after this one: …

            Unhandled actions: [
              [0]: TCATestStoreTests.FirstSecond.second
            ]
            """, line: line - 1),
      ])
  }

  @Test func testSendActionBeforeReceivingFailure() async {
    let line = #line + 4
    let issues = await recordIssues {
      let store = TestStore(initialState: Number()) { Self.firstSendsSecond }
      await store.send(.first)
      await store.send(.first)
      await store.receive(.second)
      await store.receive(.second)
    }

    #expect(
      issues == [
        RecordedIssue(
          message: """
            Must handle 1 received action before sending an action: …

            Unhandled actions: [
              [0]: TCATestStoreTests.FirstSecond.second
            ]
            """, line: line)
      ])
  }
}
