import StoreTesting
import ValueStore

/// A counter whose feature exercises every kind of effect the test store must follow.
struct Tally: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var count = 0
    var fact: String?
    var isTimerOn = false
  }
  var _$fields = Observed(Fields())
}

struct TallyFeature: Reducer {
  enum Action: Equatable, Sendable {
    case increment
    case decrement
    case setCount(Int)
    case reset
    case noop
    case incrementTwice
    case incrementThenSetCount(Int)
    case factButtonTapped
    case factResponse(String)
    case timerToggled
    case sendTimerToggled
    case tick
    case waitForGate
    case gateOpened
    case failingEffect
  }
  enum CancelID { case timer }
  struct Failure: Error {}

  /// Dependencies, passed through the initializer: never wall-clock time, never the network.
  var clock: any Clock<Duration> = TestClock()
  var fact: @Sendable (Int) async -> String = { "\($0) is a number." }
  var gate = Gate()

  func reduce(into state: inout Tally, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case let .setCount(count):
      state.count = count
      return .none
    case .reset:
      state.count = 0
      state.fact = nil
      return .none
    case .noop:
      return .none
    case .incrementTwice:
      return .merge(.send(.increment), .send(.increment))
    case let .incrementThenSetCount(count):
      return .merge(.send(.increment), .send(.setCount(count)))
    case .factButtonTapped:
      return .run { [count = state.count, fact] send in
        await send(.factResponse(await fact(count)))
      }
    case let .factResponse(fact):
      state.fact = fact
      return .none
    case .timerToggled:
      state.isTimerOn.toggle()
      guard state.isTimerOn else { return .cancel(id: CancelID.timer) }
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .tick:
      state.count += 1
      return .none
    case .waitForGate:
      return .run { [gate] send in
        await gate.wait()
        await send(.gateOpened)
      }
    case .gateOpened:
      return .none
    case .sendTimerToggled:
      return .send(.timerToggled)
    case .failingEffect:
      return .run { _ in throw Failure() }
    }
  }
}

/// Opens once; effects wait on it, so a test decides when they go on (no sleeps). A cancelled
/// waiter stops waiting, so a cancelled effect really ends.
final class Gate: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() { (stream, continuation) = AsyncStream.makeStream() }

  func open() { continuation.finish() }

  func wait() async {
    for await _ in stream {}
  }
}
