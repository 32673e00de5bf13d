@_spi(Testing) import ValueStore

/// What a test store's inner store processes: each of the feature's actions, tagged with where it
/// came from.
enum TestAction<Action: Sendable>: Sendable {
  /// Sent by the test (`TestStore.send`).
  case sent(Action, SendOrigin)
  /// Sent back by an effect (a `.run` or a `.send`) and not processed yet: the log sends it again
  /// as ``received(_:_:)``, to learn which effects it starts.
  case sentBack(Action, SendOrigin)
  /// Sent back by an effect, processed now.
  case received(Action, SendOrigin)
}

/// The test's `send` that an action follows from: the action itself, or the send whose effects
/// (or whose received actions' effects) sent it back.
struct SendOrigin: Sendable {
  let action: any Sendable
  let site: CallSite

  /// `send(Feature.Action.start) at File.swift:42`.
  var description: String {
    "send(\(String(customDumping: action))) at \(site.description)"
  }
}

/// Runs the feature's reducer inside the test store and logs each action with the state after it.
///
/// Every effect is mapped to send its actions back as ``TestAction/sentBack(_:_:)``, so that an
/// action an effect sends is told apart from one the test sends. Isolated to the main actor, like
/// the store that runs it, so it can log without synchronization.
@MainActor
struct TestReducer<State: Sendable, Action: Sendable>: @MainActor Reducer {
  let base: Reduce<State, Action>
  let log: ActionLog<State, Action>

  func reduce(into state: inout State, action: TestAction<Action>) -> Effect<TestAction<Action>> {
    switch action {
    case let .sentBack(action, origin):
      log.sendAgain(action, from: origin)
      return .none
    case let .sent(action, origin):
      let effect = base.reduce(into: &state, action: action)
      log.stateAfterSend = state
      log.sharedAfterSend = log.sharedChanges.snapshot()
      return effect.map { .sentBack($0, origin) }
    case let .received(action, origin):
      let effect = base.reduce(into: &state, action: action)
      log.receive(action, state: state)
      return effect.map { .sentBack($0, origin) }
    }
  }
}
