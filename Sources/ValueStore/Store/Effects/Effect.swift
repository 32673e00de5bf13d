/// Work a reducer asks the store to do after an action: send more actions now, or run
/// asynchronous work that sends actions back.
///
/// ```swift
/// case .factButtonTapped:
///   return .run { [count = state.count] send in
///     let fact = try await factClient.fetch(count)
///     await send(.factResponse(fact))
///   }
///   .cancellable(id: CancelID.fact, cancelInFlight: true)
/// ```
///
/// Effects started by a store are cancelled when the store is released. An error thrown by a
/// `.run` body is reported (by default to standard error; `TestStore` makes it a test failure)
/// unless the effect handles it with `catch:`.
public struct Effect<Action> {
  @usableFromInline
  indirect enum Operation {
    case none
    case send(Action)
    case run(TaskPriority?, @Sendable (Send<Action>) async throws -> Void, (@Sendable (any Error, Send<Action>) async -> Void)?)
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(EffectID, cancelInFlight: Bool, Effect)
    case cancel(EffectID)
    case dismiss
  }

  @usableFromInline let operation: Operation

  @inlinable
  init(_ operation: Operation) { self.operation = operation }

  /// No effect.
  @inlinable
  public static var none: Self { Self(.none) }

  /// Sends `action` to the store right after the current action, before any observer runs.
  @inlinable
  public static func send(_ action: Action) -> Self { Self(.send(action)) }

  /// Runs effects at the same time.
  @inlinable
  public static func merge(_ effects: [Self]) -> Self {
    let effects = effects.filter { !$0.isNone }
    return effects.isEmpty ? .none : Self(.merge(effects))
  }

  /// Runs effects at the same time.
  @inlinable
  public static func merge(_ effects: Self...) -> Self { merge(effects) }

  /// Runs effects one after another, each once the previous one finished. The `.send`s it starts
  /// with finish at once: their actions are sent right after the current action, in order, as
  /// `.send`'s are (as in TCA, `.concatenate(.send(a), .send(b))` delivers both before anything an
  /// effect sends next).
  @inlinable
  public static func concatenate(_ effects: Self...) -> Self {
    let effects = effects.filter { !$0.isNone }
    let sends = effects.prefix { if case .send = $0.operation { true } else { false } }
    let rest = effects.dropFirst(sends.count)
    return merge(Array(sends) + (rest.isEmpty ? [] : [Self(.concatenate(Array(rest)))]))
  }

  /// Cancels the in-flight effects marked with `id`.
  @inlinable
  public static func cancel(id: some Hashable & Sendable) -> Self { Self(.cancel(EffectID(id))) }

