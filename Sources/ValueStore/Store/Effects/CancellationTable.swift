/// A store's running effect tasks, and the cancellation ids they run under.
///
/// Lock-protected: an effect cancels by id from the thread it runs on (`Task.cancel(id:)`), and the
/// store's deinitializer cancels everything from whichever thread releases it. Tasks are cancelled
/// after unlocking: cancelling runs a task's cancellation handlers, which are user code.
///
/// Ending a task costs O(the ids it was recorded under), not O(ids in use).
final class CancellationTable: @unchecked Sendable {
  private let lock = Lock()
  private var tasks: [Int: any CancellableTask] = [:]
  /// Cancellation ids → the running tasks recorded under them.
  private var keysByID: [EffectID: Set<Int>] = [:]
  /// Running tasks → the ids they were recorded under: what ending one must clean up.
  private var idsByKey: [Int: [EffectID]] = [:]
  /// Keys cancelled before their task was inserted: cancelled as it is.
  private var cancelledEarly: Set<Int> = []
  private var lastKey = 0

  /// Where tasks outside any store's effect are recorded (`withTaskCancellation(id:)` in plain
  /// async code), as TCA's one process-wide table does.
  static let global = CancellationTable()

  /// A key for a task about to be inserted.
  func reserve() -> Int { lock.withLock { lastKey += 1; return lastKey } }

  /// A key for a task about to run under `id`, recorded before it starts (a cancellation from
  /// then on reaches it); with `cancelInFlight`, what runs under `id` is cancelled first.
  func reserve(under id: EffectID, cancelInFlight: Bool) -> Int {
    if cancelInFlight { cancel(id) }
    let key = reserve()
    record(CollectionOfOne(key), under: id)
    return key
  }

  /// Inserts the task `key` reserved; cancels it at once if its id was cancelled meanwhile.
  func insert(_ task: some CancellableTask, key: Int) {
    let cancelled = lock.withLock {
      tasks[key] = task
      return cancelledEarly.remove(key) != nil
    }
    if cancelled { task.cancel() }
  }

  /// Records the tasks `keys` under `id`, at each of its levels (``EffectID/levels``).
  func record(_ keys: some Collection<Int>, under id: EffectID) {
    guard !keys.isEmpty else { return }
    let levels = id.levels
    lock.withLock {
      for level in levels {
        keysByID[level, default: []].formUnion(keys)
        for key in keys { idsByKey[key, default: []].append(level) }
      }
    }
  }

  /// Forgets the task `key`, which has ended.
  func finished(_ key: Int) {
    let task: (any CancellableTask)? = lock.withLock {
      for id in idsByKey.removeValue(forKey: key) ?? [] {
        // Gone already if the id was cancelled (and possibly reused by newer tasks since).
        guard let index = keysByID.index(forKey: id) else { continue }
        keysByID.values[index].remove(key)
        if keysByID.values[index].isEmpty { keysByID.remove(at: index) }
      }
      cancelledEarly.remove(key)
      return tasks.removeValue(forKey: key)
    }
    _ = task  // released here, outside the lock
  }

  /// Cancels the tasks recorded under `id`.
  func cancel(_ id: EffectID) {
    let cancelled: [any CancellableTask] = lock.withLock {
      (keysByID.removeValue(forKey: id) ?? []).compactMap { key in
        if let task = tasks[key] { return task }
        cancelledEarly.insert(key)
        return nil
      }
    }
    for task in cancelled { task.cancel() }
  }

  /// Cancels every task.
  func cancelAll() {
    let all = lock.withLock { Array(tasks.values) }
    for task in all { task.cancel() }
  }

  var isEmpty: Bool { lock.withLock { tasks.isEmpty } }
}

/// A task the table can cancel, whatever it returns.
protocol CancellableTask: Sendable {
  func cancel()
}

extension Task: CancellableTask {}
