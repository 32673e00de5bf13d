import Foundation

/// Reports misuse that must not crash an app but must not pass silently either: an action sent to
/// a store whose state is gone, an error an effect did not handle.
///
/// By default messages go to standard error. Tests (and `TestStore`) install their own handler for
/// the duration of an operation:
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

  @usableFromInline static func report(_ message: String) { handler(message) }
}
