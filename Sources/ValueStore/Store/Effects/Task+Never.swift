extension Task where Success == Never, Failure == Never {
  /// Suspends until the current task is cancelled, then throws `CancellationError` — an effect
  /// that lives until its feature goes away, as TCA's (swift-concurrency-extras') `Task.never()`,
  /// with its signature: it returns `Void`, so code after it (run only if it could return) is not
  /// flagged unreachable.
  ///
  /// ```swift
  /// case .onAppear:
  ///   return .run { _ in
  ///     defer { analytics.screenClosed() }
  ///     try await Task.never()
  ///   }
  /// ```
  public static func never() async throws {
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    for await _ in stream {}  // ends when the task is cancelled
    withExtendedLifetime(continuation) {}
    throw _Concurrency.CancellationError()
  }
}

extension Task where Failure == Never {
  /// Suspends until the current task is cancelled, then throws `CancellationError`: a value of any
  /// type that never comes, as swift-concurrency-extras' `Task<Success, Never>.never()`.
  ///
  /// ```swift
  /// $0.apiClient.fetch = { _ in try await Task<User, Never>.never() }   // a request in flight
  /// ```
  public static func never() async throws -> Success {
    let (stream, continuation) = AsyncStream<Success>.makeStream()
    for await element in stream { return element }  // none comes: ends when the task is cancelled
    withExtendedLifetime(continuation) {}
    throw _Concurrency.CancellationError()
  }
}
