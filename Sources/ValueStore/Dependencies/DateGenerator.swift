import Foundation

/// The current date: the system's in an app, a fixed one in tests.
///
/// ```swift
/// @Dependency(\.date) var date
/// state.createdAt = date.now
/// // in a test: withDependencies: { $0.date = .constant(Date(timeIntervalSince1970: 0)) }
/// ```
public struct DateGenerator: Sendable {
  private var generate: @Sendable () -> Date

  public init(_ generate: @escaping @Sendable () -> Date) { self.generate = generate }

  /// The current date; setting it fixes the date (`$0.date.now = Date(timeIntervalSince1970: 0)`
  /// in a test's dependencies, as in TCA).
  public var now: Date {
    get { generate() }
    set { generate = { newValue } }
  }
  public func callAsFunction() -> Date { generate() }

  /// The system's current date.
  public static let live = DateGenerator { Date() }

  /// Always `date`.
  public static func constant(_ date: Date) -> DateGenerator { DateGenerator { date } }
}

private enum DateKey: DependencyKey {
  static let liveValue = DateGenerator.live
  static let dependencyName = "\\.date"
}

extension DependencyValues {
  /// The current date (`DateGenerator.live` live; unimplemented in tests).
  public var date: DateGenerator {
    get { self[DateKey.self] }
    set { self[DateKey.self] = newValue }
  }
}