  /// Marks this effect with `id` so ``cancel(id:)`` can stop it; with `cancelInFlight`, starting it
  /// first cancels the effects already running under `id` (a newer request replaces an older one).
  @inlinable
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    isNone && !cancelInFlight ? self : Self(.cancellable(EffectID(id), cancelInFlight: cancelInFlight, self))
  }

  /// This effect and `other` at the same time, without allocating when either is `.none`.
  @inlinable
  func merging(_ other: Self) -> Self {
    if isNone { return other }
    if other.isNone { return self }
    return Self(.merge([self, other]))
  }

  @inlinable
  var isNone: Bool {
    if case .none = operation { return true }
    return false
  }

  /// Transforms the actions this effect sends (how a parent runs a child's effects).
  @inlinable
  public func map<Parent>(_ transform: @escaping @Sendable (Action) -> Parent) -> Effect<Parent> {
    // Most actions start no effect: inlined, mapping none costs one comparison.
    if case .none = operation { return .none }
    return transformed(transform, dismiss: nil, scope: nil)
  }

  /// Transforms the actions this effect sends; for a presented child, turns its dismissals into
  /// the parent action that dismisses it (`dismiss`); for a child whose effects are its own, scopes
  /// its cancellation ids to it (`scope`), also those its tasks give (`withTaskCancellation(id:)`).
  /// (Dependencies need nothing here: `.run` keeps those in force where it is made.)
  @usableFromInline
  func transformed<Parent>(
    _ transform: @escaping @Sendable (Action) -> Parent,
    dismiss: (@Sendable () -> Parent)?,
    scope: NavigationID?
  ) -> Effect<Parent> {
    let scoped = { (id: EffectID) in scope.map { id.scoped(in: $0) } ?? id }
    switch operation {
    case .none: return .none
    case let .send(action): return .send(transform(action))
    case let .run(priority, body, handler):
      let mappedBody: @Sendable (Send<Parent>) async throws -> Void = { send in
        let child = send.map(transform, dismiss: dismiss)
        try await EffectContext.with(dismissal: dismiss == nil ? nil : child.dismissal, scope: scope) {
          try await body(child)
        }
      }
      var mappedHandler: (@Sendable (any Error, Send<Parent>) async -> Void)?
      if let handler {
        mappedHandler = { error, send in
          let child = send.map(transform, dismiss: dismiss)
          await EffectContext.with(dismissal: dismiss == nil ? nil : child.dismissal, scope: scope) {
            await handler(error, child)
          }
        }
      }
      return Effect<Parent>(.run(priority, mappedBody, mappedHandler))
    case let .merge(effects):
      return Effect<Parent>(.merge(effects.map { $0.transformed(transform, dismiss: dismiss, scope: scope) }))
    case let .concatenate(effects):
      return Effect<Parent>(
        .concatenate(effects.map { $0.transformed(transform, dismiss: dismiss, scope: scope) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Effect<Parent>(
        .cancellable(
          scoped(id), cancelInFlight: cancelInFlight,
          effect.transformed(transform, dismiss: dismiss, scope: scope)))
    case let .cancel(id): return Effect<Parent>(.cancel(scoped(id)))
    case .dismiss: return dismiss.map { .send($0()) } ?? .dismiss
    }
  }

  /// This effect with one dismissal at most among its synchronous parts (`.merge(.dismiss,
  /// .dismiss)` dismisses once). What else it sends still arrives — after the dismissal, to a
  /// parent that no longer presents the child — as TCA delivers the actions an effect has sent.
  func dismissingOnce() -> Effect {
    var dismissed = false
    return dismissingOnce(&dismissed)
  }

  private func dismissingOnce(_ dismissed: inout Bool) -> Effect {
    switch operation {
    case .dismiss:
      defer { dismissed = true }
      return dismissed ? .none : self
    case let .merge(effects):
      return Effect(.merge(effects.map { $0.dismissingOnce(&dismissed) }))
    case let .cancellable(id, cancelInFlight, effect):
      return Effect(.cancellable(id, cancelInFlight: cancelInFlight, effect.dismissingOnce(&dismissed)))
    case .none, .send, .run, .concatenate, .cancel:
      return self  // asynchronous parts run later, in their own order; a dismissed child's are cancelled
    }
  }
}

extension Effect {
  /// Dismisses the presented feature (or pops the stack element) whose reducer returns it: the
  /// parent receives its `.dismiss` (or `.popFrom(id:)`) action right after this one.
  ///
  /// ```swift
  /// case .saveButtonTapped:
  ///   return .dismiss
  /// ```
  ///
  /// Outside a presentation or stack it does nothing and reports a ``RuntimeWarning``. From a
  /// running effect, call ``Send/dismiss(fileID:line:)``.
  @inlinable
  public static var dismiss: Self { Self(.dismiss) }
}

extension Effect where Action: Sendable {
  /// Runs `operation` in a task; it sends actions back through `send`.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task.
  ///   - operation: The effect's work; it sends actions back through its argument.
  ///   - handler: handles an error thrown by `operation`. Without one, the error is
  ///     reported (never swallowed). A `CancellationError`, and any error thrown once the effect
  ///     is cancelled, end the effect quietly, as in TCA.
  ///
  /// It runs with the dependencies in force where it is made (as TCA's does): a reducer's
  /// `withDependencies { … } operation: { .run { … } }` overrides them for this effect.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil
  ) -> Self {
    let dependencies = DependencyValues.current
    guard !dependencies.isDefault else { return Self(.run(priority, operation, handler)) }
    let body: @Sendable (Send<Action>) async throws -> Void = { send in
      try await DependencyValues.withCurrent(dependencies) { try await operation(send) }
    }
    var caught: (@Sendable (any Error, Send<Action>) async -> Void)?
    if let handler {
      caught = { error, send in await DependencyValues.withCurrent(dependencies) { await handler(error, send) } }
    }
    return Self(.run(priority, body, caught))
  }
}

/// Sends actions back to the store from an effect: `await send(.response(value))`.
///
/// Sending from a cancelled effect, or after the store is gone, does nothing: the effect's work
/// was not wanted anymore.
public struct Send<Action>: Sendable {
  let send: @MainActor @Sendable (Action) -> Void
  /// What ``dismiss()`` does: sends the presenting parent its dismiss action; nil outside a
  /// presentation.
  let dismissal: (@MainActor @Sendable () -> Void)?

  /// A `Send` calling `send`.
  public init(_ send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
    self.dismissal = nil
  }

  init(_ send: @escaping @MainActor @Sendable (Action) -> Void, dismissal: (@MainActor @Sendable () -> Void)?) {
    self.send = send
    self.dismissal = dismissal
  }

  /// Sends `action` unless the current task is cancelled.
  @MainActor
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    send(action)
  }

  /// Dismisses the presented feature (or pops the stack element) this effect belongs to, unless
  /// the current task is cancelled: its parent receives the dismiss action (TCA's
  /// `@Dependency(\.dismiss)`).
  ///
  /// ```swift
  /// return .run { send in
  ///   try await save()
  ///   await send.dismiss()
  /// }
  /// ```
  @MainActor
  public func dismiss(fileID: StaticString = #fileID, line: UInt = #line) {
    guard !Task.isCancelled else { return }
    guard let dismissal else {
      RuntimeWarning.report(
        "dismiss() at \(fileID):\(line) was called from an effect of a feature that is not presented; ignored.")
      return
    }
    dismissal()
  }

  func map<Child>(
    _ transform: @escaping @Sendable (Child) -> Action, dismiss: (@Sendable () -> Action)?
  ) -> Send<Child> {
    let send = self.send
    let dismissal = dismiss.map { dismiss in { @MainActor @Sendable in send(dismiss()) } } ?? self.dismissal
    return Send<Child>({ send(transform($0)) }, dismissal: dismissal)
  }
}

