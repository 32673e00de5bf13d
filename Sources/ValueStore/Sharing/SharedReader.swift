/// A shared value a feature reads and never changes: a ``Shared`` without `withLock`.
///
/// ```swift
/// @SharedReader(.appStorage("soundIsOn")) var soundIsOn = true
/// // or from a `Shared` the parent holds:
/// init(soundIsOn: Shared<Bool>) { _soundIsOn = SharedReader(soundIsOn) }
/// ```
@propertyWrapper @dynamicMemberLookup
public struct SharedReader<Value: Sendable>: Sendable {
  let reference: SharedBox<Value>

  /// Reads what `shared` refers to.
  public init(_ shared: Shared<Value>) { reference = shared.reference }

  /// A value no one changes.
  public init(value: Value) { reference = SharedReference(value) }

  /// The value stored under `key`, or `wrappedValue` if nothing is stored there yet (see ``Shared``).
  public init<Key: SharedKey>(wrappedValue: @autoclosure () -> Key.Value, _ key: Key) where Key.Value == Value {
    self.init(Shared(wrappedValue: wrappedValue(), key))
  }

  /// The value stored under `key`, or the key's own default if nothing is.
  public init<Key: SharedKey>(_ key: SharedKeyDefault<Key>) where Key.Value == Value {
    self.init(Shared(key))
  }

  /// The current value, tracked as ``Shared/wrappedValue`` is.
  public var wrappedValue: Value { reference.trackedValue }

  /// This reader itself: `Child.State(count: state.$count)`.
  public var projectedValue: SharedReader<Value> { self }

  /// A part of the value (any member: a `let`, a computed property), read-only.
  ///
  /// ```swift
  /// let count: SharedReader<Int> = $items.count
  /// ```
  public subscript<Member: Sendable>(dynamicMember keyPath: KeyPath<Value, Member> & Sendable) -> SharedReader<Member> {
    Shared(reference: reference)[dynamicMember: keyPath]
  }
}

extension SharedReader: Equatable where Value: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.reference === rhs.reference || lhs.reference.expectedOrCurrentValue == rhs.reference.expectedOrCurrentValue
  }
}

extension SharedReader: SharedDumpable {
  var dumpedValue: Any { reference.expectedOrCurrentValue }
}
