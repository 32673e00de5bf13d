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
  public let key: String
  let defaults: UncheckedSendableDefaults
  private let read: @Sendable (Any) -> Value?
  private let write: @Sendable (Value) -> Any

  init(_ key: String, read: @escaping @Sendable (Any) -> Value?, write: @escaping @Sendable (Value) -> Any) {
    self.key = key
    defaults = UncheckedSendableDefaults(DependencyValues.current.defaultAppStorage)
    self.read = read
    self.write = write
  }

  public var id: AppStorageID { AppStorageID(key: key, defaults: ObjectIdentifier(defaults.value)) }

  public func load() -> Value? { defaults.value.object(forKey: key).flatMap(read) }

  public func save(_ value: Value) { defaults.value.set(write(value), forKey: key) }
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
    AppStorageKey(key, read: { $0 as? Bool }, write: { $0 })
  }
  /// An `Int` kept in `UserDefaults` under `key`.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Int> {
    AppStorageKey(key, read: { $0 as? Int }, write: { $0 })
  }
  /// A `Double` kept in `UserDefaults` under `key`.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Double> {
    AppStorageKey(key, read: { $0 as? Double }, write: { $0 })
  }
  /// A `String` kept in `UserDefaults` under `key`.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<String> {
    AppStorageKey(key, read: { $0 as? String }, write: { $0 })
  }
  /// `Data` kept in `UserDefaults` under `key`.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Data> {
    AppStorageKey(key, read: { $0 as? Data }, write: { $0 })
  }
  /// A `URL` kept in `UserDefaults` under `key` (as its absolute string).
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<URL> {
    AppStorageKey(key, read: { ($0 as? String).flatMap(URL.init(string:)) }, write: { $0.absoluteString })
  }
  /// A `Date` kept in `UserDefaults` under `key`.
  public static func appStorage(_ key: String) -> Self where Self == AppStorageKey<Date> {
    AppStorageKey(key, read: { $0 as? Date }, write: { $0 })
  }
  /// A value kept in `UserDefaults` under `key` as its `String` raw value.
  public static func appStorage<Value: RawRepresentable & Sendable>(_ key: String) -> Self
  where Self == AppStorageKey<Value>, Value.RawValue == String {
    AppStorageKey(key, read: { ($0 as? String).flatMap(Value.init(rawValue:)) }, write: { $0.rawValue })
  }
  /// A value kept in `UserDefaults` under `key` as its `Int` raw value.
  public static func appStorage<Value: RawRepresentable & Sendable>(_ key: String) -> Self
  where Self == AppStorageKey<Value>, Value.RawValue == Int {
    AppStorageKey(key, read: { ($0 as? Int).flatMap(Value.init(rawValue:)) }, write: { $0.rawValue })
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
