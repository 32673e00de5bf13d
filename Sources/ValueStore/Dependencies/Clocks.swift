/// A clock whose sleeps return at once, moving its time to their deadline: time-based effects
/// run to completion without waiting (previews, tests that don't care about timing).
///
/// ```swift
/// withDependencies: { $0.continuousClock = ImmediateClock() }
/// ```
public final class ImmediateClock: Clock, @unchecked Sendable {  // `now` is lock-protected
  public struct Instant: InstantProtocol {
    public let offset: Duration
    public init(offset: Duration = .zero) { self.offset = offset }
    public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
    public func duration(to other: Self) -> Duration { other.offset - offset }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
  }

  private let lock = Lock()
  private var current = Instant()

  public init() {}

  public var now: Instant { lock.withLock { current } }
  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    lock.withLock { current = Swift.max(current, deadline) }
    await Task.yield()
  }
}

/// A clock the dependency system hands out: any `Clock<Duration>`, its instants erased.
public typealias AnyDurationClock = any Clock<Duration>

private enum ContinuousClockKey: DependencyKey {
  static let liveValue: AnyDurationClock = ContinuousClock()
  static let dependencyName = "\\.continuousClock"
}

private enum SuspendingClockKey: DependencyKey {
  static let liveValue: AnyDurationClock = SuspendingClock()
  static let dependencyName = "\\.suspendingClock"
}

extension DependencyValues {
  /// A clock that keeps running while the system sleeps (`ContinuousClock` live; unimplemented
  /// in tests: override it with a `TestClock` or an ``ImmediateClock``).
  public var continuousClock: any Clock<Duration> {
    get { self[ContinuousClockKey.self] }
    set { self[ContinuousClockKey.self] = newValue }
  }

  /// A clock that stops while the system sleeps (`SuspendingClock` live; unimplemented in tests).
  public var suspendingClock: any Clock<Duration> {
    get { self[SuspendingClockKey.self] }
    set { self[SuspendingClockKey.self] = newValue }
  }
}

extension Clock where Duration == Swift.Duration {
  /// Ticks 1, 2, 3… at `interval`, 2 × `interval`, 3 × `interval`… after now, each delivered
  /// once the clock reaches it: deadlines fixed when the timer starts, so ticks never drift by the
  /// time each takes, and a test clock advanced by several intervals at once delivers every tick
  /// it passed. Works on a `@Dependency(\.continuousClock)` (an `any Clock<Duration>`).
  ///
  /// ```swift
  /// return .run { send in
  ///   for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
  /// }
  /// ```
  ///
  /// Ends when the task is cancelled.
  public func timer(interval: Duration) -> ClockTimer {
    let start = now
    return ClockTimer { tick in try await sleep(until: start.advanced(by: interval * tick), tolerance: nil) }
  }
}

/// The ticks of ``_Concurrency/Clock/timer(interval:)``: their numbers, from 1.
public struct ClockTimer: AsyncSequence, Sendable {
  /// Sleeps until the deadline of the tick numbered by its argument.
  let sleepUntilTick: @Sendable (Int) async throws -> Void

  public struct AsyncIterator: AsyncIteratorProtocol {
    let sleepUntilTick: @Sendable (Int) async throws -> Void
    var tick = 0

    public mutating func next() async -> Int? {
      tick += 1
      do {
        try await sleepUntilTick(tick)
      } catch {
        return nil
      }
      return Task.isCancelled ? nil : tick
    }
  }

  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sleepUntilTick: sleepUntilTick) }
}
