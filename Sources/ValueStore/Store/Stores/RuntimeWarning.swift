import Foundation

/// Reports misuse that must not crash an app but must not pass silently either: an action sent to
/// a store whose state is gone, an error an effect did not handle.
///
/// By default messages go to standard error. Under `TestStore` they are test failures (its
/// dependencies route them: ``DependencyValues/onRuntimeWarning``). Tests install their own handler
/// for the duration of an operation:
///
/// ```swift
/// RuntimeWarning.withHandler({ messages.append($0) }) {
///   rowStore.send(.increment)   // the row was removed: a warning, no crash, no state change
/// }
/// ```
public enum RuntimeWarning {
  /// Runs `operation` with `handler` receiving the warnings reported in it (and in the tasks it
  /// starts). Task-local, so concurrent tests do not see each other's.
  @discardableResult
  public static func withHandler<R>(
    _ handler: @escaping @Sendable (String) -> Void, operation: () throws -> R
  ) rethrows -> R {
    try $current.withValue(Handler(receive: handler), operation: operation)
  }

  /// Runs the async `operation` with `handler` receiving the warnings reported in it.
  @discardableResult
  public static func withHandler<R>(
    _ handler: @escaping @Sendable (String) -> Void,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
  ) async rethrows -> R {
    try await $current.withValue(Handler(receive: handler), operation: operation)
  }

  /// Reports `message` where the dependencies in force route warnings (a test store's), or to the
  /// handler in force. A store runs its reducers, and their effects, with its dependencies in force.
  @usableFromInline static func report(_ message: String) {
    if let route = DependencyValues.current.onRuntimeWarning { route(message) } else { current.receive(message) }
  }

  /// A task-local's value is never a function type: see Documentation/Core.md, "Toolchain bugs worked around".
  struct Handler: Sendable {
    let receive: @Sendable (String) -> Void
  }

  @TaskLocal static var current = Handler { message in
    FileHandle.standardError.write(Data("[ValueStore] \(message)\n".utf8))
  }
}
