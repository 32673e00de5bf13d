@_spi(Testing) import ValueStore

extension TestStore {
  /// Sends the action a case key path names — a case without a payload, however deeply nested —
  /// and asserts how it changes the state: TCA's spelling.
  ///
  /// ```swift
  /// await store.send(\.path[id: 0].detail.editButtonTapped) {
  ///   $0.path[id: 0, case: Path.detail]?.destination = .edit(form)
  /// }
  /// ```
  ///
  /// The names are checked when the action is built: a misspelled or payload-carrying case fails
  /// the test, naming the path, and sends nothing.
  @discardableResult
  public func send(
    _ path: CaseKeyPath<Action>,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await sendCase(
      path, nil, updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Sends `value` in the nested case a case key path names, and asserts how it changes the state.
  ///
  /// ```swift
  /// await store.send(\.path[id: 0].detail.titleChanged, "Standup") {
  ///   $0.path[id: 0, case: Path.detail]?.title = "Standup"
  /// }
  /// ```
  ///
  /// The case's payload type is checked when the action is built: a value of another type fails
  /// the test, naming both, and sends nothing.
  @discardableResult
  public func send<Value: Sendable>(
    _ path: CaseKeyPath<Action>,
    _ value: Value,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await sendCase(
      path, value as any Sendable, updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Sends `nil` in the nested case a case key path names, whose payload is optional.
  ///
  /// ```swift
  /// await store.send(\.path[id: 0].detail.selectionChanged, nil) { … }
  /// ```
  @discardableResult
  public func send(
    _ path: CaseKeyPath<Action>,
    _ value: _OptionalNilComparisonType,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await sendCase(
      path, _NilPayload(), updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func sendCase(
    _ path: CaseKeyPath<Action>, _ payload: (any Sendable)?, _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at site: CallSite
  ) async -> TestStoreTask {
    let action: Action
    do {
      action = try _embed(path, payload)
    } catch {
      site.reportFailure("\(_describe(path)) names no action to send: \(error)")
      return TestStoreTask(task: .none, effects: effects, timeout: timeout)
    }
    return await send(action, assert: updateStateToExpectedResult, at: site)
  }
}
