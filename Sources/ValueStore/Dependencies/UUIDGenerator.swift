import Foundation
import Synchronization

/// Makes UUIDs: random in an app, predictable in tests.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// let id = uuid()
/// // in a test:
/// TestStore(initialState: …) { … } withDependencies: { $0.uuid = .incrementing }
/// ```
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  public init(_ generate: @escaping @Sendable () -> UUID) { self.generate = generate }

  public func callAsFunction() -> UUID { generate() }

  /// Random UUIDs.
  public static let random = UUIDGenerator { UUID() }

  /// 00000000-0000-0000-0000-000000000000, then …001, …002: each generator counts from zero.
  public static var incrementing: UUIDGenerator {
    let next = Atomic<UInt64>(0)
    return UUIDGenerator { UUID(Int(truncatingIfNeeded: next.wrappingAdd(1, ordering: .relaxed).oldValue)) }
  }

  /// Always `uuid`.
  public static func constant(_ uuid: UUID) -> UUIDGenerator { UUIDGenerator { uuid } }
}

extension UUID {
  /// The UUID an ``UUIDGenerator/incrementing`` generator makes `intValue`-th, counting from 0, for
  /// a test's expectations (TCA's `UUID(0)`).
  ///
  /// ```swift
  /// UUID(0)   // 00000000-0000-0000-0000-000000000000
  /// UUID(10)  // 00000000-0000-0000-0000-00000000000A
  /// ```
  public init(_ intValue: Int) {
    require(intValue >= 0, "UUID(_:): \(intValue) is negative")
    self.init(uuidString: "00000000-0000-0000-0000-" + String(format: "%012llx", UInt64(intValue)))!
  }
}

private enum UUIDKey: DependencyKey {
  static let liveValue = UUIDGenerator.random
  static let dependencyName = "\\.uuid"
}

extension DependencyValues {
  /// UUIDs (`UUIDGenerator.random` live; unimplemented in tests).
  public var uuid: UUIDGenerator {
    get { self[UUIDKey.self] }
    set { self[UUIDKey.self] = newValue }
  }
}
