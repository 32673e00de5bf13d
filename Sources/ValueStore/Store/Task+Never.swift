extension Task where Success == Never, Failure == Never {
  /// Suspends until the current task is cancelled, then throws `CancellationError` — an effect
  /// that lives until its feature goes away, as TCA's (swift-concurrency-extras') `Task.never()`.
  ///
  /// ```swift
  /// case .onAppear:
  ///   return .run { _ in
  ///     defer { analytics.screenClosed() }
  ///     try await Task.never()
  ///   }
  /// ```
  public static func never() async throws -> Never {
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    for await _ in stream {}  // ends when the task is cancelled
    withExtendedLifetime(continuation) {}
    throw _Concurrency.CancellationError()
  }
}
