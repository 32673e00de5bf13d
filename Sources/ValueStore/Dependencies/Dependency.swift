/// Reads a dependency where it is used: in a reducer, in the effects it returns, in a model.
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
/// It keeps the dependencies in force where its owner was made: read later, anywhere, it has the
/// values overridden then, with the values in force at the read on top. So a model made inside
/// `withDependencies { $0.uuid = .incrementing } operation: { Model() }` keeps that generator
/// after the block, and a reducer run by a store reads the store's values (and a child's
/// `.dependency(…)` ones).
@propertyWrapper
public struct Dependency<Value>: Sendable, HasInitialDependencies {
  /// The values in force where the owner was made.
  let initialValues = DependencyValues.current
  private let keyPath: KeyPath<DependencyValues, Value> & Sendable
  /// Where it is declared: where an unimplemented use of it points.
  private let site: SourceSite

  /// The dependency at `keyPath` of ``DependencyValues``.
  public init(
    _ keyPath: KeyPath<DependencyValues, Value> & Sendable,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    self.keyPath = keyPath
    site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The dependency whose key is `key`, a type that is its own key (`@Dependency(Client.self)`).
  ///
  /// ```swift
  /// struct Speech: TestDependencyKey { … static let testValue = Speech() }
  /// @Dependency(Speech.self) var speech
  /// ```
  public init<Key: TestDependencyKey>(
    _ key: Key.Type,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) where Key.Value == Value {
    self.init(
      \DependencyValues.[keyOfType: DependencyKeyType<Key>()], fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// The dependency, read from the values its owner was made with and, on top, those in force.
  public var wrappedValue: Value {
    var values = initialValues.merging(DependencyValues.current)
    values.useSite = site
    return values[keyPath: keyPath]
  }
}

/// What `withDependencies(from:)` finds in a model: the values in force where it was made.
protocol HasInitialDependencies {
  var initialValues: DependencyValues { get }
}

/// A key type as a key-path subscript argument (which must be `Hashable`).
struct DependencyKeyType<Key: TestDependencyKey>: Hashable, Sendable {}

extension DependencyValues {
  subscript<Key: TestDependencyKey>(keyOfType _: DependencyKeyType<Key>) -> Key.Value {
    self[Key.self]
  }
}
