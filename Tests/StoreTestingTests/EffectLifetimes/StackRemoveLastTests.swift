import StoreTesting
import Testing
import ValueStore

/// `path.removeLast()` in a parent's reducer, as TCA users write it for a back button: the top
/// screen goes, and its effects with it.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct StackRemoveLastTests {
  struct Screen: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var path = StackState<Ticker.State>() }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable { case path(StackAction<Ticker.State, Ticker.Action>), push(Int), back, backTwo }

  struct Feature: Reducer {
    let clock: TestClock
    var body: some Reducer<Screen, Action> {
      Reduce<Screen, Action> { state, action in
        switch action {
        case let .push(id): state.path.append(Ticker.State(id: id))
        case .back: state.path.removeLast()
        case .backTwo: state.path.removeLast(2)
        case .path: break
        }
        return .none
      }
      .forEach(\.path, action: Action.path) { Ticker(clock: clock) }
    }
  }

  @Test func removeLastPopsTheTopScreenAndEndsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Screen()) { Feature(clock: clock) }
    await store.send(.push(1)) { $0.path.append(Ticker.State(id: 1)) }
    await store.send(.push(2)) { $0.path.append(Ticker.State(id: 2)) }
    await store.send(.path(.element(id: 1, action: .start)))
    await store.send(.back) { $0.path.removeLast() }
    await clock.advance(by: .seconds(3))
    await store.send(.push(3)) { $0.path.append(Ticker.State(id: 3)) }
    await store.send(.backTwo) { $0.path.removeLast(2) }
    #expect(store.state.path.isEmpty)
    await store.finish()
  }
}
