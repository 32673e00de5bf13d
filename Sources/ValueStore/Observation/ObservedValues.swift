/// An asynchronous sequence of a value derived from observable state: the current value, then the
/// new one after every change of what it read.
///
/// Like `Observations`: a burst in one transaction yields once, a slow consumer sees the newest
/// value, and cancelling the task ends it, releasing `value`'s captures.
///
/// ```swift
/// for await count in ObservedValues({ holder.count }) {
///   print(count)
/// }
/// ```
public struct ObservedValues<Element: Sendable>: AsyncSequence, Sendable {
  let value: @Sendable () -> Element

  /// A sequence of `value()`, re-evaluated after each change of what it reads.
  public init(_ value: @escaping @Sendable () -> Element) { self.value = value }

  public func makeAsyncIterator() -> Iterator {
    let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(1))
    let value = value
    let token = observe { continuation.yield(value()) }
    // Weak, or the token (→ `value` → continuation → stream) would own itself.
    continuation.onTermination = { [weak token] _ in token?.cancel() }
    return Iterator(base: stream.makeAsyncIterator(), token: token)
  }

  /// Iterates the values; releasing it ends the subscription.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncStream<Element>.Iterator
    let token: ObservationToken

    public mutating func next() async -> Element? { await base.next() }
  }
}
