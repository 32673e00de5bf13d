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

  /// Cancels those effects, and the effects of the actions they sent (as TCA's does).
  public func cancel() async {
    await group?.cancel()
  }

  /// Whether any of those effects is still running.
  @MainActor
  public var isInFlight: Bool { (group?.running ?? 0) > 0 }
}

/// The tasks started for one sent action, filled in when the action is processed, and the groups
/// of the actions those tasks sent.
@MainActor
final class EffectGroup: Sendable {
  var tasks: [Task<Void, Never>] = []
  /// Tasks of this group that have not finished yet.
  var running = 0
  /// The groups of the actions this group's effects sent: cancelled with it. Held strongly, so
  /// that a finished group still reaches what its actions started; pruned of finished subtrees as
  /// it grows (a timer sends forever).
  private var sent: [EffectGroup] = []
  private var pruneAt = 16

  /// A group for an action being sent: adopted by the group of the effect sending it, if any.
  static func started() -> EffectGroup {
    let group = EffectGroup()
    EffectContext.running?.group.adopt(group)
    return group
  }

  /// Records `group` as started by an action this group's effects sent.
  func adopt(_ group: EffectGroup) {
    if sent.count >= pruneAt {
      sent.removeAll { !$0.isLive }
      pruneAt = Swift.max(16, sent.count * 2)
    }
    sent.append(group)
  }

  /// Whether a task of this group, or of a group its effects' actions started, still runs.
  private var isLive: Bool { running > 0 || sent.contains { $0.isLive } }

  func cancel() {
    for task in tasks { task.cancel() }
    for group in sent { group.cancel() }
  }
}
