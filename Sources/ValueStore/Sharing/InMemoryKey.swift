/// A shared value kept in memory, by name, for the dependency context's lifetime (the app's run, or
/// one test: each test starts without it).
///
/// ```swift
/// @Shared(.inMemory("isLoggedIn")) var isLoggedIn = false
/// ```
public struct InMemoryKey<Value: Sendable>: SharedKey {
  public let id: String
  public init(_ name: String) { id = name }
  public func load() -> Value? { nil }
  public func save(_ value: Value) {}
}

extension SharedKey {
  /// A shared value kept in memory under `name` (see ``InMemoryKey``).
  public static func inMemory<Value>(_ name: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(name)
  }
}
