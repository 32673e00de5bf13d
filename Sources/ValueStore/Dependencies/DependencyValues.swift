import Synchronization

/// The dependencies in force: the values overridden so far, the others by their key's default for
/// the ``DependencyContext``.
///
/// Extend it with a computed property per dependency (see ``DependencyKey``); read one with
/// ``Dependency`` in a reducer, override them for a store (`withDependencies:`), a child reducer
/// (``Reducer/dependency(_:_:)``) or a block (``withDependencies(_:operation:)``).
///
/// The values in force are task-local: a store runs each action's reducer with its own, and the
/// effects that reducer returns keep them — a `.run` sees the values in force for the action
/// that started it, even after they change.
public struct DependencyValues: Sendable {
  /// The values in force here.
  @TaskLocal public static var current = DependencyValues()

  public var context: DependencyContext
  private var values: [ObjectIdentifier: any Sendable] = [:]
  /// Where an unimplemented dependency is reported (a test failure under `TestStore`).
  public var onUnimplemented: @Sendable (String) -> Void = { message in
    print("[ValueStore] \(message)")
  }
  /// Where a store reports misuse while these values are in force — an action for a child whose
  /// state is gone, an element id that is not there — instead of the handler of ``RuntimeWarning/withHandler(_:operation:)``; nil
  /// leaves it there. `TestStore` makes it a test failure, as TCA does.
  public var onRuntimeWarning: (@Sendable (String) -> Void)?

  /// The live values.
  public init(context: DependencyContext = .live) { self.context = context }

  /// The value for `key`: overridden, or the key's default for the context.
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = values[ObjectIdentifier(key)] { return value as! Key.Value }
      switch context {
      case .live: return LiveValues.value(for: key)
      case .test:
        // Reported through these values, not the task's: a test store's own reporter.
        return DependencyValues.$current.withValue(self) { Key.testValue }
      case .preview: return Key.previewValue
      }
    }
    set { values[ObjectIdentifier(key)] = newValue }
    _modify {
      // Changed in place (`$0.date.now = d`), it is being overridden: the value it starts from is
      // not a use of it, so an unimplemented test value is not reported here.
      let id = ObjectIdentifier(key)
      var value = values[id].map { $0 as! Key.Value } ?? unreported(key)
      yield &value
      values[id] = value
    }
  }

  /// `self[key]`, without reporting an unimplemented test value.
  private func unreported<Key: DependencyKey>(_ key: Key.Type) -> Key.Value {
    var quiet = self
    quiet.onUnimplemented = { _ in }
    return quiet[key]
  }

  /// Whether nothing was overridden in a live context: running with these changes nothing.
  var isDefault: Bool { context == .live && values.isEmpty }

  func reportUnimplemented(_ message: String) { onUnimplemented(message) }
}

/// Live values are made once per key: a live client may be costly to make or hold a connection.
private enum LiveValues {
  static let cache = Mutex<[ObjectIdentifier: any Sendable]>([:])

  static func value<Key: DependencyKey>(for key: Key.Type) -> Key.Value {
    if let value = cache.withLock({ $0[ObjectIdentifier(key)] }) { return value as! Key.Value }
    let value = Key.liveValue  // made outside the lock: it may read other dependencies
    return cache.withLock { cache in
      if let made = cache[ObjectIdentifier(key)] { return made as! Key.Value }
      cache[ObjectIdentifier(key)] = value
      return value
    }
  }
}

/// Runs `operation` with the dependencies `update` changes; effects it starts keep them.
///
/// ```swift
/// let id = withDependencies { $0.uuid = .incrementing } operation: {
///   @Dependency(\.uuid) var uuid
///   return uuid()
/// }
/// ```
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void, operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues.current
  try update(&values)
  return try DependencyValues.$current.withValue(values, operation: operation)
}

/// The asynchronous ``withDependencies(_:operation:)``.
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void, operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues.current
  try update(&values)
  return try await DependencyValues.$current.withValue(values, operation: operation)
}
