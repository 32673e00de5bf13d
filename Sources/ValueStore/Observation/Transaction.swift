/// The notifications held back until the outermost transaction on this thread ends.
final class Transaction {
  var pending: [Delivery] = []
}

/// Runs `body`, then notifies each affected observer once, with everything it saw change.
///
/// Transactions nest: notifications wait for the outermost one. Observers run on this thread,
/// after `body` returned, and see the final state.
///
/// ```swift
/// withTransaction {
///   state.count += 1
///   state.count += 1
///   state.name = "x"
/// }   // an observer of `count` and `name` fires here, once
/// ```
public func withTransaction<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
  let context = ThreadContext.current
  if context.transaction != nil { return try body() }
  let transaction = Transaction()
  context.transaction = transaction
  defer {
    context.transaction = nil
    // Observers that mutate while being notified start their own round.
    fire(transaction.pending)
  }
  return try body()
}
