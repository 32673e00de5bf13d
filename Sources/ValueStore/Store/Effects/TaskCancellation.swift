/// Runs `operation` in a task of its own that `.cancel(id:)` and ``_Concurrency/Task/cancel(id:)``
/// cancel, as an effect marked `.cancellable(id:)` is — TCA's `withTaskCancellation(id:)`.
///
/// ```swift
/// case .searchChanged(let query):
///   return .run { send in
///     try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
///       try await clock.sleep(for: .milliseconds(300))
///       await send(.results(try await api.search(query)))
///     }
///   }
/// ```
///
/// Inside a store's effect the id belongs to that store, and to the child feature the effect
/// runs for (a sibling's `.cancel(id:)` does not reach it, a parent's does); elsewhere to the
/// process. With `cancelInFlight`, what runs under the id is cancelled first. Cancelling the
/// calling task cancels `operation` too.
public func withTaskCancellation<T: Sendable>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  isolation: isolated (any Actor)? = #isolation,
  operation: sending @escaping @isolated(any) () async throws -> T
) async throws -> T {
  let running = EffectContext.running
  let table = running?.table ?? .global
  let id = EffectID(id).within(running?.path ?? [])
  let key = table.reserve(under: id, cancelInFlight: cancelInFlight)
  let task = Task(operation: operation)
  table.insert(task, key: key)
  defer { table.finished(key) }
  return try await withTaskCancellationHandler {
    try await task.value
  } onCancel: {
    task.cancel()
  }
}

extension Task where Success == Never, Failure == Never {
  /// Cancels what runs under `id`: the effects marked `.cancellable(id:)` and the operations of
  /// ``withTaskCancellation(id:cancelInFlight:isolation:operation:)`` — of the store and child
  /// feature whose effect calls it, or, outside any effect, of the process.
  ///
  /// ```swift
  /// return .run { _ in
  ///   Task.cancel(id: CancelID.timer)
  /// }
  /// ```
  public static func cancel(id: some Hashable & Sendable) {
    let running = EffectContext.running
    (running?.table ?? .global).cancel(EffectID(id).within(running?.path ?? []))
  }
}
