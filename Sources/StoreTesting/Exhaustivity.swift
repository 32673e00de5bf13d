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
  /// - a trailing closure runs once, on the state after the action, and must leave it unchanged:
  ///   only the fields it sets are checked, so set them to what they are (`$0.count = 2`); a
  ///   relative change (`$0.count += 1`) fails. It may also check the state
  ///   (`#expect($0.path.count == 1)`);
  /// - received actions the test doesn't assert are skipped (`receive` takes the first that
  ///   matches and skips those before it, `send` skips any still waiting);
  /// - effects still running at the end of the test are not failures.
  ///
  /// With `showSkippedAssertions`, each check that ``on`` would have failed is shown, with the
  /// message ``on`` would give, as a known issue in Swift Testing (printed in XCTest): a test
  /// still passes, and shows what it leaves unasserted. To show them, a trailing closure is also
  /// applied to the state before the action, where the issues it records are known issues.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without showing the skipped assertions.
  public static let off = Self.off(showSkippedAssertions: false)
}
