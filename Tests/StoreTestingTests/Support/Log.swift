import ValueStore

/// A thread-safe, append-only record of what concurrent tasks observed.
final class Log<Value: Sendable>: Sendable {
  private let storage = LockIsolated<[Value]>([])

  var values: [Value] {
    storage.withValue { $0 }
  }

  func append(_ value: Value) {
    storage.withValue { $0.append(value) }
  }
}
