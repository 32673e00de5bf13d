import Foundation
import Testing
@testable import ValueStore

/// swift-sharing's AppStorageTests (upstream: Apple platforms only; here `UserDefaults` of
/// swift-corelibs-foundation), translated. Each upstream case declares a value with a default,
/// expects the default in `UserDefaults` at once, then changes `UserDefaults` from outside and
/// expects the `Shared` to follow. Ours does not observe `UserDefaults` (not here yet): that half is
/// replaced by a change through `withLock`, read back from `UserDefaults` and by a new declaration.
///
/// Left out: `stringArray`, `codable`, `optional`, `optionalURL`, `optionalDefault` (no app-storage
/// key for arrays, `Codable` or optional values), `invalidKeyWarning(Suppression)`,
/// `testPersistenceKeySubscription` (no observation of `UserDefaults`), `suiteWarning` (no `store:`).
///
/// Each test has a `UserDefaults` suite of its own (the test dependency values, kept per test).
@Suite(.timeLimit(.minutes(1)))
struct AppStorageUpstreamTests {
  @Dependency(\.defaultAppStorage) var store

  /// A new declaration of `key`'s value, with another default: what it loads from `UserDefaults`
  /// (a new dependency context, so not the reference of the test's context).
  func reloaded<Key: SharedKey>(_ makeKey: () -> Key, default value: Key.Value) -> Key.Value {
    let store = self.store
    return withDependencies {
      $0 = .test
      $0.defaultAppStorage = store
    } operation: {
      Shared(wrappedValue: value, makeKey()).wrappedValue
    }
  }

  @Test func bool() {
    @Shared(.appStorage("bool")) var bool = true
    #expect(store.bool(forKey: "bool"))
    $bool.withLock { $0 = false }
    #expect(store.object(forKey: "bool") as? Bool == false)
    #expect(reloaded({ .appStorage("bool") }, default: true) == false)
  }

  @Test func int() {
    @Shared(.appStorage("int")) var int = 42
    $int.withLock { $0 = 1729 }
    #expect(store.integer(forKey: "int") == 1729)
    #expect(int == 1729)
    #expect(reloaded({ .appStorage("int") }, default: 0) == 1729)
  }

  @Test func double() {
    @Shared(.appStorage("double")) var double = 1.2
    $double.withLock { $0 = 3.4 }
    #expect(store.double(forKey: "double") == 3.4)
    #expect(double == 3.4)
    #expect(reloaded({ .appStorage("double") }, default: 0.0) == 3.4)
  }

  @Test func string() {
    @Shared(.appStorage("string")) var string = "Blob"
    $string.withLock { $0 = "Blob, Jr." }
    #expect(store.string(forKey: "string") == "Blob, Jr.")
    #expect(string == "Blob, Jr.")
    #expect(reloaded({ .appStorage("string") }, default: "") == "Blob, Jr.")
  }

  /// A URL is stored as `UserDefaults.set(_:forKey:)` does: readable with `url(forKey:)`.
  @Test func url() {
    @Shared(.appStorage("url")) var url = URL(fileURLWithPath: "/dev")
    $url.withLock { $0 = URL(fileURLWithPath: "/tmp/") }
    #expect(url == URL(fileURLWithPath: "/tmp/"))
    #expect(reloaded({ .appStorage("url") }, default: URL(fileURLWithPath: "/")) == URL(fileURLWithPath: "/tmp/"))
    #expect(store.url(forKey: "url") == URL(fileURLWithPath: "/tmp/"))
  }

  @Test func data() {
    @Shared(.appStorage("data")) var data = Data([4, 2])
    $data.withLock { $0 = Data([1, 7, 2, 9]) }
    #expect(store.data(forKey: "data") == Data([1, 7, 2, 9]))
    #expect(data == Data([1, 7, 2, 9]))
    #expect(reloaded({ .appStorage("data") }, default: Data()) == Data([1, 7, 2, 9]))
  }

  @Test func date() {
    @Shared(.appStorage("date")) var date = Date(timeIntervalSinceReferenceDate: 0)
    $date.withLock { $0 = Date(timeIntervalSince1970: 0) }
    #expect(store.object(forKey: "date") as? Date == Date(timeIntervalSince1970: 0))
    #expect(date == Date(timeIntervalSince1970: 0))
    #expect(reloaded({ .appStorage("date") }, default: Date.distantPast) == Date(timeIntervalSince1970: 0))
  }

  @Test func rawRepresentableInt() {
    @Shared(.appStorage("raw-representable-int")) var id = IntID(rawValue: 42)
    $id.withLock { $0 = IntID(rawValue: 1729) }
    #expect(store.integer(forKey: "raw-representable-int") == 1729)
    #expect(id == IntID(rawValue: 1729))
    #expect(reloaded({ .appStorage("raw-representable-int") }, default: IntID(rawValue: 0)) == IntID(rawValue: 1729))
  }

  @Test func rawRepresentableString() {
    @Shared(.appStorage("raw-representable-string")) var id = StringID(rawValue: "Blob")
    $id.withLock { $0 = StringID(rawValue: "Blob, Jr.") }
    #expect(store.string(forKey: "raw-representable-string") == "Blob, Jr.")
    #expect(id == StringID(rawValue: "Blob, Jr."))
    #expect(
      reloaded({ .appStorage("raw-representable-string") }, default: StringID(rawValue: ""))
        == StringID(rawValue: "Blob, Jr."))
  }

  @Test func rawRepresentableCodableString() {
    @Shared(.appStorage("raw-representable-string")) var id = CodableStringID(rawValue: "Blob")
    $id.withLock { $0 = CodableStringID(rawValue: "Blob, Jr.") }
    #expect(store.string(forKey: "raw-representable-string") == "Blob, Jr.")
    #expect(id == CodableStringID(rawValue: "Blob, Jr."))
  }
}

private struct IntID: RawRepresentable, Equatable, Sendable { var rawValue: Int }
private struct StringID: RawRepresentable, Equatable, Sendable { var rawValue: String }
private struct CodableStringID: Codable, RawRepresentable, Equatable, Sendable { var rawValue: String }
