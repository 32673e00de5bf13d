/// An endpoint nobody implemented: a closure that reports it when called — a test failure in a
/// test — and returns `placeholder` (or throws ``UnimplementedFailure``).
///
/// The default value of each endpoint of a client, so that `Client()` is the all-unimplemented
/// test value and a test overrides the endpoints it expects to be used (TCA's `@DependencyClient`,
/// without a macro):
///
/// ```swift
/// struct NumberFactClient: Sendable {
///   var fetch: @Sendable (Int) async throws -> String = unimplemented("NumberFactClient.fetch")
///   var count: @Sendable () -> Int = unimplemented("NumberFactClient.count", placeholder: 0)
/// }
/// extension NumberFactClient: TestDependencyKey {
///   static let testValue = NumberFactClient()
/// }
/// // in a test: withDependencies: { $0.numberFact.fetch = { "\($0) is a good number." } }
/// ```
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result = (),
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) -> Result {
  { (_: repeat each Argument) in
    reportUnimplemented(description(), fileID: fileID, filePath: filePath, line: line, column: column)
    return placeholder()
  }
}

/// An unimplemented throwing endpoint: reports it when called and throws ``UnimplementedFailure``.
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) throws -> Result {
  { (_: repeat each Argument) in
    let description = description()
    reportUnimplemented(description, fileID: fileID, filePath: filePath, line: line, column: column)
    throw UnimplementedFailure(description: description)
  }
}

/// An unimplemented asynchronous endpoint: reports it when called and returns `placeholder`.
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result = (),
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) async -> Result {
  { (_: repeat each Argument) in
    reportUnimplemented(description(), fileID: fileID, filePath: filePath, line: line, column: column)
    return placeholder()
  }
}

/// An unimplemented asynchronous throwing endpoint: reports it when called and throws
/// ``UnimplementedFailure``.
public func unimplemented<each Argument, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each Argument) async throws -> Result {
  { (_: repeat each Argument) in
    let description = description()
    reportUnimplemented(description, fileID: fileID, filePath: filePath, line: line, column: column)
    throw UnimplementedFailure(description: description)
  }
}

/// Reports an unimplemented value now and returns `placeholder`: a test value that must be
/// overridden before use.
///
/// ```swift
/// enum CurrentUserKey: DependencyKey {
///   static let liveValue: User? = nil
///   static var testValue: User? { unimplemented(#"@Dependency(\.currentUser)"#, placeholder: nil) }
/// }
/// ```
@_disfavoredOverload
public func unimplemented<Result>(
  _ description: @autoclosure () -> String = "",
  placeholder: @autoclosure () -> Result = (),
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Result {
  reportUnimplemented(description(), fileID: fileID, filePath: filePath, line: line, column: column)
  return placeholder()
}

/// What an unimplemented throwing endpoint throws.
public struct UnimplementedFailure: Error {
  /// The endpoint's description (`"NumberFactClient.fetch"`).
  public let description: String
}

private func reportUnimplemented(
  _ description: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
) {
  DependencyValues.current.reportIssue(
    "Unimplemented\(description.isEmpty ? "" : ": \(description)") …\n\n  Defined at:\n    \(fileID):\(line)",
    at: SourceSite(fileID: fileID, filePath: filePath, line: line, column: column))
}
