import Foundation

/// Reports misuse that must not crash an app but must not pass silently either: an action sent to
/// a store whose state is gone, an error an effect did not handle.
///
/// By default messages go to standard error. Under `TestStore` they are test failures (its
/// dependencies route them: ``DependencyValues/onRuntimeWarning``). Tests install their own handler
/// for the duration of an operation:
///
/// ```swift
/// RuntimeWarning.$handler.withValue({ messages.append($0) }) {
///   rowStore.send(.increment)   // the row was removed: a warning, no crash, no state change
/// }
/// ```
public enum RuntimeWarning {
  /// Receives each warning's text. Task-local, so concurrent tests do not see each other's.
  @TaskLocal public static var handler: @Sendable (String) -> Void = { message in
    FileHandle.standardError.write(Data("[ValueStore] \(message)\n".utf8))
  }

  /// Reports `message` where the dependencies in force route warnings (a test store's), or to
  /// `handler`. A store runs its reducers, and their effects, with its dependencies in force.
  @usableFromInline static func report(_ message: String) {
    if let route = DependencyValues.current.onRuntimeWarning { route(message) } else { handler(message) }
  }
}
