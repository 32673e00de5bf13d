import Synchronization

/// Makes ``StackElementID``s: `next()` (or calling it) returns a new id, `peek()` the one `next()`
/// returns next without using it.
///
/// ```swift
/// @Dependency(\.stackElementID) var stackElementID
/// stackElementID.peek()   // #0
/// stackElementID()        // #0
/// stackElementID()        // #1
/// ```
///
/// In an app it is one counter for the process, and every ``StackState/append(_:)`` takes its id
/// from it: an id it gives is one no stack has given (a `.push(id: stackElementID(), state: …)`
/// never reuses an id). In tests and previews a stack numbers its own elements from 0, so a test
/// writes them as literals (`$0.path[id: 0]`) and an expectation's `append` gets the id the
/// feature's did; the generator there is ``incrementing``, a new one per test.
public struct StackElementIDGenerator: Sendable {
  /// Returns a new id.
  public let next: @Sendable () -> StackElementID
  /// Returns the id `next` returns next, without using it.
  public let peek: @Sendable () -> StackElementID

  public init(
    next: @escaping @Sendable () -> StackElementID, peek: @escaping @Sendable () -> StackElementID
  ) {
    self.next = next
    self.peek = peek
  }

  /// A new id (``next``).
  public func callAsFunction() -> StackElementID { next() }

  /// #0, then #1, #2…: each generator counts from 0.
  public static var incrementing: StackElementIDGenerator {
    let counter = Atomic<Int>(0)
    return StackElementIDGenerator(
      next: { StackElementID(integerLiteral: counter.wrappingAdd(1, ordering: .relaxed).oldValue) },
      peek: { StackElementID(integerLiteral: counter.load(ordering: .relaxed)) })
  }
}

private enum StackElementIDKey: DependencyKey {
  // Made once per context (and per test): the live value is the process's one counter.
  static var liveValue: StackElementIDGenerator { .incrementing }
  static var testValue: StackElementIDGenerator { .incrementing }
  static let dependencyName = "\\.stackElementID"
}

extension DependencyValues {
  /// Stack element ids: an app's one counter live, ``StackElementIDGenerator/incrementing`` in
  /// tests (a new one per test).
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDKey.self] }
    set { self[StackElementIDKey.self] = newValue }
  }
}
