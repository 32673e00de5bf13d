import Synchronization

/// Where a store's state lives and where its actions go: the root core, or a scope of it.
@MainActor @usableFromInline
protocol StoreCore<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action

  /// Runs `body` on the state, read through the root (reads are the root's). Once a
  /// scoped-to value is gone (an element removed, an optional set to nil) it reads the last state
  /// seen. Not generic over a result: cores run unspecialized, where each generic result type
  /// costs a metadata lookup per read (see `read(_:)` below).
  func withState(_ body: (State) -> Void)
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
  /// The root's dependencies.
  var dependencies: DependencyValues { get set }
  /// What dismissing the root feature does: nil, it is not presented (a `TestStore` records it).
  var dismissal: (@MainActor @Sendable () -> Void)? { get set }
}

extension StoreCore {
  /// `body`'s result on the state (see ``withState(_:)``), specialized where it is inlined.
  @inlinable
  func read<T>(_ body: (State) -> T) -> T {
    var result: T?
    withState { result = body($0) }
    return result!
  }
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

  let box: StateBox<State>
  var state: State {
    get { box.state }
    _modify { yield &box.state }
  }
  var root: HolderRoot { box.root }
  let reducer: R
  let effects: EffectRunner<Action>
  /// The dependencies each action's reducer runs with, and its effects keep.
  @exclusivity(unchecked) var dependencies: DependencyValues {
    didSet { dependenciesAreDefault = dependencies.isDefault }
  }
  /// `dependencies.isDefault`, kept: a send asks, and reading the values copies them.
  @exclusivity(unchecked) private var dependenciesAreDefault: Bool
  var dismissal: (@MainActor @Sendable () -> Void)?
  /// Actions sent while one is processed, each as the call that processes it. Closures, not
  /// `(Action, EffectGroup?)` pairs: `send` runs unspecialized (the store calls it through an
  /// existential), where every use of a tuple of a generic type asks the runtime for its metadata.
  // Unchecked exclusivity: the main actor serialises every access, none is held across a call,
  // and the dynamic checks were a sixth of a send.
  @exclusivity(unchecked) private var queue: [() -> Void] = []
  @exclusivity(unchecked) private var isSending = false

