extension Result where Failure == any Error {
  /// The result of an async throwing `body`: what an effect sends back (TCA's `Result` helper).
  ///
  /// ```swift
  /// return .run { send in
  ///   await send(.factResponse(Result { try await factClient.fetch(count) }))
  /// }
  /// ```
  ///
  /// `body` runs on the caller's actor (a main-actor test or model may pass a closure that is not
  /// `Sendable`).
  public init(
    isolation: isolated (any Actor)? = #isolation, catching body: () async throws -> Success
  ) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
