@_spi(Testing) import ValueStore

/// What the test store's inner store did: the state after the last sent action, and the actions
/// received from effects that the test has not asserted yet.
@MainActor
final class ActionLog<State: Sendable, Action: Sendable> {
  /// An action received from an effect, and the state right after it.
  struct Received {
    let action: Action
    let state: State
    /// The shared values the feature changed, right after it.
    let shared: SharedSnapshot
  }

  /// The store running the test reducer; weak, as the store owns the reducer, which owns the log.
  weak var store: Store<State, TestAction<Action>>?
  let effects: EffectTracker
  /// The state right after the last action the test sent, before the actions it sent back.
  var stateAfterSend: State
  /// The shared values the feature changed, right after the last action the test sent.
  var sharedAfterSend = SharedSnapshot()
  /// Where the feature reports its changes of shared values.
  let sharedChanges: SharedChangeTracker
  /// Received actions, oldest first, that the test has not asserted or skipped.
  var received: [Received] = []

  init(initialState: State, effects: EffectTracker, sharedChanges: SharedChangeTracker) {
    self.stateAfterSend = initialState
    self.effects = effects
    self.sharedChanges = sharedChanges
  }

  /// Sends an action that an effect sent back once more, as a received action.
  ///
  /// Sending while the store processes an action queues the new action behind those already
  /// queued, so the order of actions doesn't change; and the task the send returns covers the
  /// effects of that one action, so each running effect can be traced to the action that
  /// started it.
  func sendAgain(_ action: Action, from origin: SendOrigin) {
    guard let store else { return }
    let task = store.send(.received(action, origin))
    effects.track(task, received: action, from: origin)
  }

  /// The received actions, dumped for a failure message.
  var receivedActionsDump: String {
    String(customDumping: received.map(\.action))
  }

  func receive(_ action: Action, state: State) {
    received.append(Received(action: action, state: state, shared: sharedChanges.snapshot()))
    effects.signal()
  }
}
