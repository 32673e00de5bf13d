import ValueStore

extension TestStore {
  /// Checks the current state — including what received actions not asserted yet changed — against
  /// the last asserted state changed by `updateStateToExpectedResult`, and takes it as asserted.
  /// What a non-exhaustive test uses to check state without naming the actions that changed it.
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
    let actual = state
    withoutActuallyEscaping(updateStateToExpectedResult) { update in
      checkStateChange(from: assertedState, to: actual, update, at: site, expectsChange: false)
    }
    assertedState = actual
  }

  /// Checks one action's state change: `updateStateToExpectedResult` applied to `before` must
  /// give `actual`; when exhaustivity is off and it does not, applied to `actual` it must leave it
  /// unchanged (see ``Exhaustivity``). It runs with the feature's dependencies, as in TCA.
  func checkStateChange(
    from before: State,
    to actual: State,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at site: CallSite,
    expectsChange: Bool = true
  ) {
    let dependencies = self.dependencies
    func applied(to state: State) throws -> State {
      var state = state
      try DependencyValues.$current.withValue(dependencies) { try updateStateToExpectedResult?(&state) }
      return state
    }
    guard exhaustivity != .on, updateStateToExpectedResult != nil else {
      let expected: State
      do { expected = try applied(to: before) } catch { return site.reportFailure("Threw error: \(error)") }
      if expected == actual {
        if expectsChange, updateStateToExpectedResult != nil, exhaustivity == .on, actual == before {
          site.reportFailure(
            "Expected state to change, but no change occurred. The trailing closure made no "
              + "observable modifications to state. If no change to state is expected, omit the "
              + "trailing closure."
          )
        }
        return
      }
      return reportUnlessExhaustivityOff(at: site) {
        updateStateToExpectedResult == nil
          ? differenceMessage(
            "State was expected not to change, but it did:", expected, actual,
            firstName: "Expected", secondName: "Actual")
          : stateMismatchMessage(expected, actual)
      }
    }
    // Relative changes (`$0.count += 1`) are checked from the state before the action; the
    // closure's own expectations there are not failures (a closure that only checks the state
    // after the action, `#expect($0.path.count == 1)`, fails there).
    let expected = SkippedAssertion.expectingIssues { try applied(to: before) }
    if expected == actual { return }
    // Otherwise only the fields the closure sets are checked: applied to the actual state, it
    // must leave it unchanged.
    let expectedGivenActual: State
    do { expectedGivenActual = try applied(to: actual) } catch { return site.reportFailure("Threw error: \(error)") }
    guard expectedGivenActual == actual else {
      return site.reportFailure(stateMismatchMessage(expectedGivenActual, actual))
    }
    if let expected { reportUnlessExhaustivityOff(at: site) { stateMismatchMessage(expected, actual) } }
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

  private func stateMismatchMessage(_ expected: State, _ actual: State) -> String {
    differenceMessage(
      "State change does not match expectation:", expected, actual,
      firstName: "Expected", secondName: "Actual")
  }
}
