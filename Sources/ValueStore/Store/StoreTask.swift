/// The effects started by one `send`: await them, or cancel them.
///
/// ```swift
/// await store.send(.refresh).finish()   // returns when the refresh effect is done
/// ```
public struct StoreTask: Sendable {
  let group: EffectGroup?

  /// A task with no effects (an action that was not sent).
  @_spi(Testing) public static var none: StoreTask { StoreTask(group: nil) }

  /// Waits until every effect started by the action (and by the actions it sent synchronously)
  /// has finished.
  public func finish() async {
    guard let group else { return }
    for task in await group.tasks { await task.value }
  }

  /// Cancels those effects.
  public func cancel() async {
    guard let group else { return }
    for task in await group.tasks { task.cancel() }
  }

  /// Whether any of those effects is still running.
  @MainActor
  public var isInFlight: Bool { (group?.running ?? 0) > 0 }
}

/// The tasks started for one sent action, filled in when the action is processed.
@MainActor
final class EffectGroup: Sendable {
  var tasks: [Task<Void, Never>] = []
  /// Tasks of this group that have not finished yet.
  var running = 0
}
