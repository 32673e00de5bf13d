/// A feature's logic: how an action changes the state, and which effects it starts.
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
/// ```
///
/// Compose reducers with ``CombineReducers``, ``Scope``, ``Reducer/ifLet(_:action:then:)`` and
/// ``Reducer/forEach(_:action:element:)``.
public protocol Reducer<State, Action> {
  /// The state the reducer runs on.
  associatedtype State
  /// The actions it handles.
  associatedtype Action

  /// Applies `action` to `state` and returns the effect to run next.
  func reduce(into state: inout State, action: Action) -> Effect<Action>
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
  @usableFromInline let body: (inout State, Action) -> Effect<Action>

  /// A reducer running `body`.
  @inlinable
  public init(_ body: @escaping (inout State, Action) -> Effect<Action>) { self.body = body }

  /// Wraps any reducer (type erasure).
  @inlinable
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.body = reducer.reduce(into:action:)
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { body(&state, action) }
}

/// Runs several reducers in order on the same state and action, merging their effects.
///
/// ```swift
/// CombineReducers {
///   Scope(state: \.counter, action: AppAction.counter) { CounterFeature() }
///   Reduce { state, action in … }
/// }
/// ```
public struct CombineReducers<State, Action>: Reducer {
  @usableFromInline let reducers: [Reduce<State, Action>]

  /// Combines the reducers listed in `build`.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> [Reduce<State, Action>]) {
    reducers = build()
  }

  @inlinable
  init(reducers: [Reduce<State, Action>]) { self.reducers = reducers }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    var effects: [Effect<Action>] = []
    for reducer in reducers {
      let effect = reducer.reduce(into: &state, action: action)
      if !effect.isNone { effects.append(effect) }
    }
    return effects.count == 1 ? effects[0] : .merge(effects)
  }
}

/// Lists reducers for ``CombineReducers``.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  public static func buildExpression<R: Reducer>(_ reducer: R) -> [Reduce<State, Action>]
  where R.State == State, R.Action == Action {
    [Reduce(reducer)]
  }
  public static func buildBlock(_ parts: [Reduce<State, Action>]...) -> [Reduce<State, Action>] {
    parts.flatMap { $0 }
  }
  public static func buildOptional(_ part: [Reduce<State, Action>]?) -> [Reduce<State, Action>] { part ?? [] }
  public static func buildEither(first: [Reduce<State, Action>]) -> [Reduce<State, Action>] { first }
  public static func buildEither(second: [Reduce<State, Action>]) -> [Reduce<State, Action>] { second }
}
