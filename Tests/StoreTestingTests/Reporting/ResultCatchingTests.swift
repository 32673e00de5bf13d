import Testing
import ValueStore

@Suite struct ResultCatchingTests {
  struct Failure: Error {}

  @Test func anAsyncBodysValueOrErrorBecomesAResult() async {
    let success = await Result { () async throws -> Int in 42 }
    #expect((try? success.get()) == 42)
    let failure = await Result { () async throws -> Int in throw Failure() }
    #expect(throws: Failure.self) { try failure.get() }
  }
}

extension ResultCatchingTests {
  @Test func aSynchronousBodyStillUsesTheStandardLibrarysInitializer() async {
    func compute() throws -> Int { 1 }
    let sync = Result { try compute() }
    #expect((try? sync.get()) == 1)
  }
}

extension ResultCatchingTests {
  @MainActor final class Model {
    var fetched = 0
    func fetch() async throws -> Int { fetched += 1; return fetched }
  }

  /// On the main actor, with a closure that captures main-actor state.
  @MainActor @Test func aMainActorClosureIsAccepted() async {
    let model = Model()
    let result = await Result { try await model.fetch() }
    #expect((try? result.get()) == 1)
  }
}
