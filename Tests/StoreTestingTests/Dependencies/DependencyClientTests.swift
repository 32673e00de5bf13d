import Foundation
import StoreTesting
import Testing
import ValueStore

/// A client declared without a macro: each endpoint defaults to `unimplemented(…)`, so `Client()`
/// is the all-unimplemented test value (TCA's `@DependencyClient`).
struct NumberClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String = unimplemented("NumberClient.fetch")
  var favorite: @Sendable () -> Int = unimplemented("NumberClient.favorite", placeholder: 0)
  var log: @Sendable (String) -> Void = unimplemented("NumberClient.log")
}

extension NumberClient: DependencyKey {
  static let liveValue = NumberClient(fetch: { "\($0) is a number (live)." }, favorite: { 7 }, log: { _ in })
  static let testValue = NumberClient()
}

extension DependencyValues {
  var numberClient: NumberClient {
    get { self[NumberClient.self] }
    set { self[NumberClient.self] = newValue }
  }
}

struct FactState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable { var fact: String?; var favorite = 0 }
  var _$fields = Observed(Fields())
}

struct NumberClientFeature: Reducer {
  enum Action: Equatable, Sendable { case fetch(Int), response(String), favorite }
  @Dependency(\.numberClient) var numberClient
  func reduce(into state: inout FactState, action: Action) -> Effect<Action> {
    switch action {
    case let .fetch(n):
      return .run { send in await send(.response(try await numberClient.fetch(n))) }
    case let .response(fact):
      state.fact = fact
    case .favorite:
      state.favorite = numberClient.favorite()
    }
    return .none
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct DependencyClientTests {
  /// A test overrides the one endpoint it expects; making the client's test value and overriding
  /// part of it is no use of the rest.
  @Test func aTestOverridesOneEndpoint() async {
    let store = TestStore(initialState: FactState()) { NumberClientFeature() } withDependencies: {
      $0.numberClient.fetch = { "\($0) is a good number." }
    }
    await store.send(.fetch(3))
    await store.receive(.response("3 is a good number.")) { $0.fact = "3 is a good number." }
  }

  /// An endpoint the test did not override fails the test, naming it, and returns its placeholder.
  @Test func anUnimplementedEndpointFailsTheTest() async {
    let issues = await recordIssues {
      let store = TestStore(initialState: FactState()) { NumberClientFeature() }
      await store.send(.favorite)
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.contains("Unimplemented: NumberClient.favorite …") == true, "\(issues)")
  }

  /// Outside a test store, a throwing endpoint fails the test and throws `UnimplementedFailure`.
  @Test func anUnimplementedThrowingEndpointThrows() async {
    let issues = await recordIssues {
      @Dependency(\.numberClient) var numberClient
      await #expect(throws: UnimplementedFailure.self) { try await numberClient.fetch(1) }
      numberClient.log("ignored")
    }
    #expect(issues.map(\.message).map { $0.prefix(30) } == ["Unimplemented: NumberClient.fet", "Unimplemented: NumberClient.log"].map { $0.prefix(30) })
  }

  /// `@Dependency(Client.self)` reads a client that is its own key.
  @Test func aClientReadByItsType() {
    withDependencies { $0.numberClient.favorite = { 42 } } operation: {
      @Dependency(NumberClient.self) var client
      #expect(client.favorite() == 42)
    }
  }
}
