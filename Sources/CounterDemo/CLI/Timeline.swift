import ValueStore

/// How time passes for a session: the clock its effects run on, what `wait` does, and how the
/// end of input waits for the effects still running.
@MainActor
protocol Timeline: AnyObject {
  /// The clock given to the reducers.
  var clock: any Clock<Duration> { get }
  /// Notes the effects a command started.
  func track(_ effects: StoreTask)
  /// Lets `duration` pass.
  func wait(_ duration: Duration) async
  /// Returns once every tracked effect has finished. Stop the effects that never finish first.
  func drain() async
}

/// Real time, for interactive sessions: effects run on `ContinuousClock` and `wait` really waits.
@MainActor
final class RealTimeline: Timeline {
  let clock: any Clock<Duration> = ContinuousClock()
  private var running: [StoreTask] = []

  func track(_ effects: StoreTask) {
    running.removeAll { !$0.isInFlight }
    if effects.isInFlight { running.append(effects) }
  }

  func wait(_ duration: Duration) async {
    try? await clock.sleep(for: duration)
  }

  func drain() async {
    for effects in running { await effects.finish() }
    running = []
  }
}

/// Virtual time, for scripted sessions: time moves only during `wait` and at the end of input, and
/// exactly as far as asked (see ``VirtualClock``).
@MainActor
final class VirtualTimeline: Timeline {
  private let virtualClock = VirtualClock()
  var clock: any Clock<Duration> { virtualClock }

  func track(_ effects: StoreTask) {
    guard effects.isInFlight else { return }
    virtualClock.effectStarted()
    Task { [virtualClock] in
      await effects.finish()
      virtualClock.effectFinished()
    }
  }

  func wait(_ duration: Duration) async {
    await virtualClock.advance(to: virtualClock.now.advanced(by: duration))
  }

  func drain() async {
    await virtualClock.idle()
    while let deadline = virtualClock.nextDeadline {
      await virtualClock.advance(to: deadline)
    }
  }
}
