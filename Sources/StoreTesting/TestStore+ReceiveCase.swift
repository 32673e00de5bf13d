@_spi(Testing) import ValueStore

extension TestStore {
  /// Asserts that the store received the case `expected`, a case without payload, and how it
  /// changed the state: for actions that are not `Equatable` (TCA's `receive(\.timerTicked)`).
  ///
  /// ```swift
  /// await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
  /// ```
  ///
  /// A case with a payload can't be compared: receive it by its case, whatever its payload
  /// (`receive(Action.loaded)`), or with a predicate; passing one here fails.
  @_disfavoredOverload
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard _isCaseWithoutPayload(expected) else {
      return site.reportFailure(
        "receive(\(expected)): \(Action.self) is not Equatable, so a payload can't be compared. "
          + "Receive the case whatever its payload (`receive(\(Action.self).caseName)`) or with a predicate.")
    }
    await receiveAction(
      matching: { _isSameCase($0, expected) },
      describedAs: { "\(expected)" },
      mismatch: { Self.unexpectedActionMessage($0, expected: "\(expected)") },
      timeout: timeout, updateStateToExpectedResult, at: site
    )
  }

  /// Asserts that the store received an action of the case `casePath` embeds, whatever its
  /// payload, and how it changed the state. For actions that are not `Equatable`, or whose payload
  /// the test can't predict; the case can be nested (``/ValueStore/CasePath/appending(_:)-((Child)->Value)``).
  ///
  /// ```swift
  /// await store.receive(CasePath(AppAction.rows)[id: 3].appending(RowAction.factResponse)) {
  ///   $0.rows[id: 3]?.fact = "3 is a good number."
  /// }
  /// ```
  ///
  /// It waits and fails like the `receive` that takes an `Equatable` action; a different action
  /// is shown as it is, as there is no expected one to diff it against.
  public func receive<Value>(
    _ casePath: CasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: { casePath.extract(from: $0) != nil },
      describedAs: { "\(casePath)" },
      mismatch: { Self.unexpectedActionMessage($0, expected: "\(casePath)") },
      timeout: timeout, updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that the store received an action of the case `embed` constructs, whatever its
  /// payload, and how it changed the state.
  ///
  /// ```swift
  /// await store.receive(CounterFeature.Action.factResponse) {
  ///   $0.fact = "1 is a good number."
  /// }
  /// ```
  public func receive<Value>(
    _ embed: @escaping @Sendable (Value) -> Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      CasePath(embed), timeout: timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that the store received the action of the case `casePath` embeds with `payload`, and
  /// how it changed the state. Only the payload needs to be `Equatable`, not the action.
  ///
  /// ```swift
  /// await store.receive(CasePath(AppAction.child).appending(ChildAction.loaded), [1, 2, 3]) {
  ///   $0.child.items = [1, 2, 3]
  /// }
  /// ```
  ///
  /// On a mismatch, the failure diffs the expected action against the received one.
  public func receive<Value: Equatable>(
    _ casePath: CasePath<Action, Value>,
    _ payload: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      casePath.embed(payload), matching: { casePath.extract(from: $0) == payload }, timeout: timeout,
      updateStateToExpectedResult, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the store received the action of the case `embed` constructs with `payload`.
  ///
  /// ```swift
  /// await store.receive(CounterFeature.Action.factResponse, "1 is a good number.") {
  ///   $0.fact = "1 is a good number."
  /// }
  /// ```
  public func receive<Value: Equatable>(
    _ embed: @escaping @Sendable (Value) -> Action,
    _ payload: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      CasePath(embed), payload, timeout: timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts that the store received an action in the nested case `path` names, whatever its
  /// payload, and how it changed the state — TCA's `receive(\.case)`, without a macro (see
  /// ``/ValueStore/Cases``).
  ///
  /// ```swift
  /// await store.receive(\.recordingMemo.delegate.didFinish.success)
  /// await store.receive(\.path[id: 0].detail.delegate.deleteSyncUp) { $0.path = [] }
  /// ```
  public func receive(
    _ path: CaseKeyPath<Action>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveCase(
      _describe(path), matching: { path.extract(from: $0) != nil }, timeout: timeout, updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the store received an action in the nested case `path` names, with `payload`.
  ///
  /// ```swift
  /// await store.receive(\.rows[id: 3].factResponse, "3 is a good number.") {
  ///   $0.rows[id: 3]?.fact = "3 is a good number."
  /// }
  /// ```
  public func receive<Value: Equatable>(
    _ path: CaseKeyPath<Action>,
    _ payload: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    // A payload of another type than the case carries can match nothing: say so with the failure.
    let mistake = _embedMistake(path, payload)
    await receiveCase(
      "\(_describe(path)), \(String(customDumping: payload))" + (mistake.map { " — which names no action: \($0)" } ?? ""),
      matching: { path.extract(from: $0) as? Value == payload }, timeout: timeout, updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the store received an action in the nested case `path` names, with `nil`.
  ///
  /// ```swift
  /// await store.receive(\.child.selectionLoaded, nil)
  /// ```
  public func receive(
    _ path: CaseKeyPath<Action>,
    _ payload: _OptionalNilComparisonType,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveCase(
      "\(_describe(path)), nil",
      matching: { action in
        guard let payload = path.extract(from: action) else { return false }
        let mirror = Mirror(reflecting: payload)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
      },
      timeout: timeout, updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// A received action matching a case key path, described by it (there is no action to diff).
  private func receiveCase(
    _ description: String, matching isMatching: (Action) -> Bool, timeout: Duration?,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?, at site: CallSite
  ) async {
    await receiveAction(
      matching: isMatching,
      describedAs: { description },
      mismatch: { Self.unexpectedActionMessage($0, expected: description) },
      timeout: timeout, updateStateToExpectedResult, at: site)
  }
}
