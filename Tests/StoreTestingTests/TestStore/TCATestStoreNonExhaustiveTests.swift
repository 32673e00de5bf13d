import StoreTesting
import Testing
import ValueStore

/// TCA's `TestStoreNonExhaustiveTests`, translated: skipping received actions and in-flight
/// effects, `state` as the last asserted state, and non-exhaustive `receive`.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct TCATestStoreNonExhaustiveTests {
  /// `true` counts itself and sends back `false`, which counts itself too.
  static let countsAndSendsBack = Reduce<Number, Bool> { state, action in
    state.value += 1
    return action ? .send(false) : .none
  }

  /// Skipping the received action moves `state` past it.
  func skipReceivedActionsNonStrict(_ exhaustivity: Exhaustivity) async {
    let store = TestStore(initialState: Number()) { Self.countsAndSendsBack }
    store.exhaustivity = exhaustivity

    await store.send(true) { $0.value = 1 }
    #expect(store.state.value == 1)
    await store.skipReceivedActions(strict: false)
    #expect(store.state.value == 2)
  }

  @Test func testSkipReceivedActions_NonStrict() async {
    await skipReceivedActionsNonStrict(.on)
  }

  @Test func testSkipReceivedActions_NonExhaustive() async {
    await skipReceivedActionsNonStrict(.off)
  }

  @Test func testSkipReceivedActions_PartialExhaustive() async {
    await skipReceivedActionsNonStrict(.off(showSkippedAssertions: true))
  }

  @Test func testSkipReceivedActions_Strict() async {
    let line = #line + 7
    let issues = await recordIssues {
      let store = TestStore(initialState: Number()) { Self.countsAndSendsBack }
      await store.send(true) { $0.value = 1 }
      #expect(store.state.value == 1)
      await store.receive(false) { $0.value = 2 }
      #expect(store.state.value == 2)
      await store.skipReceivedActions(strict: true)
    }

    #expect(issues == [RecordedIssue(message: "There were no received actions to skip.", line: line)])
  }

  /// An effect still running is skipped without failing.
  func cancelInFlightEffectsNonStrict(_ exhaustivity: Exhaustivity) async {
    let store = TestStore(initialState: Number()) {
      Reduce<Number, Bool> { _, _ in .run { _ in await Gate().wait() } }
    }
    store.exhaustivity = exhaustivity

    await store.send(true)
    await store.skipInFlightEffects(strict: false)
  }

  @Test func testCancelInFlightEffects_NonStrict() async {
    await cancelInFlightEffectsNonStrict(.on)
  }

  @Test func testCancelInFlightEffects_NonExhaustive() async {
    await cancelInFlightEffectsNonStrict(.off)
  }

  @Test func testCancelInFlightEffects_PartialExhaustive() async {
    await cancelInFlightEffectsNonStrict(.off(showSkippedAssertions: true))
  }

  @Test func testCancelInFlightEffects_Strict() async {
    let line = #line + 7
    let issues = await recordIssues {
      let store = TestStore(initialState: Number()) {
        Reduce<Number, Bool> { _, _ in .run { _ in } }
      }
      let task = await store.send(true)
      await task.finish(timeout: .seconds(0.5))
      await store.skipInFlightEffects(strict: true)
    }

    #expect(issues == [RecordedIssue(message: "There were no in-flight effects to skip.", line: line)])
  }

  @Test func testReceive_StateChange() async {
    let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
    store.exhaustivity = .off(showSkippedAssertions: true)

    await store.send(.onAppear)
    #expect(store.state == NonExhaustiveReceive.State())
    await store.receive(.response1(42)) { $0.int = 42 }  // count = 1 not asserted
    #expect([store.state.count, store.state.int] == [1, 42])
    await store.receive(.response2("Hello")) { $0.string = "Hello" }  // count = 2 not asserted
    #expect([store.state.count, store.state.int] == [2, 42])
    #expect(store.state.string == "Hello")
  }

  @Test func testReceive_SkipAction() async {
    let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
    store.exhaustivity = .off(showSkippedAssertions: true)

    await store.send(.onAppear)
    #expect(store.state == NonExhaustiveReceive.State())
    await store.receive(.response2("Hello")) {  // skips .response1(42)
      $0.count = 2
      $0.string = "Hello"
    }
    #expect([store.state.count, store.state.int] == [2, 42])
  }

  @Test func testSendWithUnreceivedActions_SkipsActions() async {
    enum Action: Equatable, Sendable { case tap, response(Int) }
    let store = TestStore(initialState: Number()) {
      Reduce<Number, Action> { state, action in
        switch action {
        case .tap:
          state.value += 1
          return .run { [value = state.value] send in await send(.response(value + 42)) }
        case let .response(number):
          state.value = number
          return .none
        }
      }
    }
    store.exhaustivity = .off

    await store.send(.tap)
    #expect(store.state.value == 1)
    await store.send(.tap)  // skips .response(43)
    #expect(store.state.value == 44)
    await store.skipReceivedActions()
    #expect(store.state.value == 86)
  }

  // A non-exhaustive receive that finds no matching action leaves the received ones to receive.
  @Test func testCasePathReceive_WrongAction() async {
    let line = #line + 5
    let issues = await recordIssues {
      let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.onAppear)
      await store.receive { $0 == .onAppear }
      await store.receive(CasePath(NonExhaustiveReceive.Action.response1))
      await store.receive(CasePath(NonExhaustiveReceive.Action.response2))
    }

    #expect(
      issues == [
        RecordedIssue(
          message: "Expected to receive an action matching the predicate, but no effect is running "
            + "that could send one.",
          line: line)
      ])
  }
}
