/// Builds a reducer from the reducers listed in a `body`, a ``CombineReducers``, a ``Scope``'s
/// child or a ``Store``'s initializer: they run in order, top to bottom, and their effects are
/// merged. `if`, `if let`, `switch` and `for` work as in any result builder.
///
/// The result is a tree of concrete generic types (`_Sequence<A, _Sequence<B, C>>`), built
/// without allocating and fully specialized where the reducers' types are known: building a body
/// for each action costs a few struct copies.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  @inlinable
  public static func buildExpression<R: Reducer<State, Action>>(_ reducer: R) -> R { reducer }

  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  @inlinable
  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R { first }

  @inlinable
  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> _Sequence<R0, R1> {
    _Sequence(first: accumulated, second: next)
  }

  @inlinable
  public static func buildOptional<R: Reducer<State, Action>>(_ wrapped: R?) -> _Optional<R> {
    _Optional(wrapped: wrapped)
  }

  @inlinable
  public static func buildEither<First: Reducer<State, Action>, Second: Reducer<State, Action>>(
    first: First
  ) -> _Conditional<First, Second> {
    .first(first)
  }

  @inlinable
  public static func buildEither<First: Reducer<State, Action>, Second: Reducer<State, Action>>(
    second: Second
  ) -> _Conditional<First, Second> {
    .second(second)
  }

  @inlinable
  public static func buildArray<R: Reducer<State, Action>>(_ reducers: [R]) -> _SequenceMany<R> {
    _SequenceMany(reducers: reducers)
  }

  @inlinable
  public static func buildLimitedAvailability<R: Reducer<State, Action>>(_ wrapped: R) -> Reduce<State, Action> {
    Reduce(wrapped)
  }

  /// Two reducers, one after the other.
  public struct _Sequence<R0: Reducer<State, Action>, R1: Reducer<State, Action>>: Reducer {
    @usableFromInline let first: R0
    @usableFromInline let second: R1

    @inlinable
    init(first: R0, second: R1) {
      self.first = first
      self.second = second
    }

    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      let effect = first.reduce(into: &state, action: action)
      return effect.merging(second.reduce(into: &state, action: action))
    }
  }

  /// A reducer that runs only if it was built (`if` without `else`).
  public struct _Optional<Wrapped: Reducer<State, Action>>: Reducer {
    @usableFromInline let wrapped: Wrapped?

    @inlinable
    init(wrapped: Wrapped?) { self.wrapped = wrapped }

    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      wrapped?.reduce(into: &state, action: action) ?? .none
    }
  }

  /// One of two reducers (`if`/`else`, `switch`).
  public enum _Conditional<First: Reducer<State, Action>, Second: Reducer<State, Action>>: Reducer {
    case first(First)
    case second(Second)

    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch self {
      case let .first(first): first.reduce(into: &state, action: action)
      case let .second(second): second.reduce(into: &state, action: action)
      }
    }
  }

  /// Reducers built by a `for` loop, in order.
  public struct _SequenceMany<Element: Reducer<State, Action>>: Reducer {
    @usableFromInline let reducers: [Element]

    @inlinable
    init(reducers: [Element]) { self.reducers = reducers }

    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      reducers.reduce(Effect.none) { $0.merging($1.reduce(into: &state, action: action)) }
    }
  }
}

extension ReducerBuilder._Sequence: Sendable where R0: Sendable, R1: Sendable {}
extension ReducerBuilder._Optional: Sendable where Wrapped: Sendable {}
extension ReducerBuilder._Conditional: Sendable where First: Sendable, Second: Sendable {}
extension ReducerBuilder._SequenceMany: Sendable where Element: Sendable {}
