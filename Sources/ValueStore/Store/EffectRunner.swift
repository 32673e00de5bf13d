import Foundation

/// Starts, tracks and cancels a store's effects.
///
/// Tasks are kept in a lock-protected table so that releasing the store (whose deinitializer may
/// run on any thread) cancels every effect still running.
@MainActor
final class EffectRunner<Action: Sendable> {
  private let running = RunningTasks()
  /// Effect ids → the running tasks started under them.
  private var cancellables: [EffectID: Set<Int>] = [:]
  /// Running tasks → the effect ids they were started under: what ending one must clean up, so
  /// that it costs O(its own ids), not O(ids in use).
  private var idsOfTask: [Int: [EffectID]] = [:]
  /// Where an error thrown by an effect without a `catch:` goes.
  var onError: @Sendable (any Error) -> Void = { error in
    RuntimeWarning.report("An effect threw an error it did not handle: \(error)")
  }
  /// Where effects run: nil for the global concurrent executor. `TestStore` runs them one job at
  /// a time on the main queue, so that a test can wait for them deterministically.
  var executor: (any TaskExecutor)?

  /// Starts `effect`. Synchronous parts run now: `.send` calls `follow` (the store queues the action),
  /// `.cancel` cancels. Asynchronous parts become tasks recorded in `group`.
  func start(_ effect: Effect<Action>, in group: EffectGroup, send: Send<Action>, follow: (Action) -> Void) {
    switch effect.operation {
    case .none:
      return
    case let .send(action):
      follow(action)
    case let .merge(effects):
      for effect in effects { start(effect, in: group, send: send, follow: follow) }
    case let .cancel(id):
      cancel(id)
    case let .cancellable(id, cancelInFlight, inner):
      if cancelInFlight { cancel(id) }
      let tasks = running.idsReserved { start(inner, in: group, send: send, follow: follow) }
      guard !tasks.isEmpty else { return }
      for level in id.levels {
        cancellables[level, default: []].formUnion(tasks)
        for task in tasks { idsOfTask[task, default: []].append(level) }
      }
    case .run, .concatenate:
      spawn(effect, in: group, send: send)
    case .dismiss:
      guard let dismissal = send.dismissal else {
        return RuntimeWarning.report("Effect.dismiss was returned by a feature that is not presented; ignored.")
      }
      dismissal()
    }
  }

  private func spawn(_ effect: Effect<Action>, in group: EffectGroup, send: Send<Action>) {
    let onError = onError
    let id = running.reserve()
    group.running += 1
    let task = Task(executorPreference: executor) { @Sendable @MainActor [weak self] in
      await EffectGroup.$current.withValue(EffectGroup.Current(group: group)) {
        await execute(effect, send: send, onError: onError, cancel: { [weak self] id in self?.cancel(id) })
      }
      group.running -= 1
      self?.finished(id)
    }
    running.insert(task, id: id)
    group.tasks.append(task)
  }

  private func finished(_ task: Int) {
    running.remove(task)
    guard let ids = idsOfTask.removeValue(forKey: task) else { return }
    for id in ids {
      // Gone already if the id was cancelled (and possibly reused by newer tasks since).
      guard let index = cancellables.index(forKey: id) else { continue }
      cancellables.values[index].remove(task)
      if cancellables.values[index].isEmpty { cancellables.remove(at: index) }
    }
  }

  func cancel(_ id: EffectID) {
    guard let ids = cancellables.removeValue(forKey: id) else { return }
    for id in ids { running.cancel(id) }
  }

  /// Whether any effect is still running.
  var hasRunningEffects: Bool { !running.isEmpty }

  /// Cancels every running effect.
  func cancelAll() { running.cancelAll() }

  nonisolated deinit { running.cancelAll() }
}

/// Runs the asynchronous parts of an effect in the current task.
private func execute<Action: Sendable>(
  _ effect: Effect<Action>,
  send: Send<Action>,
  onError: @escaping @Sendable (any Error) -> Void,
  cancel: @escaping @MainActor @Sendable (EffectID) -> Void
) async {
  switch effect.operation {
  case .none:
    return
  case let .send(action):
    await send(action)
  case let .run(_, body, handler):
    // `@Dependency(\.dismiss)` in the body dismisses what `send` does.
    await EffectContext.with(nil, dismissal: send.dismissal) {
      do {
        try await body(send)
      } catch is CancellationError where Task.isCancelled {
        return
      } catch {
        if let handler { await handler(error, send) } else { onError(error) }
      }
    }
  case let .merge(effects):
    await withTaskGroup(of: Void.self) { tasks in
      for effect in effects {
        tasks.addTask { await execute(effect, send: send, onError: onError, cancel: cancel) }
      }
    }
  case let .concatenate(effects):
    for effect in effects {
      if Task.isCancelled { return }
      await execute(effect, send: send, onError: onError, cancel: cancel)
    }
  case let .cancellable(_, _, inner):
    // Inside a running effect (a concatenation) the enclosing task is what cancellation stops.
    await execute(inner, send: send, onError: onError, cancel: cancel)
  case let .cancel(id):
    await cancel(id)
  case .dismiss:
    await send.dismiss()
  }
}

/// The running effect tasks by id; cancelled all at once when the store goes away.
final class RunningTasks: @unchecked Sendable {
  private let lock = Lock()
  private var tasks: [Int: Task<Void, Never>] = [:]
  private var nextID = 0

  func reserve() -> Int { lock.withLock { nextID += 1; return nextID } }

  func insert(_ task: Task<Void, Never>, id: Int) { lock.withLock { tasks[id] = task } }

  func remove(_ id: Int) { lock.withLock { tasks[id] = nil } }

  func cancel(_ id: Int) { lock.withLock { tasks[id] }?.cancel() }

  func cancelAll() {
    let all = lock.withLock { Array(tasks.values) }
    for task in all { task.cancel() }
  }

  var isEmpty: Bool { lock.withLock { tasks.isEmpty } }

  /// The ids reserved while `body` runs.
  func idsReserved(_ body: () -> Void) -> Range<Int> {
    let first = lock.withLock { nextID } + 1
    body()
    return first..<(lock.withLock { nextID } + 1)
  }
}
