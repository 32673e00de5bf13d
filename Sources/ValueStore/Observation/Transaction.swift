/// Runs `body`, then notifies each affected observer once, with everything it saw change.
///
/// Transactions nest: notifications wait for the outermost. Observers run on this thread after
/// `body` returned, and see the final state; inside an observer, after it returns (see `deliver`).
///
/// ```swift
/// withTransaction {
///   state.count += 1
///   state.count += 1
///   state.name = "x"
/// }   // an observer of `count` and `name` fires here, once
/// ```
public func withTransaction<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
  try withTransaction(ThreadContext.current, body)
}

/// `withTransaction` on a context the caller already looked up.
@inlinable
func withTransaction<R, E: Error>(_ context: ThreadContext, _ body: () throws(E) -> R) throws(E) -> R {
  context.transactionDepth += 1
  defer { context.endTransaction() }
  return try body()
}

extension ThreadContext {
  @usableFromInline
  func endTransaction() {
    transactionDepth -= 1
    if transactionDepth == 0 && !pending.isEmpty { drainPending() }
    if transactionDepth == 0 { _checkInvariants() }  // Invariants.swift; nothing without the flag
  }
}
