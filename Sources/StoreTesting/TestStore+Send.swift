@_spi(Testing) import ValueStore

extension TestStore {
  /// Sends `action` and asserts how it changes the state.
  ///
  /// `updateStateToExpectedResult` receives the state before the action and must turn it into
  /// the state after it. Prefer setting fields to literal values (`$0.count = 1`) over relative
  /// changes (`$0.count += 1`): they say what the state is, not how the feature computes it.
  /// Omit the closure when the action changes nothing.
  ///
  /// ```swift
  /// await store.send(.increment) { $0.count = 1 }
  /// await store.send(.factButtonTapped)          // changes no state, starts an effect
  /// ```
  ///
  /// On a mismatch the failure shows how the expected state (−) differs from the actual one (+):
  ///
  /// ```text
  /// State change does not match expectation:
  ///
  ///     Counter(
  ///   −   count: 2,
  ///   +   count: 1,
  ///       fact: nil
  ///     )
  ///
  /// (Expected: −, Actual: +)
  /// ```
  ///
  /// Actions received from effects must be asserted with `receive` before the next `send`; the
  /// actions this action sends back with `.send` are received actions too. Sending before fails,
  /// and leaves them to receive; with exhaustivity off, they are skipped.
  ///
  /// A matching send compares the two states with `==` only; nothing is dumped unless it fails.
  ///
  /// - Returns: The effects the action started, to cancel them or wait for them.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      action, assert: updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  func send(
    _ action: Action, assert updateStateToExpectedResult: ((inout State) throws -> Void)?, at site: CallSite
  ) async -> TestStoreTask {
    lastStepSite = site
    if isDismissed {
      site.reportFailure("\(action) was sent after the feature dismissed itself; it was not sent.")
      return TestStoreTask(task: .none, effects: effects, timeout: timeout)
    }
    if !log.received.isEmpty {
      reportUnlessExhaustivityOff(at: site) {
        "Must handle \(counted(log.received.count, "received action")) before sending an action: …"
          + "\n\nUnhandled actions: \(log.receivedActionsDump)"
      }
      if exhaustivity != .on { skipReceived() }
    }
    let origin = SendOrigin(action: action, site: site)
    let task = store.send(.sent(action, origin))
    effects.track(task, from: origin)
    checkStateChange(
      from: state, to: log.stateAfterSend, shared: log.sharedAfterSend, updateStateToExpectedResult, at: site)
    state = log.stateAfterSend
    await effects.settle()
    return TestStoreTask(task: task, effects: effects, timeout: timeout)
  }

  /// Sends `value` in the case `casePath` embeds it in (which may be nested), and asserts how it
  /// changes the state.
  ///
  /// ```swift
  /// let row3 = CasePath(AppAction.rows)[id: 3]
  /// await store.send(row3, .increment) { $0.rows[id: 3]?.count = 1 }
  /// ```
  @discardableResult
  public func send<Value>(
    _ casePath: CasePath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      casePath.embed(value), assert: updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}
