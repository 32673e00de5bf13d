import Observation
import Synchronization

/// Runs a feature: holds its state, sends actions through its reducer, runs the effects, and lets
/// views observe the state field by field.
///
/// ```swift
/// let store = Store(initialState: Counter()) { CounterFeature() }
/// store.send(.increment)
/// store.count                      // 1 — a tracked read of one field
/// let token = store.observe { print(store.count) }
/// ```
///
/// - Sending is never recursive: an action sent while another is processed (by `.send`, an
///   observer or an effect) is queued and processed after it, in order.
/// - Observers are notified once per `send`, after the reducer and every action it sent
///   synchronously, and see the final state. An action an observer sends is a new round, after
///   which observers are notified again.
/// - Reads through the store (`store.count`, `store.withState { … }`) belong to the store: copies of
///   its state taken out and mutated never notify its observers.
/// - Effects are cancelled when the store and its child stores are released.
/// - A reducer works on the `state` it receives; reading the store from inside its own reducer is
///   a programming error and stops with a message.
/// - Reads inside Observation's `withObservationTracking` are tracked per field (the store is
///   `Observable`), so SwiftUI views re-render only for the fields they read.
@MainActor @dynamicMemberLookup
public final class Store<State, Action: Sendable>: Observable {
  @usableFromInline let core: any StoreCore<State, Action>
  /// A root store's state, read directly (see `StateBox`); nil for a scoped store.
  @usableFromInline let root: StateBox<State>?
  /// The root's state, read without touching the box (see `StateBox`).
  @usableFromInline let rootStorage: UnsafeMutablePointer<RootState<State>>?
  /// A root store's holder root (its location and probe), at hand. (A scoped store's reads go
  /// through its root's.)
  @usableFromInline let holderRoot: HolderRoot?
  /// Its probe, at hand: every untracked read asks it (one load and retain fewer than through the
  /// holder root).
  @usableFromInline let probe: TrackingProbe
  var children: [AnyHashable: AnyObject] = [:]

  init(core: any StoreCore<State, Action>, root: StateBox<State>? = nil) {
    self.core = core
    self.root = root
    rootStorage = root?.storage
    holderRoot = root?.root
    probe = root?.root.probe ?? TrackingProbe.unused
  }

  /// A store running `reducer` on `initialState`, with the dependencies in force here changed by
  /// `prepareDependencies`. The initial state is made with those dependencies (a `uuid()` in an
  /// initializer gets the store's generator), as in TCA.
  public convenience init<R: Reducer>(
    initialState: @autoclosure () -> State, reducer: R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) where R.State == State, R.Action == Action, State: ObservationIdentifiable {
    self.init(initialState: initialState, reducer: { reducer }, prepareDependencies: prepareDependencies)
  }

  /// The initial state and the reducer (its `@Dependency` properties) are made with the store's
  /// dependencies.
  private convenience init<R: Reducer>(
    initialState: () -> State, reducer: () -> R, prepareDependencies: (inout DependencyValues) -> Void
  ) where R.State == State, R.Action == Action, State: ObservationIdentifiable {
    var dependencies = DependencyValues.current
    dependencies.override(prepareDependencies)
    let (state, reducer) =
      dependencies.isDefault
      ? (initialState(), reducer()) : DependencyValues.withCurrent(dependencies) { (initialState(), reducer()) }
    let core = RootCore(state: state, reducer: reducer, dependencies: dependencies)
    self.init(core: core, root: core.box)
  }

