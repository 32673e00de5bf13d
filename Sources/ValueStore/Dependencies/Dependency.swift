/// Reads a dependency where it is used: in a reducer, in the effects it returns.
///
/// ```swift
/// struct TodosFeature: Reducer {
///   @Dependency(\.uuid) var uuid
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     state.todos.append(Todo(.init(id: uuid())))
///     return .none
///   }
/// }
/// ```
///
/// The value is read at each access from the dependencies in force (``DependencyValues/current``),
/// so a reducer value can be made anywhere and run by any store.
@propertyWrapper
public struct Dependency<Value>: Sendable {
  private let keyPath: KeyPath<DependencyValues, Value> & Sendable

  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) { self.keyPath = keyPath }

  public var wrappedValue: Value { DependencyValues.current[keyPath: keyPath] }
}
