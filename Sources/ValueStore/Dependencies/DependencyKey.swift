/// Declares a dependency: its type and the values it has in an app (`liveValue`), in tests
/// (`testValue`) and in previews (`previewValue`).
///
/// ```swift
/// struct NumberFactClient: Sendable { var fetch: @Sendable (Int) async throws -> String }
///
/// enum NumberFactKey: DependencyKey {
///   static let liveValue = NumberFactClient { n in try await api.fact(n) }
///   static let testValue = NumberFactClient { n in "\(n) is a good number." }  // optional
/// }
///
/// extension DependencyValues {
///   var numberFact: NumberFactClient {
///     get { self[NumberFactKey.self] }
///     set { self[NumberFactKey.self] = newValue }
///   }
/// }
/// ```
///
/// A key without a `testValue` is *unimplemented* in tests: using it without overriding it in the
/// test fails the test, naming the key — a test never talks to the live service by accident.
public protocol DependencyKey {
  associatedtype Value: Sendable
  /// The value in an app.
  static var liveValue: Value { get }
  /// The value in tests (``DependencyContext/test``). The default fails the test and returns
  /// `liveValue`.
  static var testValue: Value { get }
  /// The value in previews. The default is `liveValue`.
  static var previewValue: Value { get }
  /// How failures name it: by default the key's type; the built-in keys give their property
  /// (`\.date`).
  static var dependencyName: String { get }
}

extension DependencyKey {
  public static var previewValue: Value { liveValue }

  public static var dependencyName: String { "\(Self.self)" }

  public static var testValue: Value {
    let ownKey = dependencyName == "\(Self.self)"
    DependencyValues.current.reportUnimplemented(
      "Unimplemented dependency: \(dependencyName) was used in a test without being overridden, and has "
        + "no testValue. Override it (withDependencies: { $0.… = … })"
        + (ownKey ? " or give \(Self.self) a testValue." : "."))
    return liveValue
  }
}

/// Where the code runs, which decides the default value of each dependency.
public enum DependencyContext: Sendable {
  case live, test, preview
}
