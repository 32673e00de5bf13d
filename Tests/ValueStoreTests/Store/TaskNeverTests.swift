import Testing
import ValueStore

/// `Task.never()` with swift-concurrency-extras' signatures: `Void` for `Task<Never, Never>`, and
/// `Success` for any `Task<Success, Never>`; both throw `CancellationError` once cancelled.
@Suite(.timeLimit(.minutes(1))) struct TaskNeverTests {
  @Test func neverHasUpstreamsSignatures() {
    let _: @Sendable () async throws -> Void = Task.never
    let _: @Sendable () async throws -> Int = Task<Int, Never>.never
  }

  @Test func neverThrowsCancellationErrorOnlyOnceCancelled() async {
    #expect(await Self.throwsCancellationErrorOnceCancelled { try await Task.never() })
  }

  @Test func neverOfAValueThrowsCancellationErrorOnlyOnceCancelled() async {
    #expect(
      await Self.throwsCancellationErrorOnceCancelled {
        let value: Int = try await Task<Int, Never>.never()
        Issue.record("returned \(value)")
      })
  }

  /// Runs `body` in a task, cancels it once it started, and returns whether the task saw itself
  /// cancelled; `body` must throw `CancellationError` and nothing else.
  static func throwsCancellationErrorOnceCancelled(_ body: @escaping @Sendable () async throws -> Void) async -> Bool {
    let (started, signal) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      signal.yield()
      do {
        try await body()
        Issue.record("returned")
      } catch {
        #expect(error is CancellationError)
      }
      return Task.isCancelled
    }
    for await _ in started { break }
    task.cancel()
    return await task.value
  }
}
