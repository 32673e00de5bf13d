/// How much of a feature's behaviour a ``TestStore`` requires a test to assert.
///
/// Exhaustive testing (the default) proves that the test knows everything the feature does. For
/// an integration test of a large feature that is often too much: turn it off, and the test store
/// checks only what the test states.
///
/// ```swift
/// store.exhaustivity = .off
/// await store.send(.loginButtonTapped)
/// await store.receive(.loginResponse(.success(user))) {
///   $0.user = user          // the only field checked; other changes are allowed
/// }
/// ```
public enum Exhaustivity: Equatable, Sendable {
  /// Every step must be asserted exactly:
  ///
  /// - the trailing closure of `send` and `receive` must turn the state before the action into
  ///   exactly the state after it;
  /// - every action the store receives from effects must be asserted with `receive` before the
  ///   test sends another action, and before the test ends;
  /// - every effect must have finished (or been cancelled) when the test ends.
  case on

  /// Only what the test states is checked:
  ///
  /// - a trailing closure is checked for the fields it sets: when the closure applied to the
  ///   state before the action doesn't give the state after it, it is applied to the state after
  ///   the action instead, and must leave that unchanged;
  /// - received actions the test doesn't assert are skipped (`receive` skips those that don't
  ///   match, `send` skips any still waiting);
  /// - effects still running at the end of the test are not failures.
  ///
  /// With `showSkippedAssertions`, each check that ``on`` would have failed is shown, with the
  /// message ``on`` would give, as a known issue in Swift Testing (printed in XCTest): a test
  /// still passes, and shows what it leaves unasserted.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without showing the skipped assertions.
  public static let off = Self.off(showSkippedAssertions: false)
}
