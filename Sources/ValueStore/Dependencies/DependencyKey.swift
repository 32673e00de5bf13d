/// Declares a dependency that has a value for tests (`testValue`) and previews (`previewValue`,
/// by default the test value), and no live value here: an interface module declares the client
/// and its test value, the module implementing it conforms it to ``DependencyKey``.
///
/// A type can be its own key, and is then read by its type:
///
/// ```swift
/// struct AudioPlayer: TestDependencyKey {
///   var play: @Sendable (URL) async throws -> Void = unimplemented("AudioPlayer.play")
///   static let testValue = AudioPlayer()
/// }
///
/// @Dependency(AudioPlayer.self) var audioPlayer
/// ```
///
/// Used in a live context without a live value, it reports that and uses the test value.
public protocol TestDependencyKey<Value> {
  associatedtype Value: Sendable = Self
  /// The value in tests (``DependencyContext/test``).
  static var testValue: Value { get }
  /// The value in previews. The default is `testValue`.
  static var previewValue: Value { get }
  /// How failures name it: by default the key's type; the built-in keys give their property
  /// (`\.date`).
  static var dependencyName: String { get }
}

extension TestDependencyKey {
  public static var previewValue: Value { testValue }

  public static var dependencyName: String { "\(Self.self)" }
}

/// Declares a dependency: its type and the values it has in an app (`liveValue`), in tests
/// (`testValue`) and in previews (`previewValue`).
///
/// ```swift
/// struct NumberFactClient: Sendable {
///   var fetch: @Sendable (Int) async throws -> String = unimplemented("NumberFactClient.fetch")
/// }
///
/// extension NumberFactClient: DependencyKey {
///   static let liveValue = NumberFactClient { n in try await api.fact(n) }
///   static let testValue = NumberFactClient()  // every endpoint unimplemented
/// }
///
/// extension DependencyValues {
///   var numberFact: NumberFactClient {
///     get { self[NumberFactClient.self] }
///     set { self[NumberFactClient.self] = newValue }
///   }
/// }
/// ```
///
/// A key without a `testValue` is *unimplemented* in tests: using it without overriding it in the
/// test fails the test, naming the key — a test never talks to the live service by accident.
/// Overriding it, or part of it (`$0.numberFact.fetch = { … }`), is not a use.
public protocol DependencyKey<Value>: TestDependencyKey {
  /// The value in an app.
  static var liveValue: Value { get }
  // Repeated from `TestDependencyKey`, where the compiler would not infer `Value` from
  // `liveValue` alone (swift#61077, as in swift-dependencies).
  associatedtype Value = Self
  static var testValue: Value { get }
  static var previewValue: Value { get }
}

extension DependencyKey {
  /// The live value.
  public static var previewValue: Value { liveValue }

  /// Reports the dependency unimplemented (a test failure when it is used) and returns
  /// `previewValue`.
  public static var testValue: Value {
    let ownKey = dependencyName == "\(Self.self)"
    DependencyValues.current.reportIssue(
      "Unimplemented dependency: \(dependencyName) was used in a test without being overridden, and has "
        + "no testValue. Override it (withDependencies: { $0.… = … })"
        + (ownKey ? " or give \(Self.self) a testValue." : "."))
    return previewValue
  }
}
