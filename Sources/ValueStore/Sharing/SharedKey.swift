/// Where a ``Shared`` value is kept: a key names the value (``id``), loads it and saves it.
///
/// The library's keys are ``InMemoryKey`` (`.inMemory`), ``FileStorageKey`` (`.fileStorage`) and
/// ``AppStorageKey`` (`.appStorage`); a key of your own conforms to this protocol:
///
/// ```swift
/// struct KeychainKey: SharedKey {
///   let account: String
///   var id: String { account }
///   func load() -> String? { Keychain.read(account) }
///   func save(_ value: String) { Keychain.write(value, account) }
/// }
/// extension SharedKey where Self == KeychainKey {
///   static func keychain(_ account: String) -> Self { KeychainKey(account: account) }
/// }
///
/// @Shared(.keychain("token")) var token = ""
/// ```
public protocol SharedKey<Value>: Sendable {
  /// The value kept.
  associatedtype Value: Sendable
  /// What names the value: two keys of one type with equal ids refer to one value.
  associatedtype ID: Hashable & Sendable
  var id: ID { get }
  /// The value kept under this key, or nil if there is none yet (the declaration's default is used).
  /// Called when the first `Shared` of the key is made (by two threads making it at once, twice:
  /// one value is kept).
  func load() -> Value?
  /// Keeps `value`, after each change, outside every lock.
  func save(_ value: Value)
  /// Whether the declaration's default is saved when nothing was loaded (`.appStorage`'s is, as
  /// `@AppStorage`'s; by default, not).
  var savesDefault: Bool { get }
}

extension SharedKey {
  public var savesDefault: Bool { false }
}

/// A key with a default value of its own: `@Shared(.syncUps) var syncUps` needs no `= []`. The key
/// names the same value as its base key (declarations with either share it).
///
/// ```swift
/// extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<SyncUp>>.Default {
///   static var syncUps: Self { Self[.fileStorage(.syncUpsURL), default: []] }
/// }
/// ```
public struct SharedKeyDefault<Base: SharedKey>: SharedKey {
  let base: Base
  let defaultValue: @Sendable () -> Base.Value

  /// `key`, with `value` used when nothing is stored under it.
  public static subscript(_ key: Base, default value: @autoclosure @escaping @Sendable () -> Base.Value) -> Self {
    Self(base: key, defaultValue: value)
  }

  /// The base key's: declarations with either key share the value.
  public var id: Base.ID { base.id }
  /// The base key's value, if it has one (else the default is used).
  public func load() -> Base.Value? { base.load() }
  /// Saves through the base key.
  public func save(_ value: Base.Value) { base.save(value) }
  /// The base key's choice.
  public var savesDefault: Bool { base.savesDefault }
}

/// A key standing for another (its base), with a default.
private protocol DefaultedKey {
  var baseKeyType: Any.Type { get }
}

extension SharedKeyDefault: DefaultedKey {
  var baseKeyType: Any.Type { (base as? any DefaultedKey)?.baseKeyType ?? Base.self }
}

extension SharedKey {
  /// This key with a default value of its own (see ``SharedKeyDefault``).
  public typealias Default = SharedKeyDefault<Self>
}

/// The shared values made in one dependency context (the app's, or one test's), by key: the
/// references `Shared`s of equal keys share. Kept for the context's lifetime, as an in-memory
/// value must be (a persisted one is few and small: a setting, a file's list).
final class SharedReferences: Sendable {
  private let references = LockIsolated<[KeyID: any AnySharedReference]>([:])

  private struct KeyID: Hashable, @unchecked Sendable {  // `id` is a key's `ID`: Sendable
    let type: ObjectIdentifier
    let id: AnyHashable
  }

  /// The references of the dependency context in force.
  static var current: SharedReferences { DependencyValues.current[SharedReferencesKey.self] }

  /// The reference `key` names, made with the value it loads (or `makeDefault()`) if there is none.
  /// Loading and the default run outside the lock; a reference another thread made meanwhile wins.
  func reference<Key: SharedKey>(for key: Key, default makeDefault: () -> Key.Value) -> SharedReference<Key.Value> {
    // A key with a default names its base key's value.
    let keyType = (key as? any DefaultedKey).map { $0.baseKeyType } ?? Key.self
    let id = KeyID(type: ObjectIdentifier(keyType), id: AnyHashable(key.id))
    if let found = references.withValue({ $0[id] }) { return Self.cast(found, key) }
    let loaded = key.load()
    let made = SharedReference(loaded ?? makeDefault(), persistence: SharedPersistence(save: key.save))
    if loaded == nil, key.savesDefault { key.save(made.currentValue) }
    let reference = references.withValue { references in
      if let found = references[id] { return found }
      references[id] = made
      return made
    }
    return Self.cast(reference, key)
  }

  private static func cast<Key: SharedKey>(_ reference: any AnySharedReference, _ key: Key) -> SharedReference<Key.Value> {
    guard let typed = reference as? SharedReference<Key.Value> else {
      fatalError("Shared: the key \(key.id) (\(Key.self)) names a value of another type than \(Key.Value.self)")
    }
    return typed
  }
}

private enum SharedReferencesKey: DependencyKey {
  static var liveValue: SharedReferences { SharedReferences() }
  static var testValue: SharedReferences { SharedReferences() }
}
