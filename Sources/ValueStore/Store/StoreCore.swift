/// Where a store's state lives and where its actions go: the root core, or a scope of it.
@MainActor
protocol StoreCore<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action

  /// Reads the state through the root (reads are anchored to it). Once a scoped-to value is gone
  /// (an element removed, an optional set to nil) it reads the last state seen.
  func read<T>(_ body: (State) -> T) -> T
  /// Sends an action; nil when the scoped-to value is gone (the action is dropped and reported).
  func send(_ action: Action) -> StoreTask?
  /// What the scope shows, for messages.
  var path: String { get }
  /// False once the scoped-to value is gone.
  var isPresent: Bool { get }
  /// Where the root's unhandled effect errors go.
  var effectErrorHandler: @Sendable (any Error) -> Void { get set }
  /// Where the root's effects run.
  var effectExecutor: (any TaskExecutor)? { get set }
}

/// The root of a store tree: owns the state, runs reducers, starts and cancels effects.
///
/// Sending is a loop over a queue: an action sent while another is being processed (from a
/// reducer's `.send`, an observer, an effect) is appended and processed after it, in order — never
/// recursively. All actions processed by one loop form one transaction: each observer is notified
/// once, after the last of them, and sees the final state.
@MainActor
final class RootCore<R: Reducer>: StoreCore where R.State: ObservationIdentifiable, R.Action: Sendable {
  typealias State = R.State
  typealias Action = R.Action

  var state: State
  let slot = RootSlot(for: State.self)
  let reducer: R
  let effects: EffectRunner<Action>
  private var queue: [(action: Action, group: EffectGroup?)] = []
  private var isSending = false

  init(state: State, reducer: R) {
    self.state = state
    self.state._detach()  // shares no observers with where it came from
    self.reducer = reducer
    self.effects = EffectRunner()
  }

  var path: String { "\(State.self)" }
  var isPresent: Bool { true }

  var effectErrorHandler: @Sendable (any Error) -> Void {
    get { effects.onError }
    set { effects.onError = newValue }
  }

  var effectExecutor: (any TaskExecutor)? {
    get { effects.executor }
    set { effects.executor = newValue }
  }

  func read<T>(_ body: (State) -> T) -> T { anchored(state, slot, body) }

  func send(_ action: Action) -> StoreTask? {
    if isSending {
      let group = EffectGroup()
      queue.append((action, group))
      return StoreTask(group: group)
    }
    isSending = true
    defer { isSending = false }
    queue.append((action, nil))
    var direct: EffectGroup?
    let context = ThreadContext.current
    context.closeBridgeWindow()  // reducer reads are never bridged to Apple's Observation
    repeat {
      withTransaction(context) {
        var index = 0
        while index < queue.count {
          let (action, queued) = queue[index]
          index += 1
          let effect = mutateHeld(&state, slot, context) { reducer.reduce(into: &$0, action: action) }
          if effect.isNone { continue }
          let group = queued ?? { direct = direct ?? EffectGroup(); return direct! }()
          effects.start(effect, in: group, send: self.sender) { follow in queue.append((follow, group)) }
        }
        queue.removeAll(keepingCapacity: true)
      }  // observers run here; what they send is queued and processed by the next round
    } while !queue.isEmpty
    return StoreTask(group: direct)
  }

  /// How effects send back: weakly, so running effects never keep the store alive.
  var sender: Send<Action> {
    Send { [weak self] action in
      guard let self else {
        return RuntimeWarning.report("An effect sent \(action) to a store that no longer exists; ignored.")
      }
      _ = self.send(action)
    }
  }
}
