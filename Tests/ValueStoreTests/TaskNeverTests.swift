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
    let (started, signal) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      signal.yield()
      do {
        try await Task.never()
        Issue.record("returned")
      } catch {
        #expect(error is CancellationError)
      }
      return Task.isCancelled
    }
    for await _ in started { break }
    task.cancel()
    #expect(await task.value)
  }

  @Test func neverOfAValueThrowsCancellationErrorOnlyOnceCancelled() async {
    let (started, signal) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      signal.yield()
      do {
        let value: Int = try await Task<Int, Never>.never()
        Issue.record("returned \(value)")
      } catch {
        #expect(error is CancellationError)
      }
      return Task.isCancelled
    }
    for await _ in started { break }
    task.cancel()
    #expect(await task.value)
  }
}