  init(state: State, reducer: R, dependencies: DependencyValues) {
    box = StateBox(state)
    self.reducer = reducer
    self.effects = EffectRunner()
    self.dependencies = dependencies
    dependenciesAreDefault = dependencies.isDefault
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

  func withState(_ body: (State) -> Void) {
    if box.isReducing { RootState<State>.readInsideReducer() }
    holderRead(state, root, body)
  }

  func send(_ action: Action) -> StoreTask? {
    if isSending {
      let group = EffectGroup.started()
      queue.append { [self] in reduce(action, in: group, ThreadContext.current) }
      return StoreTask(group: group)
    }
    isSending = true
    defer { isSending = false }
    var direct: EffectGroup?
    let context = ThreadContext.current
    withTransaction(context) {
      reduce(action, context) {
        if direct == nil { direct = EffectGroup.started() }
        return direct!
      }
      processQueue()
    }  // observers run here; what they send is queued and processed by the next round
    while !queue.isEmpty {
      withTransaction(context) { processQueue() }
    }
    return StoreTask(group: direct)
  }

  /// Processes the queued actions, and those they queue, in order.
  private func processQueue() {
    var index = 0
    while index < queue.count {
      let next = queue[index]
      index += 1
      next()
    }
    queue.removeAll(keepingCapacity: true)
  }

  /// Runs the reducer on `action` and starts its effects in `group`.
  private func reduce(_ action: Action, in group: EffectGroup, _ context: ThreadContext) {
    reduce(action, context) { group }
  }

  /// Runs the reducer on `action`, then starts its effects in the group `group` gives (made only
  /// when there are effects).
  private func reduce(_ action: Action, _ context: ThreadContext, in group: () -> EffectGroup) {
    // Effects start inside too: their tasks inherit the values in force for this action.
    withDependencies {
      box.isReducing = true
      // Assigned inside, not returned: unspecialized, `Effect<Action>` as `mutateHeld`'s generic
      // result costs a metadata lookup per send.
      var effect = Effect<Action>.none
      mutateHeld(&state, root, context) { effect = reducer.reduce(into: &$0, action: action) }
      box.isReducing = false
      if effect.isNone { return }
      let group = group()
      effects.start(effect, in: group, send: self.sender) { follow in
        queue.append { [self] in reduce(follow, in: group, context) }
      }
    }
  }

  /// Runs `body` with the store's dependencies in force, unless they change nothing (a plain store
  /// pays nothing for dependencies) — also when sent to from code running with other values (an
  /// effect's).
  private func withDependencies(_ body: () -> Void) {
    if dependenciesAreDefault && DependencyValues.currentIsDefault {
      body()
    } else {
      DependencyValues.withCurrent(dependencies, operation: body)
    }
  }

  /// How effects send back: weakly, so running effects never keep the store alive.
  var sender: Send<Action> {
    let send: @MainActor @Sendable (Action) -> Void = { [weak self] action in
      guard let self else {
        return RuntimeWarning.report("An effect sent \(action) to a store that no longer exists; ignored.")
      }
      _ = self.send(action)
    }
    guard let dismiss = dismissal else { return Send(send, dismissal: nil) }
    // Dismissed, the root's effects are cancelled, as a presentation cancels its child's.
    // Weakly: effect tasks hold their `Send`, and the runner holds its tasks.
    return Send(send, dismissal: { @MainActor @Sendable [weak effects] in
      effects?.cancelAll()
      dismiss()
    })
  }
}

/// The root store's state: a class of its own, generic over the state alone, so that a root
/// store's reads are specialized and inlined at the call site (`store.count` costs about what
/// Observation's own read does), while the core stays generic over its reducer.
///
/// The state lives behind a pointer the store keeps too (``Store/rootStorage``): an untracked read
/// loads the field through it and touches no object, and so pays no retain.
@MainActor @usableFromInline
final class StateBox<State> {
  /// Where the state lives, for as long as the box does. Accessed without dynamic exclusivity
  /// checks: the main actor serialises every access, and a check on each read costs more than
  /// the read. (`nonisolated(unsafe)` for `deinit` alone, which runs when nothing else has it.)
  @usableFromInline nonisolated(unsafe) let storage: UnsafeMutablePointer<RootState<State>>
  /// The state within `storage`, found once: `\.state` of a generic type is a key path made at
  /// run time, which cost a metadata lookup on every access.
  nonisolated(unsafe) let statePointer: UnsafeMutablePointer<State>
  @usableFromInline let root: HolderRoot
  /// `State` is observable (a store's `State` type itself is not constrained).
  private let trackedRead: (StateBox<State>, (State) -> Void) -> Void

  init(_ state: State) where State: ObservationIdentifiable {
    storage = .allocate(capacity: 1)
    storage.initialize(to: RootState(state: state))
    statePointer = storage.pointer(to: \.state)!
    storage.pointee.state._detach()  // shares no observers with where it came from
    root = HolderRoot(for: State.self)
    trackedRead = { box, body in holderRead(box.state, box.root, body) }
  }

  deinit {
    storage.deinitialize(count: 1)
    storage.deallocate()
  }

  @usableFromInline var state: State {
    unsafeAddress { UnsafePointer(statePointer) }
    unsafeMutableAddress { statePointer }
  }

  var isReducing: Bool {
    get { storage.pointee.isReducing }
    set { storage.pointee.isReducing = newValue }
  }

  /// Reads through the root: at its location, and seen by Apple's Observation when it tracks.
  @inlinable
  func read<T>(_ body: (State) -> T) -> T {
    storage.pointee.isTracked(root.probe) ? readTracked(body) : body(state)
  }

  @usableFromInline
  func readTracked<T>(_ body: (State) -> T) -> T {
    var result: T?
    trackedRead(self) { result = body($0) }
    return result!
  }
}

/// What a root store's reads need: the state, and whether a reducer is changing it.
@usableFromInline
struct RootState<State> {
  /// True while a reducer runs on `state` in place: a read through the store then would see it
  /// half-changed (a reducer has its `state`; reading the store from it is a programming error).
  @usableFromInline var isReducing = false
  @usableFromInline var state: State

  @usableFromInline init(state: State) { self.state = state }

  /// Whether a read must be recorded (after letting Apple's Observation say it tracks). When it
  /// need not, callers read the field straight from `state`, without copying the state.
  @inlinable
  func isTracked(_ probe: TrackingProbe) -> Bool {
    if _slowPath(isReducing) { Self.readInsideReducer() }
    return probe.check()
  }

  @usableFromInline
  static func readInsideReducer() -> Never {
    fatalError("Store: the state was read through the store from inside its own reducer; use the `state` the reducer receives")
  }
}
