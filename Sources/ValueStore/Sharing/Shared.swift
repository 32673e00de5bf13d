/// A value several features hold and change together: every copy of a `Shared`, and every `Shared`
/// made with the same key, refers to one value. A change through any of them reaches the readers
/// of that value — in every state and store that holds it — and nobody else.
///
/// Declare it beside `_$fields`, as TCA's `@Shared` is declared in a state; read it as a property,
/// change it with ``withLock(_:)`` on its projection:
///
/// ```swift
/// struct AppState: ObservableState, Equatable {
///   struct Fields: Equatable { var draft = "" }
///   var _$fields = Observed(Fields())
///   @Shared(.fileStorage(.documentsDirectory.appending(path: "names.json"))) var names: [String] = []
///   // For `AppState(.init(draft: "x"))`: the default one makes only states storing `_$fields` alone.
///   init(_$fields: Observed<Fields> = Observed(Fields())) { self._$fields = _$fields }
/// }
///
/// state.names                                  // read: tracked, as a field is
/// state.$names.withLock { $0.append("Blob") }  // its readers everywhere hear it
/// ```
///
/// A child state takes the parent's reference: `@Shared var names: [String]`, set with
/// `self._names = names` from a `Shared<[String]>` the parent passes (`state.$names`).
///
/// Copies of a state — snapshots, `StateHistory`'s undo points, a `TestStore`'s expectations —
/// share the reference, as copies of a class instance would: undo does not revert a shared value.
/// In a `TestStore`, the feature's changes to shared values are asserted in the step that made
/// them, `$0.$names.withLock { $0 = ["Blob"] }`, exhaustively, as TCA does.
@propertyWrapper @dynamicMemberLookup
public struct Shared<Value: Sendable>: Sendable {
  let reference: SharedBox<Value>

  /// A value shared by this `Shared`'s copies only, stored nowhere.
  ///
  /// ```swift
  /// let count = Shared(value: 0)
  /// let detail = Detail.State(count: count)   // the detail changes the caller's count
  /// ```
  public init(value: Value) {
    reference = SharedReference(value)
  }

  /// The value stored under `key`, or `wrappedValue` if nothing is stored there yet. Every `Shared`
  /// made with an equal key (in the same ``DependencyValues`` context: each test has its own)
  /// refers to the same value.
  ///
  /// ```swift
  /// @Shared(.appStorage("isOnboarded")) var isOnboarded = false
  /// ```
  public init<Key: SharedKey>(wrappedValue: @autoclosure () -> Key.Value, _ key: Key) where Key.Value == Value {
    reference = SharedReferences.current.reference(for: key, default: wrappedValue)
  }

  /// The value stored under `key`, or the key's own default (``SharedKeyDefault``) if nothing is.
  ///
  /// ```swift
  /// extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<SyncUp>>.Default {
  ///   static var syncUps: Self { Self[.fileStorage(.syncUpsURL), default: []] }
  /// }
  /// @Shared(.syncUps) var syncUps
  /// ```
  public init<Key: SharedKey>(_ key: SharedKeyDefault<Key>) where Key.Value == Value {
    self.init(wrappedValue: key.defaultValue(), key)
  }

  init(reference: SharedBox<Value>) { self.reference = reference }

  /// The same reference as `projectedValue`.
  ///
  /// ```swift
  /// let count = Shared(projectedValue: state.$count)   // changes state's count
  /// ```
  public init(projectedValue: Shared<Value>) {
    self = projectedValue
  }

  /// The current value, tracked as a field is: the tracking scopes and Observation closures that
  /// read it hear its next change, through whichever `Shared` it is made.
  public var wrappedValue: Value { reference.trackedValue }

  /// This `Shared` itself: `state.$count.withLock { … }`, `Child.State(count: state.$count)`.
  ///
  /// Set to another (`state.$count = other`), the readers of the value it referred to are told,
  /// wherever they read it: a state holds its `Shared` beside its fields, so who read it through
  /// this state cannot be told apart (never lost; spurious for readers through other holders).
  public var projectedValue: Shared<Value> {
    get { self }
    set {
      let old = reference
      self = newValue
      if old !== reference { old.didChange() }
    }
  }

  /// Changes the value with exclusive access to it; its readers hear the change once `body`
  /// returns (or throws: what it changed is kept), outside every lock (a trivially comparable value
  /// only if it changed). Read in `body`, this value (or a part of it) is the value as changed so
  /// far; locked again there, it stops with a message. Locking another shared value in `body`
  /// while another thread locks the two the other way round deadlocks, as nested locks do.
  ///
  /// ```swift
  /// state.$count.withLock { $0 += 1 }
  /// ```
  @discardableResult
  public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try reference.withLock(body)
  }
}

extension Shared: Equatable where Value: Equatable {
  /// Equal values (two references holding equal values are equal, as TCA's are).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.reference === rhs.reference || lhs.reference.expectedOrCurrentValue == rhs.reference.expectedOrCurrentValue
  }
}

extension Shared: Hashable where Value: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(reference.expectedOrCurrentValue) }
}

extension Shared: Identifiable where Value: Identifiable {
  public var id: Value.ID { reference.expectedOrCurrentValue.id }
}

extension Shared: CustomStringConvertible {
  public var description: String { "\(reference.expectedOrCurrentValue)" }
}

/// A ``Shared`` value's dump is its value's (`String(customDumping:)`, a `TestStore`'s diffs).
protocol SharedDumpable {
  var dumpedValue: Any { get }
}

extension Shared: SharedDumpable {
  var dumpedValue: Any { reference.expectedOrCurrentValue }
}
