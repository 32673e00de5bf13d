import StoreTesting
import Testing
import ValueStore

/// `receive(\.nested.case)` and `receive(\.nested.case, payload)`: TCA's spelling, without a macro.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct TestStoreCaseKeyPathTests {
  struct Feature: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable { var log: [String] = [] }
      var _$fields = Observed(Fields())
    }
    enum Child: Sendable { case loaded(Int), timerUpdated }
    enum Action: Sendable {
      case start
      case child(Child)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start: return .merge(.send(.child(.timerUpdated)), .send(.child(.loaded(42))))
      case .child(.timerUpdated): state.log.append("tick")
      case let .child(.loaded(value)): state.log.append("\(value)")
      }
      return .none
    }
  }

  @Test func receivesNestedCasesByName() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.start)
    await store.receive(\.child.timerUpdated) { $0.log = ["tick"] }
    await store.receive(\.child.loaded, 42) { $0.log = ["tick", "42"] }
  }

  @Test func aDifferentCaseFailsNamingThePath() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.start)
    await withKnownIssue {
      await store.receive(\.child.loaded) { $0.log = ["tick"] }
    } matching: { issue in
      "\(issue)".contains("\\.child.loaded")
    }
    await store.receive(\.child.loaded, 42) { $0.log = ["tick", "42"] }
  }

  @Test func aDifferentPayloadFails() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    store.exhaustivity = .off
    await store.send(.start)
    await store.receive(\.child.timerUpdated)
    await withKnownIssue {
      await store.receive(\.child.loaded, 41, timeout: .milliseconds(100))
    }
  }
}
