/// Starts, tracks and cancels a store's effects.
///
/// Tasks and their cancellation ids are kept in a lock-protected table (``CancellationTable``):
/// releasing the store (whose deinitializer may run on any thread) cancels every effect still
/// running, and an effect cancels by id from wherever it runs (`Task.cancel(id:)`).
@MainActor
final class EffectRunner<Action: Sendable> {
  private let running = CancellationTable()
  /// The keys of the tasks spawned by the effect being started, in order: a `.cancellable` part
  /// records those its inner effect added.
  private var spawned: [Int] = []
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
    startParts(effect, in: group, send: send, follow: follow)
    spawned.removeAll(keepingCapacity: true)
  }

  private func startParts(_ effect: Effect<Action>, in group: EffectGroup, send: Send<Action>, follow: (Action) -> Void) {
    switch effect.operation {
    case .none:
      return
    case let .send(action):
      follow(action)
    case let .merge(effects):
      for effect in effects { startParts(effect, in: group, send: send, follow: follow) }
    case let .cancel(id):
      cancel(id)
    case let .cancellable(id, cancelInFlight, inner):
      if cancelInFlight { cancel(id) }
      let first = spawned.count
      startParts(inner, in: group, send: send, follow: follow)
      running.record(spawned[first...], under: id)
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
    let executor = executor
    let table = running
    let key = table.reserve()
    group.running += 1
    let task = Task(executorPreference: executor) { @Sendable @MainActor in
      let context = EffectContext.Running(group: group, table: table, path: [], executor: executor)
      await EffectContext.$running.withValue(context) {
        await execute(effect, send: send, onError: onError, table: table)
      }
      group.running -= 1
      table.finished(key)
    }
    table.insert(task, key: key)
    group.tasks.append(task)
    spawned.append(key)
  }

  func cancel(_ id: EffectID) { running.cancel(id) }

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
  table: CancellationTable
) async {
  switch effect.operation {
  case .none:
    return
  case let .send(action):
    await send(action)
  case let .run(_, body, handler):
    // `@Dependency(\.dismiss)` in the body dismisses what `send` does.
    await EffectContext.with(dismissal: send.dismissal) {
      // As TCA's: a cancellation — of the effect, or of a part of it (`withTaskCancellation`) —
      // ends it quietly, and so does any error a cancelled effect throws.
      do {
        try await body(send)
      } catch is CancellationError {
        return
      } catch {
        guard !Task.isCancelled else { return }
        if let handler { await handler(error, send) } else { onError(error) }
      }
    }
  case let .merge(effects):
    await withTaskGroup(of: Void.self) { tasks in
      for effect in effects {
        tasks.addTask { await execute(effect, send: send, onError: onError, table: table) }
      }
    }
  case let .concatenate(effects):
    for effect in effects {
      if Task.isCancelled { return }
      await execute(effect, send: send, onError: onError, table: table)
    }
  case let .cancellable(id, cancelInFlight, inner):
    // A part of a running effect (a concatenation's step): a task of its own, recorded under the
    // id, that the enclosing effect waits for; cancelling it ends the step, not what follows.
    let key = table.reserve(under: id, cancelInFlight: cancelInFlight)
    let part = Task(executorPreference: EffectContext.running?.executor) { @Sendable @MainActor in
      await execute(inner, send: send, onError: onError, table: table)
    }
    table.insert(part, key: key)
    await withTaskCancellationHandler { await part.value } onCancel: { part.cancel() }
    table.finished(key)
  case let .cancel(id):
    table.cancel(id)  // scoped already, as the effect was
  case .dismiss:
    await send.dismiss()
  }
}