extension Effect: @unchecked Sendable where Action: Sendable {}

/// What an effect's task runs with, set around its body: the dependencies in force for the action
/// that started it, what dismisses the feature it belongs to (`@Dependency(\.dismiss)`), and where
/// it runs (``Running``).
enum EffectContext {
  /// A task-local's value is never a function type: see Documentation/Core.md, "Toolchain bugs worked around".
  struct Dismissal: Sendable {
    let run: @MainActor @Sendable () -> Void
  }

  /// The effect task running now: its group (an action it sends starts its effects in a group its
  /// group adopts), its store's cancellation table, and the children its body was given in
  /// (`withTaskCancellation(id:)` there scopes its id as `.cancellable(id:)` does), and the
  /// executor its store runs effects on.
  struct Running: Sendable {
    let group: EffectGroup
    let table: CancellationTable
    let path: [NavigationID]
    let executor: (any TaskExecutor)?
  }

  @TaskLocal static var dismissal: Dismissal?
  @TaskLocal static var running: Running?

  /// Runs `operation` with `dismissal` (if any) in force, inside the child `scope` (if any).
  static func with<R>(
    dismissal: (@MainActor @Sendable () -> Void)?, scope: NavigationID? = nil,
    _ operation: () async throws -> R
  ) async rethrows -> R {
    if let scope, let running {
      let inner = Running(
        group: running.group, table: running.table, path: running.path + [scope], executor: running.executor
      )
      return try await $running.withValue(inner) { try await with(dismissal: dismissal, operation) }
    }
    guard let dismissal else { return try await operation() }
    return try await $dismissal.withValue(Dismissal(run: dismissal), operation: operation)
  }
}

/// A cancellation id: the value a reducer gave (`Hashable & Sendable`, hence `Sendable`) and the
/// children it was given in.
///
/// As in TCA, a child's ids are its own: `.cancel(id:)` in a child reaches the effects that child
/// (or one of its descendants) marked with the id, never a sibling's or a parent's; the same id in
/// a parent reaches its children's too. So a task is recorded under its id at each level from its
/// own up to the root (``levels``), and `.cancel(id:)` names one level. A child's own scope (all
/// its effects, cancelled when it goes away) is recorded at its own level alone.
@usableFromInline
struct EffectID: Hashable, @unchecked Sendable {
  @usableFromInline let base: AnyHashable
  /// The children the id was given in, outermost first.
  @usableFromInline let path: [NavigationID]
  /// Whether the same id given in a parent reaches it: a reducer's id does, a child's scope does not.
  @usableFromInline let reachedFromParents: Bool

  @inlinable
  init(_ base: some Hashable & Sendable) {
    self.base = AnyHashable(base)
    path = []
    reachedFromParents = true
  }

  private init(base: AnyHashable, path: [NavigationID], reachedFromParents: Bool) {
    self.base = base
    self.path = path
    self.reachedFromParents = reachedFromParents
  }

  /// The scope of the child `navigation`: every effect it starts, cancelled when it goes away.
  static func scope(of navigation: NavigationID) -> EffectID {
    EffectID(base: navigation, path: [], reachedFromParents: false)
  }

  /// This id as the parent of the child `navigation` sees it.
  func scoped(in navigation: NavigationID) -> EffectID {
    EffectID(base: base, path: [navigation] + path, reachedFromParents: reachedFromParents)
  }

  /// This id given inside the children `outer` (outermost first), as the root sees it.
  func within(_ outer: [NavigationID]) -> EffectID {
    outer.isEmpty ? self : EffectID(base: base, path: outer + path, reachedFromParents: reachedFromParents)
  }

  /// The ids a `.cancel(id:)` reaches this one by: its own, and for a reducer's id the same id at
  /// each enclosing level.
  var levels: [EffectID] {
    guard reachedFromParents, !path.isEmpty else { return [self] }
    return (0...path.count).map { EffectID(base: base, path: Array(path.prefix($0)), reachedFromParents: true) }
  }
}
