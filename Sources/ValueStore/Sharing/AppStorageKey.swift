import Foundation

/// A shared value kept in `UserDefaults` under a key, through
/// ``DependencyValues/defaultAppStorage`` (`UserDefaults.standard` in an app, a suite of its own in
/// each test). Values of the types `UserDefaults` stores — `Bool`, `Int`, `Double`, `String`,
/// `Data`, `URL`, `Date` — and `RawRepresentable` ones whose raw value is a `String` or `Int`.
///
/// ```swift
/// @Shared(.appStorage("soundIsOn")) var soundIsOn = true
/// ```
public struct AppStorageKey<Value: Sendable>: SharedKey {
  /// The `UserDefaults` key.
  public let key: String
  let defaults: UncheckedSendableDefaults
  private let read: @Sendable (UserDefaults, String) -> Value?
  private let write: @Sendable (UserDefaults, String, Value) -> Void

  init(
    _ key: String, read: @escaping @Sendable (UserDefaults, String) -> Value?,
    write: @escaping @Sendable (UserDefaults, String, Value) -> Void
  ) {
    self.key = key
    defaults = UncheckedSendableDefaults(DependencyValues.current.defaultAppStorage)
    self.read = read
    self.write = write
  }

  /// The key in the `UserDefaults` in force where this key was made.
  public var id: AppStorageID { AppStorageID(key: key, defaults: ObjectIdentifier(defaults.value)) }

  /// The value under the key, or nil if there is none (or one of another type).
  public func load() -> Value? { read(defaults.value, key) }

  /// Sets the value under the key.
  public func save(_ value: Value) { write(defaults.value, key, value) }

  /// The declaration's default is written at once, as `@AppStorage` and TCA's key do.
  public var savesDefault: Bool { true }
}

/// What names an app-storage value: its key in one `UserDefaults`.
public struct AppStorageID: Hashable, Sendable {
  let key: String
  let defaults: ObjectIdentifier
}

/// `UserDefaults` is thread-safe; it is not declared `Sendable` on every platform.
struct UncheckedSendableDefaults: @unchecked Sendable {
  let value: UserDefaults
  init(_ value: UserDefaults) { self.value = value }
}

extension SharedKey {
  /// A `Bool` kept in `UserDefaults` under `key` (see ``AppStorageKey``).
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Bool> {
    AppStorageKey(key, read: { $0.object(forKey: $1) as? Bool }, write: { $0.set($2, forKey: $1) })
  }
  /// An `Int` kept in `UserDefaults` under `key`.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Int> {
    AppStorageKey(key, read: { $0.object(forKey: $1) as? Int }, write: { $0.set($2, forKey: $1) })
  }
  /// A `Double` kept in `UserDefaults` under `key`.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Double> {
    AppStorageKey(key, read: { $0.object(forKey: $1) as? Double }, write: { $0.set($2, forKey: $1) })
  }
  /// A `String` kept in `UserDefaults` under `key`.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<String> {
    AppStorageKey(key, read: { $0.object(forKey: $1) as? String }, write: { $0.set($2, forKey: $1) })
  }
  /// `Data` kept in `UserDefaults` under `key`.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Data> {
    AppStorageKey(key, read: { $0.object(forKey: $1) as? Data }, write: { $0.set($2, forKey: $1) })
  }
  /// A `URL` kept in `UserDefaults` under `key` (as `UserDefaults.set(_:forKey:)` keeps one).
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<URL> {
    AppStorageKey(key, read: { $0.object(forKey: $1) == nil ? nil : $0.url(forKey: $1) }, write: { $0.set($2, forKey: $1) })
  }
  /// A `Date` kept in `UserDefaults` under `key`.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Date> {
    AppStorageKey(key, read: { $0.object(forKey: $1) as? Date }, write: { $0.set($2, forKey: $1) })
  }
  /// A value kept in `UserDefaults` under `key` as its `String` raw value.
  public static func appStorage<Value: RawRepresentable & Sendable>(_ key: String) -> Self
  where Self == AppStorageKey<Value>, Value.RawValue == String {
    AppStorageKey(
      key, read: { ($0.object(forKey: $1) as? String).flatMap(Value.init(rawValue:)) },
      write: { $0.set($2.rawValue, forKey: $1) })
  }
  /// A value kept in `UserDefaults` under `key` as its `Int` raw value.
  public static func appStorage<Value: RawRepresentable & Sendable>(_ key: String) -> Self
  where Self == AppStorageKey<Value>, Value.RawValue == Int {
    AppStorageKey(
      key, read: { ($0.object(forKey: $1) as? Int).flatMap(Value.init(rawValue:)) },
      write: { $0.set($2.rawValue, forKey: $1) })
  }
}

private enum AppStorageDependency: DependencyKey {
  static var liveValue: UncheckedSendableDefaults { UncheckedSendableDefaults(.standard) }
  static var testValue: UncheckedSendableDefaults {
    UncheckedSendableDefaults(UserDefaults(suiteName: "ValueStore.test.\(UUID().uuidString)")!)
  }
  static let dependencyName = "\\.defaultAppStorage"
}

extension DependencyValues {
  /// Where `.appStorage` shared values are kept: `UserDefaults.standard` in an app, a suite of its
  /// own in each test.
  public var defaultAppStorage: UserDefaults {
    get { self[AppStorageDependency.self].value }
    set { self[AppStorageDependency.self] = UncheckedSendableDefaults(newValue) }
  }
}
