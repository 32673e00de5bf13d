import Testing
import ValueStore

/// `AsyncStream.finished`/`.never` and `AsyncThrowingStream.finished(throwing:)`/`.never`, as
/// swift-concurrency-extras has them: ready-made streams for dependencies' endpoints.
@Suite(.timeLimit(.minutes(1))) struct AsyncStreamFinishedTests {
  struct Failure: Error, Equatable {}

  @Test func finishedEndsAtOnceWithoutElements() async {
    var elements: [Int] = []
    for await element in AsyncStream<Int>.finished { elements.append(element) }
    #expect(elements.isEmpty)
  }

  @Test func finishedThrowingNilEndsNormally() async throws {
    var elements: [Int] = []
    for try await element in AsyncThrowingStream<Int, any Error>.finished(throwing: nil) { elements.append(element) }
    for try await element in AsyncThrowingStream<Int, any Error>.finished() { elements.append(element) }
    #expect(elements.isEmpty)
  }

  @Test func finishedThrowingAnErrorThrowsItAtTheFirstElement() async {
    await #expect(throws: Failure()) {
      for try await _ in AsyncThrowingStream<Int, any Error>.finished(throwing: Failure()) {
        Issue.record("an element")
      }
    }
  }

  @Test func neverEndsOnlyWhenTheIteratingTaskIsCancelled() async {
    let (started, signal) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      signal.yield()
      var elements = 0
      for await _ in AsyncStream<Int>.never { elements += 1 }
      return (elements, Task.isCancelled)  // ended by cancellation, not before
    }
    for await _ in started { break }
    task.cancel()
    let (elements, cancelled) = await task.value
    #expect(elements == 0)
    #expect(cancelled)
  }

  @Test func throwingNeverEndsOnlyWhenTheIteratingTaskIsCancelled() async throws {
    let (started, signal) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      signal.yield()
      var elements = 0
      do {
        for try await _ in AsyncThrowingStream<Int, any Error>.never { elements += 1 }
      } catch {
        Issue.record(error)  // ends without throwing
      }
      return (elements, Task.isCancelled)
    }
    for await _ in started { break }
    task.cancel()
    let (elements, cancelled) = await task.value
    #expect(elements == 0)
    #expect(cancelled)
  }
}
