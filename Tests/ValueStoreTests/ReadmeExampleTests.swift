import Testing
import ValueStore

/// The README's examples, verbatim inside a namespace, so they keep compiling and doing what the
/// README says.
enum Readme {
  struct Counter: ObservableState, Equatable {
    struct Fields: Equatable { var count = 0; var fact: String? }
    var _$fields = Observed(Fields())
    var isEven: Bool { self.count.isMultiple(of: 2) }   // tracked through `count` only
  }

  struct CounterFeature: Reducer {
    enum Action: Equatable, Sendable { case increment, factButtonTapped, factResponse(String) }
    let fact: @Sendable (Int) async throws -> String

    func reduce(into state: inout Counter, action: Action) -> Effect<Action> {
      switch action {
      case .increment:
        state.count += 1
        return .none
      case .factButtonTapped:
        return .run { [count = state.count] send in
          await send(.factResponse(try await fact(count)))
        }
        .cancellable(id: "fact", cancelInFlight: true)
      case let .factResponse(fact):
        state.fact = fact
        return .none
      }
    }
  }
}


@MainActor
@Suite struct ReadmeExampleTests {
  @Test func observableStateExample() {
    let printed = Warnings()
    let model = ObservedRoot(Readme.Counter())
    let token = observe { printed.append("count: \(model.count)") }
    model.mutate { $0.fact = "…" }
    let snapshot = model.value
    model.mutate { $0.count += 1 }
    #expect(printed.all == ["count: 0", "count: 1"])
    #expect(snapshot.count == 0)
    _ = token
  }

  @Test func storeExample() async {
    let printed = Warnings()
    let store = Store(initialState: Readme.Counter(), reducer: Readme.CounterFeature(fact: { "\($0) is a number" }))
    let token = store.observe { printed.append("\(store.count)") }
    store.send(.increment)
    await store.send(.factButtonTapped).finish()
    #expect(printed.all == ["0", "1"])
    #expect(store.fact == "1 is a number")
    _ = token
  }
}
