@_spi(Testing) import ValueStore

extension TestStore {
  /// Checks the store's state now — including what received actions not asserted yet changed —
  /// against ``state`` changed by `updateStateToExpectedResult`, and takes it as asserted. What a
  /// non-exhaustive test uses to check state without naming the actions that changed it.
  ///
  /// ```swift
  /// store.exhaustivity = .off
  /// await store.send(.refreshPulled)
  /// await store.skipReceivedActions()
  /// store.assert { $0.items = [1, 2] }
  /// ```
  public func assert(
    _ updateStateToExpectedResult: (inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let actual = store.currentState
    withoutActuallyEscaping(updateStateToExpectedResult) { update in
      checkStateChange(from: state, to: actual, shared: sharedChanges.snapshot(), update, at: site, expectsChange: false)
    }
    state = actual
  }

  /// Checks one action's state change. Exhaustive, `updateStateToExpectedResult` applied to
  /// `before` must give `actual`. Non-exhaustive, it runs once, on `actual`, and must leave it
  /// unchanged: only what it sets is checked (see ``Exhaustivity``); shown skipped assertions
  /// also apply it to `before`, to show what an exhaustive test would have failed. It runs with
  /// the feature's dependencies, as in TCA.
  func checkStateChange(
    from before: State,
    to actual: State,
    shared snapshot: SharedSnapshot,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at site: CallSite,
    expectsChange: Bool = true
  ) {
    let dependencies = self.dependencies
    let shared = sharedChanges
    defer { shared.settle(at: snapshot) }
    // Shared values read and locked in the closure are the expected ones, never the values themselves.
    func applied(to state: State, fromAsserted: Bool, scratch: Bool = false) throws -> State {
      var state = state
      try DependencyValues.withCurrent(dependencies) {
        if scratch {
          try shared.assertingScratch(at: snapshot) { try updateStateToExpectedResult?(&state) }
        } else {
          try shared.asserting(at: snapshot, fromAsserted: fromAsserted) { try updateStateToExpectedResult?(&state) }
        }
      }
      return state
    }
    let exhaustive = exhaustivity == .on
    let expected: State
    do {
      expected = try applied(to: exhaustive ? before : actual, fromAsserted: exhaustive)
    } catch {
      return site.reportFailure("Threw error: \(error)")
    }
    guard expected == actual, !shared.hasMismatch(at: snapshot, exhaustive: exhaustive) else {
      return site.reportFailure(
        stateChangeMessage(expected, actual, snapshot, fromAsserted: exhaustive, hasClosure: updateStateToExpectedResult != nil))
    }
    if exhaustivity == .off(showSkippedAssertions: true),
      let exhaustive = SkippedAssertion.expectingIssues({ try applied(to: before, fromAsserted: true, scratch: true) }),
      exhaustive != actual
    {
      return SkippedAssertion.report(
        stateChangeMessage(exhaustive, actual, snapshot, fromAsserted: true, hasClosure: updateStateToExpectedResult != nil), site)
    }
    if expectsChange, updateStateToExpectedResult != nil, actual == before, !shared.hasChanges(at: snapshot) {
      reportUnlessExhaustivityOff(at: site) {
        "Expected state to change, but no change occurred. The trailing closure made no observable "
          + "modifications to state. If no change to state is expected, omit the trailing closure."
      }
    }
  }

  /// Reports a failure that only exhaustive tests have: when exhaustivity is off it is skipped,
  /// or shown as a skipped assertion.
  func reportUnlessExhaustivityOff(at site: CallSite, _ message: () -> String) {
    switch exhaustivity {
    case .on: site.reportFailure(message())
    case .off(showSkippedAssertions: true): SkippedAssertion.report(message(), site)
    case .off(showSkippedAssertions: false): break
    }
  }

  /// The failure for a state that is not the expected one: with a closure, it stated the change
  /// wrongly; without, the state was expected not to change. Shared values in `expected` dump as
  /// the assertion left them.
  private func stateChangeMessage(
    _ expected: State, _ actual: State, _ snapshot: SharedSnapshot, fromAsserted: Bool, hasClosure: Bool
  ) -> String {
    let headline = hasClosure ? "State change does not match expectation:" : "State was expected not to change, but it did:"
    // Where both sides see every shared value alike, they are diffed together, which skips equal
    // elements without dumping them; otherwise each is dumped whole in its own view.
    if !sharedChanges.hasChanges(at: snapshot), !sharedChanges.hasMismatch(at: snapshot, exhaustive: fromAsserted) {
      return sharedChanges.actual(at: snapshot) {
        differenceMessage(headline, expected, actual, firstName: "Expected", secondName: "Actual")
      }
    }
    var expectedDump = sharedChanges.asserting(at: snapshot, fromAsserted: fromAsserted) { String(customDumping: expected) }
    var actualDump = sharedChanges.actual(at: snapshot) { String(customDumping: actual) }
    if expectedDump == actualDump {
      // A shared value the state reaches only through a part that is gone (a removed row's): shown apart.
      for (expectedValue, actualValue) in sharedChanges.mismatches(at: snapshot, exhaustive: fromAsserted) {
        expectedDump += "\n\nShared value: " + String(customDumping: expectedValue)
        actualDump += "\n\nShared value: " + String(customDumping: actualValue)
      }
    }
    return differenceMessage(headline, dumps: expectedDump, actualDump, firstName: "Expected", secondName: "Actual")
  }
}
