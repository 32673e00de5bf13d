import ValueStore

/// A timer counting the seconds it has been on.
struct TimerState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var isOn = false
    var seconds = 0
  }
  var _$fields = Observed(Fields())
}

/// Ticks once a second while on, on the clock it is given (a `TestClock` in tests, a virtual
/// clock in scripted runs, `ContinuousClock` interactively).
struct TimerFeature: Reducer {
  enum Action: Equatable, Sendable {
    case start
    case stop
    case tick
  }

  enum CancelID: Hashable, Sendable { case timer }

  let clock: any Clock<Duration>

  func reduce(into state: inout TimerState, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      // Starting a running timer would restart its second; ignoring it keeps the rhythm.
      guard !state.isOn else { return .none }
      state.isOn = true
      return Self.ticks(on: clock).cancellable(id: CancelID.timer, cancelInFlight: true)
    case .stop:
      state.isOn = false
      return .cancel(id: CancelID.timer)
    case .tick:
      state.seconds += 1
      return .none
    }
  }

  /// Ticks 1, 2, 3… seconds after now. The schedule is fixed here, when the timer starts, rather
  /// than by sleeping a second after each tick: ticks do not drift by the time each one takes, nor
  /// by when the effect's task first runs — so a test that advances its clock right after `start`
  /// gets every tick it passed.
  private static func ticks(on clock: some Clock<Duration>) -> Effect<Action> {
    let start = clock.now
    return .run { send in
      for second in 1... {
        try await clock.sleep(until: start.advanced(by: .seconds(second)), tolerance: nil)
        await send(.tick)
      }
    }
  }
}
