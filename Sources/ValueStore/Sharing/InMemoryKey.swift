/// A shared value kept in memory, by name, for the dependency context's lifetime (the app's run, or
/// one test: each test starts without it).
///
/// ```swift
/// @Shared(.inMemory("isLoggedIn")) var isLoggedIn = false
/// ```
public struct InMemoryKey<Value: Sendable>: SharedKey {
  /// The name: `Shared`s of one name (and value type) share a value.
  public let id: String
  /// The key of the value named `name`: `InMemoryKey<Bool>("isLoggedIn")`, or `.inMemory(name)`.
  public init(_ name: String) { id = name }
  /// Nothing is kept anywhere but in the value itself: the declaration's default starts it.
  public func load() -> Value? { nil }
  /// Nothing to keep: the value lives as long as its dependency context.
  public func save(_ value: Value) {}
}

extension SharedKey {
  /// A shared value kept in memory under `name` (see ``InMemoryKey``).
  public static func inMemory<Value>(_ name: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(name)
  }
}
