import Observation

/// Bridges one field read through a store into Apple's Observation: a persistent internal
/// observer of the field (our tracking) tells the store's `ObservationRegistrar` when it changes.
///
/// One bridge per distinct key path read through `store.field`, installed on first read; after
/// that a read costs a dictionary lookup and the registrar's access check.
@MainActor
final class FieldBridge<State, Action: Sendable, Value> {
  let appleKeyPath: KeyPath<Store<State, Action>, Value>
  private let read: (State) -> Value
  private weak var store: Store<State, Action>?

  init(store: Store<State, Action>, appleKeyPath: KeyPath<Store<State, Action>, Value>, read: @escaping (State) -> Value) {
    self.store = store
    self.read = read
    self.appleKeyPath = appleKeyPath
    arm()
  }

  private func arm() {
    guard let store else { return }
    let bridge = UncheckedWeak(self)
    withTracking {
      _ = store.withState(read)
    } onChange: { _ in
      // Store state only changes on the main actor, so its observers run there.
      MainActor.assumeIsolated { bridge.value?.changed() }
    }
  }

  private func changed() {
    guard let store else { return }
    store.registrar.withMutation(of: store, keyPath: appleKeyPath) {}
    arm()
  }
}

extension Store {
  /// Registers a read of the field at `keyPath` (reading it with `read`) with Observation.
  ///
  /// Keyed by the key path's value: key paths through dynamic members are fresh objects on each
  /// access, so their identity cannot be the key.
  func bridgeAccess<Root, T>(_ keyPath: KeyPath<Root, T>, read: @escaping (State) -> T) {
    let bridge: FieldBridge<State, Action, T>
    if let existing = bridges[keyPath] {
      bridge = unsafeDowncast(existing, to: FieldBridge<State, Action, T>.self)
    } else {
      bridge = FieldBridge(store: self, appleKeyPath: Self.appleKeyPath(keyPath), read: read)
      bridges[keyPath] = bridge
    }
    registrar.access(self, keyPath: bridge.appleKeyPath)
  }

  /// The key path Observation records for a field: the store's own dynamic member.
  private static func appleKeyPath<Root, T>(_ keyPath: KeyPath<Root, T>) -> KeyPath<Store, T> {
    \Store.[bridged: BridgedKeyPath<T>(keyPath)]
  }

  /// Lets a field's key path be a component of a key path on the store.
  subscript<T>(bridged keyPath: BridgedKeyPath<T>) -> T { fatalError("only used as a key path component") }
}

/// A field key path as a `Hashable` subscript index.
struct BridgedKeyPath<Value>: Hashable, @unchecked Sendable {
  let keyPath: AnyKeyPath
  init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}

/// A weak reference to a main-actor object, passed through `@Sendable` closures that only
/// dereference it on the main actor.
struct UncheckedWeak<Object: AnyObject>: @unchecked Sendable {
  weak var value: Object?
  init(_ value: Object) { self.value = value }
}
