/// A feature's logic: how an action changes the state, and which effects it starts.
///
/// Implement either `reduce(into:action:)` or `body`, as in the Composable Architecture:
///
/// ```swift
/// struct CounterFeature: Reducer {
///   enum Action { case increment, decrement }
///   func reduce(into state: inout Counter, action: Action) -> Effect<Action> {
///     switch action {
///     case .increment: state.count += 1
///     case .decrement: state.count -= 1
///     }
///     return .none
///   }
/// }
///
/// struct AppFeature: Reducer {
///   typealias State = AppState
///   enum Action { case counter(CounterFeature.Action), reset }
///   var body: some Reducer<AppState, Action> {
///     Scope(state: \.counter, action: Action.counter) { CounterFeature() }
///     Reduce { state, action in
///       if case .reset = action { state.counter = Counter() }
///       return .none
///     }
///   }
/// }
/// ```
///
/// `body` is built by ``ReducerBuilder`` into concrete generic types (no array, no closure per
/// child): building it costs a few struct copies, so it is built anew for each action, as in TCA.
/// Compose with ``Scope``, ``CombineReducers``,
/// ``Reducer/ifLet(_:action:then:)-(WritableKeyPath<State,ChildState?>,(ChildAction)->Action,_)``,
/// ``Reducer/forEach(_:action:element:)-(WritableKeyPath<State,IdentifiedArray<ID,ElementState>>,(IdentifiedAction<ID,ElementAction>)->Action,_)``
/// and ``EmptyReducer``.
public protocol Reducer<State, Action> {
  /// The state the reducer runs on.
  associatedtype State
  /// The actions it handles.
  associatedtype Action
  /// The reducer `body` builds; `Never` for a reducer that implements `reduce(into:action:)`.
  associatedtype Body = Never

  /// Applies `action` to `state` and returns the effect to run next.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this one is made of, run in order on each action.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

/// A reducer of `R`'s state and action: TCA's spelling of a body's type.
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case increment }
///   var body: some ReducerOf<Self> {   // some Reducer<State, Action>
///     Reduce { state, _ in
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

extension Reducer where Body == Never {
  /// A reducer that implements `reduce(into:action:)` has no body.
  public var body: Body {
    fatalError("'\(Self.self)' has no body: it implements reduce(into:action:).")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs `body`.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

/// A reducer made of a closure.
///
/// ```swift
/// let counter = Reduce<Counter, CounterAction> { state, action in
///   state.count += 1
///   return .none
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
  @usableFromInline let run: (inout State, Action) -> Effect<Action>

  /// A reducer running `reduce`.
  @inlinable
  public init(_ reduce: @escaping (inout State, Action) -> Effect<Action>) { self.run = reduce }

  /// Wraps any reducer (type erasure).
  @inlinable
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.run = reducer.reduce(into:action:)
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { run(&state, action) }
}

/// A reducer that does nothing: an empty `body`, or a placeholder.
///
/// ```swift
/// var body: some Reducer<AppState, AppAction> { EmptyReducer() }
/// ```
public struct EmptyReducer<State, Action>: Reducer, Sendable {
  /// The reducer that does nothing.
  @inlinable
  public init() {}

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

/// Runs several reducers in order on the same state and action, merging their effects.
///
/// ```swift
/// CombineReducers {
///   Scope(state: \.counter, action: AppAction.counter) { CounterFeature() }
///   Reduce { state, action in … }
/// }
/// .ifLet(\.detail, action: AppAction.detail) { DetailFeature() }
/// ```
public struct CombineReducers<State, Action, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  @usableFromInline let reducers: Reducers

  /// Combines the reducers listed in `build`.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) { reducers = build() }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}

extension CombineReducers: Sendable where Reducers: Sendable {}
