@_spi(Testing) import ValueStore

/// Tests a feature exhaustively: every state change, every action its effects send back, and the
/// end of every effect.
///
/// A test store runs the feature's reducer in a real `Store`.
/// ``send(_:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_)`` sends an action and takes a closure that turns
/// the state before the action into the state the test expects after it; the actions effects send
/// back must be asserted, in order, with `receive`:
///
/// ```swift
/// @MainActor @Test func fetchesAFact() async {
///   let store = TestStore(initialState: Counter()) {
///     CounterFeature(fact: { "\($0) is a good number." })
///   }
///   await store.send(.increment) { $0.count = 1 }
///   await store.send(.factButtonTapped)
///   await store.receive(.factResponse("1 is a good number.")) {
///     $0.fact = "1 is a good number."
///   }
/// }
/// ```
///
/// The test fails, at the line of the step, when:
///
/// - the closure's state is not the state after the action (the message shows the diff, expected
///   `−` against actual `+`), or the state changed and no closure was given;
/// - a closure is given but the action changed nothing;
/// - the test sends an action while received actions are still unasserted;
/// - an expected action doesn't come within ``timeout``, or a different one comes.
///
/// An error that an effect throws and doesn't handle fails the test at the line that created the
/// test store.
///
/// When the test store is released — at the end of the test — it also fails if received actions
/// were left unasserted (at the test's last step), or if effects are still running (where the
/// test sent the action that started them). Stop long-running effects in the feature (a
/// cancellation action), cancel them with the ``TestStoreTask`` that `send` returns, wait for them
/// with ``finish(timeout:fileID:filePath:line:column:)``, or skip them with
/// ``skipInFlightEffects(strict:fileID:filePath:line:column:)``. Use the test store from a `@MainActor` test: the checks at the end
/// need the main actor.
///
/// ## Dependencies
///
/// A reducer gets what it depends on — a clock, an API client — through its initializer. The app
/// passes the real ones, a test passes ones it controls. A timer waits on an `any Clock<Duration>`:
///
/// ```swift
/// struct TimerState: ObservableState, Equatable {
///   struct Fields: Equatable { var count = 0; var isRunning = false }
///   var _$fields = Observed(Fields())
/// }
///
/// struct TimerFeature: Reducer {
///   enum Action: Equatable, Sendable { case toggleTimer, tick }
///   enum CancelID { case timer }
///   let clock: any Clock<Duration>
///
///   func reduce(into state: inout TimerState, action: Action) -> Effect<Action> {
///     switch action {
///     case .toggleTimer:
///       state.isRunning.toggle()
///       guard state.isRunning else { return .cancel(id: CancelID.timer) }
///       return .run { [clock] send in
///         while true {
///           try await clock.sleep(for: .seconds(1))
///           await send(.tick)
///         }
///       }
///       .cancellable(id: CancelID.timer)
///     case .tick:
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
///
/// The app runs it on a real clock, `Store(initialState: TimerState()) { TimerFeature(clock:
/// ContinuousClock()) }`; a test runs it on a ``TestClock`` and moves time itself, so the test
/// takes no wall-clock time. Advance one tick at a time and receive each tick before advancing
/// again: after a tick the timer goes back to sleep on another thread, and an advance that
/// overtook it would move time past a deadline the timer hasn't set yet.
///
/// ```swift
/// @MainActor @Test func ticksEverySecondUntilStopped() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: TimerState()) { TimerFeature(clock: clock) }
///
///   await store.send(.toggleTimer) { $0.isRunning = true }
///   await clock.advance(by: .seconds(1))
///   await store.receive(.tick) { $0.count = 1 }
///   await clock.advance(by: .seconds(1))
///   await store.receive(.tick) { $0.count = 2 }
///   await store.send(.toggleTimer) { $0.isRunning = false }  // cancels the timer
/// }
/// ```
///
/// ## Non-exhaustive tests
///
/// Set ``exhaustivity`` to ``Exhaustivity/off`` to check only what the test states; see
/// ``Exhaustivity``.
@MainActor
public final class TestStore<State: Equatable & ObservationIdentifiable & Sendable, Action: Sendable> {
  /// How much of the feature's behaviour the test must assert; ``Exhaustivity/on`` by default.
  public var exhaustivity: Exhaustivity = .on

  /// How long `receive` waits for an action, and `finish` for effects, when not told otherwise;
  /// one second by default.
  public var timeout: Duration = .seconds(1)

