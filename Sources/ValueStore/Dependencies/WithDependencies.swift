/// Runs `operation` with the dependencies `update` changes; effects made in it, and objects made
/// in it (their `@Dependency` properties), keep them.
///
/// ```swift
/// let id = withDependencies { $0.uuid = .incrementing } operation: {
///   @Dependency(\.uuid) var uuid
///   return uuid()
/// }
/// ```
///
/// Reading a dependency in `update` to override part of it (`$0.apiClient.fetch = { … }`) is
/// not a use of it: a key without a test value is not reported there.
@discardableResult
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void, operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues.current
  try values.override(update)
  return try withDependencyValues(values, operation: operation)
}

/// The asynchronous ``withDependencies(_:operation:)``; it runs where it is called (on the main
/// actor from main-actor code).
@discardableResult
public func withDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) async throws -> Void,
  operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues.current
  try await values.override(update)
  return try await withDependencyValues(values, operation: operation)
}

/// Runs `operation` with `values` in force; an object it returns keeps them
/// (``withDependencies(from:_:operation:fileID:filePath:line:column:)``).
func withDependencyValues<R>(_ values: DependencyValues, operation: () throws -> R) rethrows -> R {
  try DependencyValues.withCurrent(values) {
    let result = try operation()
    DependencyObjects.shared.remember(result, values)
    return result
  }
}

/// The asynchronous ``withDependencyValues(_:operation:)``.
func withDependencyValues<R>(
  _ values: DependencyValues, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> R
) async rethrows -> R {
  try await DependencyValues.withCurrent(values) {
    let result = try await operation()
    DependencyObjects.shared.remember(result, values)
    return result
  }
}

/// Sets the dependencies' default values for the rest of the process (in a Swift Testing test,
/// for the rest of the test), at the app's entry point:
///
/// ```swift
/// @main struct MyApp: App {
///   init() {
///     prepareDependencies { $0.defaultDatabase = try! DatabaseQueue(path: …) }
///   }
/// }
/// ```
///
/// A dependency can be prepared once, and not after it was used: that is reported and changes
/// nothing (a preview may prepare again). To override one in a scope, use ``withDependencies(_:operation:)``.
@discardableResult
public func prepareDependencies<R>(
  _ update: (inout DependencyValues) throws -> R,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) rethrows -> R {
  let current = DependencyValues.current
  let context = current.context
  // Reading a dependency here (to prepare part of it) makes its default in a cache of its own:
  // the prepared value is the first in the real one.
  var values = DependencyValues(context: context)
  var result: R?
  try values.override { result = try update(&$0) }
  if let prepared = values.overriddenContext, prepared != context {
    if !current.cache.prepare(prepared, for: DependencyCache.Key(ObjectIdentifier(DependencyContext.self), .live)) {
      reportDependencyIssue(
        "The dependency context has already been prepared.", fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }
  for (id, value) in values.overriddenValues where !current.cache.prepare(value, for: DependencyCache.Key(id, values.context)) {
    reportDependencyIssue(
      "A dependency (\(type(of: value))) has already been used or prepared: it can be prepared once, before "
        + "its first use. Prepare dependencies as early as possible; to override one in a scope, use withDependencies.",
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
  return result!
}