  /// A store running the reducers listed in `reducer` on `initialState`.
  ///
  /// ```swift
  /// let store = Store(initialState: Counter()) { CounterFeature() }
  /// let preview = Store(initialState: Todos.State()) { Todos() } withDependencies: {
  ///   $0.uuid = .incrementing
  /// }
  /// ```
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) where State: ObservationIdentifiable {
    self.init(initialState: initialState, reducer: reducer, prepareDependencies: prepareDependencies)
  }

  /// The dependencies the store's reducer runs with (a root store's; a scoped store's root's).
  /// Changing them affects the actions sent afterwards; running effects keep theirs.
  @_spi(Testing) public var dependencies: DependencyValues {
    get { core.dependencies }
    set { core.dependencies = newValue }
  }

  /// A copy of the current state. Reading further from the copy is tracked like any bare value;
  /// prefer `store.field` or ``withState(_:)`` in views.
  ///
  /// The store's own properties have names no field is likely to have (`currentState`, not
  /// `state`; `hasState`, not `isPresent`): a member of the store shadows the state's field of the
  /// same name, so `store.currentState` must be a field named `state`. A field that does collide is read
  /// with `store.withState { $0.currentState }`.
  public var currentState: State { withState { $0 } }

  /// Reads the state through the store; tracked reads belong to the store.
  @inlinable
  public func withState<T>(_ body: (State) -> T) -> T {
    if let root { return root.read(body) }
    return scopedRead(body)
  }

  /// A scoped store's read, through its parents.
  @inlinable
  func scopedRead<T>(_ body: (State) -> T) -> T {
    // Not `core.read`: on the opened existential, that generic would run unspecialized.
    var result: T?
    core.withState { result = body($0) }
    return result!
  }

  /// A computed property of the state, tracked through the fields it reads.
  public subscript<T>(dynamicMember keyPath: KeyPath<State, T>) -> T {
    withState { $0[keyPath: keyPath] }
  }

  /// Sends `action` through the reducer and returns a handle on the effects it started.
  ///
  /// Sending to a child store whose state is gone (a removed element) does nothing and reports a
  /// ``RuntimeWarning``.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    core.send(action) ?? StoreTask(group: nil)
  }

  /// Sends `value` in the case `casePath` embeds it in, which may be nested.
  ///
  /// ```swift
  /// let row3 = CasePath(AppAction.rows)[id: 3]
  /// store.send(row3, .increment)   // store.send(.rows(.element(id: 3, action: .increment)))
  /// ```
  @discardableResult
  public func send<Value>(_ casePath: CasePath<Action, Value>, _ value: Value) -> StoreTask {
    send(casePath.embed(value))
  }

  /// Where errors thrown by this store's effects (without a `catch:`) go; by default a
  /// ``RuntimeWarning``. `TestStore` turns them into test failures.
  @_spi(Testing) public var effectErrorHandler: @Sendable (any Error) -> Void {
    get { core.effectErrorHandler }
    set { core.effectErrorHandler = newValue }
  }

  /// Where this store's effects run; nil (the default) for the global concurrent executor.
  /// `TestStore` runs them one job at a time on the main queue, interleaved with the main actor's
  /// jobs, so that yielding lets every effect that can make progress do so.
  @_spi(Testing) public var effectExecutor: (any TaskExecutor)? {
    get { core.effectExecutor }
    set { core.effectExecutor = newValue }
  }

  /// What the root feature dismissing itself does (`.dismiss`, `send.dismiss()`), after its
  /// effects are cancelled; nil, the default, reports it (the feature is not presented).
  /// `TestStore` records it (`isDismissed`).
  @_spi(Testing) public var rootDismissal: (@MainActor @Sendable () -> Void)? {
    get { core.dismissal }
    set { core.dismissal = newValue }
  }

  /// Whether the state this store shows still exists (false once a scoped-to element is removed).
  public var hasState: Bool { core.isPresent }

  /// Runs `apply` now and after every change of what it reads, until the token is cancelled or
  /// released. See ``observe(_:)``.
  ///
  /// `apply` always runs on the main actor: a change made on another thread to something else it
  /// reads (an ``ObservedRoot`` mutated in the background) re-runs it there, asynchronously. It may
  /// send: it runs again only if the send changed something it had read, once it has returned.
  public func observe(_ apply: @escaping @MainActor () -> Void) -> ObservationToken {
    let loop = ObservationLoop({ MainActor.assumeIsolated(apply) }, hop: { round in onMainActor(round) })
    loop.run()
    return ObservationToken(loop)
  }
}

extension Store where State: ObservableState {
  /// A field of the state, tracked per field. Reads made on a returned value holding observable
  /// state (a child, a collection) belong to the store too.
  ///
  /// A root store's read is inlined at the call site, where the key path is a literal and its
  /// projection folds to a field load; recording a tracked read is a call. (Applied at run time,
  /// the key path alone costs more than the whole untracked read.) Untracked, Apple's Observation
  /// is asked through the holder's probe (AppleObservation/).
  @inlinable
  public subscript<T>(dynamicMember keyPath: KeyPath<State.Fields, T>) -> T {
    @inline(__always) get {
      guard let rootStorage else { return scopedField(keyPath) }
      if _slowPath(rootStorage.pointee.isReducing) { RootState<State>.readInsideReducer() }
      if _slowPath(probe.check()) { return trackedField(keyPath) }
      return rootStorage.pointee.state._$fields._value[keyPath: keyPath]
    }
  }

  /// A tracked read of a root store's field: a stored field is loaded here and recorded by a call;
  /// a computed property of `Fields` (key `.any`), which reads other values, runs on the state
  /// read through the root.
  @inlinable @inline(__always)
  func trackedField<T>(_ keyPath: KeyPath<State.Fields, T>) -> T {
    let key = FieldKey.field(keyPath)
    if key == .any { return trackedComputedField(keyPath) }
    let value = rootStorage!.pointee.state._$fields._value[keyPath: keyPath]
    recordRead(keyPath, key, value)
    return value
  }

  @inlinable @inline(never)
  func trackedComputedField<T>(_ keyPath: KeyPath<State.Fields, T>) -> T {
    let root = root!
    return holderRead(root.state, root.root) { $0._$fields.read(keyPath) }
  }

  /// A scoped store's read: the state is fetched through the parents (a call) and the field
  /// projected here, where the key path folds (applied through the parents, at run time, it cost
  /// several times the rest). A tracked computed property of `Fields` runs inside the read, where
  /// the holder anchors what it reads.
  @inlinable @inline(__always)
  func scopedField<T>(_ keyPath: KeyPath<State.Fields, T>) -> T {
    var computed: T?
    let state = scopedRead { state in
      // Read through the parents: the state is handed out where it is, so reads on it are there.
      if openTrackingScopes.load(ordering: .relaxed) != 0, FieldKey.field(keyPath) == .any {
        computed = state._$fields.read(keyPath)
      }
      return state
    }
    if let computed { return computed }
    return state._$fields.read(keyPath)
  }

  /// Records a tracked read of a root store's field. Inlinable, so that it is specialized where
  /// it is called; never inlined, so that the read stays small.
  @inlinable @inline(never)
  func recordRead<T>(_ keyPath: KeyPath<State.Fields, T>, _ key: FieldKey, _ value: T) {
    guard let rootStorage, let holderRoot else { return }
    holderRoot.recordFieldRead(rootStorage.pointee.state._$fields._extent, keyPath, key, value)
  }
}
