import ValueStore

/// The effects started by one action a test sent, returned by
/// ``TestStore/send(_:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_)``: to cancel them, or to wait for them.
///
/// Cancel an effect that the feature itself never stops, such as one listening for notifications
/// from `onAppear`, so that it is not still running at the end of the test:
///
/// ```swift
/// let onAppear = await store.send(.onAppear)
/// // …
/// await onAppear.cancel()
/// ```
public struct TestStoreTask: Sendable {
  let task: StoreTask
  let effects: EffectTracker
  /// The test store's timeout when the action was sent.
  let timeout: Duration

  /// Whether any of the effects is still running.
  @MainActor
  public var isInFlight: Bool { task.isInFlight }

  /// Cancels the effects and waits until they have finished, for up to `timeout` (the test
  /// store's timeout when nil).
  @MainActor
  public func cancel(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await task.cancel()
    await finish(timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Waits until the effects have finished, for up to `timeout` (the test store's timeout when
  /// nil), and fails if they haven't by then.
  ///
  /// ```swift
  /// await store.send(.refresh).finish()
  /// await store.receive(.refreshed) { $0.isRefreshing = false }
  /// ```
  @MainActor
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let timeout = timeout ?? self.timeout
    let finished = await effects.wait(until: .now + timeout) { !task.isInFlight }
    guard !finished else { return }
    CallSite(fileID: fileID, filePath: filePath, line: line, column: column).reportFailure(
      "Expected the effects of this action to finish within \(timeout), but they are still running."
    )
  }
}
