/// A value guarded by a lock, for state that several threads or tasks share.
///
/// ```swift
/// let log = LockIsolated<[String]>([])
/// log.withValue { $0.append("tick") }
/// print(log.value)
/// ```
///
/// A pthread mutex underneath, which the thread sanitizer understands (see Documentation/Decisions/0004-pthread-lock-not-mutex.md).
public final class LockIsolated<Value> {
  private let lock = Lock(reentryMessage: "LockIsolated.withValue was called again from inside its own body")
  /// Guarded by `lock`.
  private var storage: Value

  /// Guards `value`.
  public init(_ value: Value) { storage = value }

  /// Runs `body` with exclusive access to the value. `body` must not use this lock again (that
  /// stops with a message instead of deadlocking).
  public func withValue<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
    try lock.withLock { () throws(E) -> Result in try body(&storage) }
  }

  /// A copy of the value.
  public var value: Value { withValue { $0 } }

  /// Replaces the value.
  ///
  /// ```swift
  /// isCalled.setValue(true)
  /// ```
  public func setValue(_ newValue: Value) { withValue { $0 = newValue } }
}

extension LockIsolated: @unchecked Sendable where Value: Sendable {}