  /// The state after the last action the test asserted or skipped: what the next assertion starts
  /// from. Actions received but not asserted yet have not changed it; inside the closure of `send`
  /// or `receive`, it is the state before the action.
  ///
  /// ```swift
  /// await store.send(.onAppear) { $0.isLoading = true }  // sends back `.loaded`
  /// #expect(store.state.isLoading)
  /// await store.receive(.loaded) { $0.isLoading = false }
  /// #expect(!store.state.isLoading)
  /// ```
  public internal(set) var state: State

  /// Whether the feature dismissed itself (`.dismiss`, `send.dismiss()`), as it would dismiss the
  /// presentation showing it. A test store shows no presentation; sending afterwards fails.
  ///
  /// ```swift
  /// await store.send(.saveTapped)
  /// #expect(store.isDismissed)
  /// ```
  public internal(set) var isDismissed = false

  let store: Store<State, TestAction<Action>>
  let log: ActionLog<State, Action>
  /// The shared values the feature changed since the last step, asserted with the state.
  let sharedChanges = SharedChangeTracker()
  /// The test's last `send` or `receive` (at first, where the test store was created): failures
  /// found at the end of the test are about what happened after it.
  var lastStepSite: CallSite

  var effects: EffectTracker { log.effects }

  /// A test store running `reducer` on `initialState`.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Counter(), reducer: CounterFeature())
  /// ```
  public convenience init<R: Reducer>(
    initialState: @autoclosure () -> State,
    reducer: R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action {
    self.init(
      initialState: initialState, reducer: { Reduce(reducer) }, prepareDependencies: prepareDependencies,
      site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// A test store running the reducers listed in `reducer` on `initialState`.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Counter()) {
  ///   CounterFeature(fact: { "\($0) is a good number." })
  /// }
  /// let todos = TestStore(initialState: Todos.State()) { Todos() } withDependencies: {
  ///   $0.uuid = .incrementing
  /// }
  /// ```
  ///
  /// Dependencies are in the test context: a dependency the test does not override has its key's
  /// `testValue`, and one whose key has none fails the test, naming it.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      initialState: initialState, reducer: { Reduce(reducer()) }, prepareDependencies: prepareDependencies,
      site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// The dependencies the feature runs with; changing them affects the actions sent afterwards.
  ///
  /// ```swift
  /// store.dependencies.date = .constant(Date(timeIntervalSince1970: 60))
  /// ```
  public var dependencies: DependencyValues {
    get { store.dependencies }
    set { store.dependencies = newValue }
    _modify {
      // `store.dependencies.client.fetch = { … }` overrides part of the client: not a use of it.
      var values = store.dependencies
      defer { store.dependencies = values }
      values.isSetting = true
      defer { values.isSetting = false }
      yield &values
    }
  }

  private init(
    initialState: () -> State, reducer: () -> Reduce<State, Action>,
    prepareDependencies: (inout DependencyValues) -> Void, site: CallSite
  ) {
    var values = DependencyValues.current
    values.context = .test
    values.onUnimplemented = { message in site.reportFailure(message) }
    values.onRuntimeWarning = { message in site.reportFailure(message) }
    values.sharedChangeTracker = sharedChanges
    values.override(prepareDependencies)
    // Made with the test's dependencies, as TCA's are: a `uuid()` in an initializer gets the
    // generator the feature gets, and the reducer's `@Dependency` properties keep them.
    let (initialState, reducer) = DependencyValues.withCurrent(values) { (initialState(), reducer()) }
    let log = ActionLog<State, Action>(initialState: initialState, effects: EffectTracker(), sharedChanges: sharedChanges)
    store = Store(initialState: initialState, reducer: TestReducer(base: reducer, log: log)) { [values] in $0 = values }
    store.effectExecutor = MainQueueExecutor.shared
    store.effectErrorHandler = { error in
      site.reportFailure(
        "An effect threw an error it did not handle: …\n\n\(indented(String(customDumping: error)))"
          + "\n\nHandle it with the `catch:` handler of `.run`."
      )
    }
    log.store = store
    self.log = log
    state = initialState
    lastStepSite = site
    store.rootDismissal = { [weak self] in self?.isDismissed = true }
  }

  // A plain `deinit`, not an `isolated deinit`: Swift clears task-local values in isolated
  // deinitializers, even when they run at once, and `Test.current` — how failures reach the
  // running Swift Testing test — is a task-local value. A plain deinitializer runs where the last
  // reference goes away: for a test store, in the test's own task, when the test ends.
  deinit {
    if isRunningOnMainActor() {
      MainActor.assumeIsolated { checkEndOfTest() }
    } else {
      lastStepSite.reportFailure(
        "The test store was released off the main actor, so it could not check for unasserted "
          + "received actions and running effects. Use it from a @MainActor test."
      )
    }
  }
}
