import StoreTesting
import Testing
import ValueStore

/// `withTaskCancellation(id:)` and `Task.cancel(id:)`: cancellation by id from inside an effect, or
/// outside any store (TCA's `TaskCancellationTests` and `EffectRunTests`).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct TaskCancellationTests {
  enum CancelID { case task, response, search }

  /// Outside any store: the process's table.
  @Test func testCancellation() async {
    let (started, signal) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      try await withTaskCancellation(id: CancelID.task) { () async throws -> Void in
        signal.yield()
        signal.finish()
        try await Task.never()
      }
    }
    for await _ in started { break }
    Task.cancel(id: CancelID.task)
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  /// An effect cancels itself by its own id.
  @Test func testRunCancellation() async {
    enum Action: Equatable, Sendable { case tapped, response }
    let store = TestStore(initialState: Tally()) {
      Reduce<Tally, Action> { (_: inout Tally, action: Action) -> Effect<Action> in
        switch action {
        case .tapped:
          return .run { send in
            Task.cancel(id: CancelID.response)
            try Task.checkCancellation()
            await send(.response)
          }
          .cancellable(id: CancelID.response)
        case .response:
          return .none
        }
      }
    }
    await store.send(.tapped).finish()
  }

  /// A cancelled effect's `catch:` is not called for its cancellation.
  @Test func testRunCancellationCatch() async {
    enum Action: Equatable, Sendable { case tapped, responseA, responseB }
    let store = TestStore(initialState: Tally()) {
      Reduce<Tally, Action> { (_: inout Tally, action: Action) -> Effect<Action> in
        switch action {
        case .tapped:
          return .run { send in
            Task.cancel(id: CancelID.response)
            try Task.checkCancellation()
            await send(.responseA)
          } catch: { _, send in
            await send(.responseB)
          }
          .cancellable(id: CancelID.response)
        case .responseA, .responseB:
          return .none
        }
      }
    }
    await store.send(.tapped).finish()
  }

  /// Debouncing inside an effect: a superseded search ends quietly (its `CancellationError` is not
  /// an unhandled error), the last one delivers.
  @Test func debouncingWithTaskCancellationInsideAnEffect() async {
    enum Action: Equatable, Sendable { case type(String), done(String) }
    let clock = TestClock()
    let store = TestStore(initialState: Tally()) {
      Reduce<Tally, Action> { (_: inout Tally, action: Action) -> Effect<Action> in
        switch action {
        case let .type(query):
          return .run { [clock] send in
            try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
              try await clock.sleep(for: .seconds(1))
              await send(.done(query))
            }
          }
        case .done:
          return .none
        }
      }
    }
    await store.send(.type("a"))
    await store.send(.type("ab"))
    await clock.advance(by: .seconds(1))
    await store.receive(.done("ab"))
    await store.finish()
  }

  /// Inside a row's effect the id is the row's: a sibling's `.cancel(id:)` does not reach it, the
  /// row's own does, and so does the list's.
  @Test func anOperationInARowIsCancelledByItsRowAndItsParentOnly() async {
    let started = LockIsolated(0)
    let store = Store(initialState: Searches.State()) { Searches(started: started) }
    let first = store.send(.rows(.element(id: 0, action: .search)))
    let second = store.send(.rows(.element(id: 1, action: .search)))
    #expect(await eventually { started.value == 2 })
    store.send(.rows(.element(id: 1, action: .stop)))
    #expect(await eventually { !second.isInFlight })
    #expect(first.isInFlight)
    store.send(.stopAll)
    #expect(await eventually { !first.isInFlight })
  }

  struct Search: Reducer {
    struct State: ObservableState, Equatable, Sendable, Identifiable {
      struct Fields: Identifiable, Equatable, Sendable { var id: Int }
      var _$fields: Observed<Fields>
    }
    enum Action: Equatable, Sendable { case search, stop }
    let started: LockIsolated<Int>
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .search:
        return .run { [started] _ in
          try await withTaskCancellation(id: CancelID.search) { () async throws -> Void in
            started.withValue { $0 += 1 }
            try await Task.never()
          }
        }
      case .stop: return .cancel(id: CancelID.search)
      }
    }
  }

  struct Searches: Reducer {
    struct State: ObservableState, Equatable, Sendable {
      struct Fields: Equatable, Sendable {
        var rows: IdentifiedArrayOf<Search.State> = [
          Search.State(_$fields: Observed(.init(id: 0))), Search.State(_$fields: Observed(.init(id: 1))),
        ]
      }
      var _$fields = Observed(Fields())
    }
    enum Action: Equatable, Sendable { case rows(IdentifiedAction<Int, Search.Action>), stopAll }
    let started: LockIsolated<Int>
    var body: some Reducer<State, Action> {
      Reduce<State, Action> { _, action in action == .stopAll ? .cancel(id: CancelID.search) : .none }
        .forEach(\.rows, action: Action.rows) { Search(started: started) }
    }
  }
}
