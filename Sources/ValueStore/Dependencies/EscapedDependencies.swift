import Foundation

/// Runs `operation` with a continuation that brings back the dependencies in force here, for code
/// that runs later outside this task (a `DispatchQueue` callback, an `AsyncStream` closure),
/// where they would otherwise be lost.
///
/// ```swift
/// withEscapedDependencies { dependencies in
///   DispatchQueue.main.async {
///     dependencies.yield {
///       @Dependency(\.apiClient) var apiClient   // the values in force at withEscapedDependencies
///     }
///   }
/// }
/// ```
public func withEscapedDependencies<R>(_ operation: (DependencyValues.Continuation) throws -> R) rethrows -> R {
  try operation(DependencyValues.Continuation())
}

/// The asynchronous ``withEscapedDependencies(_:)``.
public func withEscapedDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ operation: (DependencyValues.Continuation) async throws -> R
) async rethrows -> R {
  try await operation(DependencyValues.Continuation())
}

extension DependencyValues {
  /// The dependencies in force where it was made, to run code with later
  /// (``withEscapedDependencies(_:)``).
  public struct Continuation: Sendable {
    let dependencies = DependencyValues.current

    /// Runs `operation` with the escaped dependencies in force.
    public func yield<R>(_ operation: () throws -> R) rethrows -> R {
      try DependencyValues.withCurrent(dependencies, operation: operation)
    }

    /// Runs `operation` with the escaped dependencies in force.
    public func yield<R>(isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R) async rethrows -> R {
      try await DependencyValues.withCurrent(dependencies, operation: operation)
    }
  }
}

/// Runs `operation` with the dependencies `model` was made with (its `@Dependency` properties', or
/// those in force when `withDependencies` returned it), changed by `update`, and the values in
/// force here on top: a child model made in it inherits its parent's.
///
/// ```swift
/// final class ParentModel {
///   @Dependency(\.apiClient) var apiClient
///   func showChild() -> ChildModel { withDependencies(from: self) { ChildModel() } }
/// }
/// ```
///
/// A model holding no `@Dependency` and not returned by `withDependencies` is reported.
@discardableResult
public func withDependencies<Model: AnyObject, R>(
  from model: Model,
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> R,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) rethrows -> R {
  guard let values = DependencyObjects.shared.values(of: model) else {
    reportDependencyIssue(
      noDependenciesMessage(Model.self), fileID: fileID, filePath: filePath, line: line, column: column)
    return try operation()
  }
  var merged = values.merging(DependencyValues.current)
  try merged.override(update)
  return try withDependencyValues(merged, operation: operation)
}

/// The asynchronous ``withDependencies(from:_:operation:fileID:filePath:line:column:)``.
@discardableResult
public func withDependencies<Model: AnyObject, R>(
  from model: Model,
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) async throws -> Void,
  operation: () async throws -> R,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async rethrows -> R {
  guard let values = DependencyObjects.shared.values(of: model) else {
    reportDependencyIssue(
      noDependenciesMessage(Model.self), fileID: fileID, filePath: filePath, line: line, column: column)
    return try await operation()
  }
  var merged = values.merging(DependencyValues.current)
  try await merged.override(update)
  return try await withDependencyValues(merged, operation: operation)
}

/// ``withDependencies(from:_:operation:fileID:filePath:line:column:)`` changing nothing.
@discardableResult
public func withDependencies<Model: AnyObject, R>(
  from model: Model,
  operation: () throws -> R,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) rethrows -> R {
  try withDependencies(
    from: model, { _ in }, operation: operation, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The asynchronous ``withDependencies(from:operation:fileID:filePath:line:column:)``.
@discardableResult
public func withDependencies<Model: AnyObject, R>(
  from model: Model,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async rethrows -> R {
  try await withDependencies(
    from: model, { _ in }, operation: operation, fileID: fileID, filePath: filePath, line: line, column: column)
}

private func noDependenciesMessage(_ model: Any.Type) -> String {
  "withDependencies(from:) was given a \(model) that has no dependencies to pass on: make it inside "
    + "withDependencies, or give it a @Dependency property."
}

/// The objects `withDependencies` returned, weakly, with the values they were made with.
final class DependencyObjects: @unchecked Sendable {  // `entries` is guarded by `lock`
  static let shared = DependencyObjects()

  private struct Entry {
    weak var object: AnyObject?
    let values: DependencyValues
  }

  private let lock = Lock()
  private var entries: [ObjectIdentifier: Entry] = [:]
  /// Entries to keep before the next sweep of released objects.
  private var sweepAt = 64

  /// Remembers `result`'s values if it is an object.
  func remember<R>(_ result: R, _ values: DependencyValues) {
    guard R.self is AnyClass else { return }
    let object = result as AnyObject
    lock.withLock {
      entries[ObjectIdentifier(object)] = Entry(object: object, values: values)
      if entries.count >= sweepAt {
        entries = entries.filter { $0.value.object != nil }
        sweepAt = max(64, entries.count * 2)
      }
    }
  }

  /// The values `object` was made with: its first `@Dependency`'s, or those `withDependencies`
  /// returned it with.
  func values(of object: AnyObject) -> DependencyValues? {
    for child in Mirror(reflecting: object).children {
      if let dependency = child.value as? any HasInitialDependencies { return dependency.initialValues }
    }
    return lock.withLock {
      guard let entry = entries[ObjectIdentifier(object)], entry.object === object else { return nil }
      return entry.values
    }
  }
}
