import Foundation
import ValueStore

/// Dependencies shaped like those of swift-dependencies' own tests (facts carried over, code not).

/// A value per context: live 1, preview 2, test 3.
struct FullDependency: DependencyKey, Sendable {
  var value: Int
  static var liveValue: FullDependency { Self(value: 1) }
  static var previewValue: FullDependency { Self(value: 2) }
  static var testValue: FullDependency { Self(value: 3) }
}

/// A test-only client with state: its test value counts from 0, and is made once.
struct ReuseClient: TestDependencyKey {
  var count: @Sendable () -> Int
  var setCount: @Sendable (Int) -> Void
  static var testValue: ReuseClient {
    let count = LockIsolated(0)
    return ReuseClient(count: { count.value }, setCount: { count.setValue($0) })
  }
}

/// Counts how many times its test value is made.
struct CountInitDependency: TestDependencyKey {
  static let initCount = LockIsolated(0)
  var fetch: @Sendable () -> Int
  static var testValue: CountInitDependency {
    initCount.withValue { $0 += 1 }
    return CountInitDependency { 42 }
  }
}

/// An actor counting up: a fresh one per test.
actor CachedDependency: TestDependencyKey {
  static var testValue: CachedDependency { CachedDependency() }
  private var count = 0
  func increment() -> Int {
    count += 1
    return count
  }
}

struct SomeDependency: TestDependencyKey {
  var fetch: @Sendable () -> Int
  static let testValue = SomeDependency { 42 }
}

/// Reads `someDependency` when made (its `@Dependency` is resolved at each call).
struct ChildDependencyEarlyBinding: TestDependencyKey {
  var fetch: @Sendable () -> Int
  static var testValue: ChildDependencyEarlyBinding {
    @Dependency(\.someDependency) var someDependency
    return ChildDependencyEarlyBinding { someDependency.fetch() }
  }
}

/// Reads `someDependency` at each call.
struct ChildDependencyLateBinding: TestDependencyKey {
  var fetch: @Sendable () -> Int
  static var testValue: ChildDependencyLateBinding {
    ChildDependencyLateBinding {
      @Dependency(\.someDependency) var someDependency
      return someDependency.fetch()
    }
  }
}

/// A test-only client with one endpoint.
struct ClientWithEndpoint: TestDependencyKey {
  var get: @Sendable () -> Int
  static var testValue: ClientWithEndpoint { ClientWithEndpoint { 42 } }
}

/// A test value that must be overridden: using it reports, and it is nil.
enum OptionalDependencyKey: DependencyKey {
  static let liveValue: String? = "live"
  static var testValue: String? { unimplemented(#"@Dependency(\.optionalDependency)"#, placeholder: nil) }
}

/// A key with a test value only.
enum TestOnlyKey: TestDependencyKey {
  static let testValue = 42
}

enum IntKey: DependencyKey {
  static let liveValue = -1
  static let testValue = 42
}

enum StringKey: DependencyKey {
  static let liveValue = "hello"
  static let testValue = "goodbye"
}

extension DependencyValues {
  var fullDependency: FullDependency {
    get { self[FullDependency.self] }
    set { self[FullDependency.self] = newValue }
  }
  var reuseClient: ReuseClient {
    get { self[ReuseClient.self] }
    set { self[ReuseClient.self] = newValue }
  }
  var countInitDependency: CountInitDependency { self[CountInitDependency.self] }
  var cachedDependency: CachedDependency { self[CachedDependency.self] }
  var someDependency: SomeDependency {
    get { self[SomeDependency.self] }
    set { self[SomeDependency.self] = newValue }
  }
  var childDependencyEarlyBinding: ChildDependencyEarlyBinding { self[ChildDependencyEarlyBinding.self] }
  var childDependencyLateBinding: ChildDependencyLateBinding { self[ChildDependencyLateBinding.self] }
  var optionalDependency: String? {
    get { self[OptionalDependencyKey.self] }
    set { self[OptionalDependencyKey.self] = newValue }
  }
  var missingLiveDependency: Int { self[TestOnlyKey.self] }
  var int: Int {
    get { self[IntKey.self] }
    set { self[IntKey.self] = newValue }
  }
  var string: String {
    get { self[StringKey.self] }
    set { self[StringKey.self] = newValue }
  }
}

let someDate = Date(timeIntervalSince1970: 1_234_567_890)
