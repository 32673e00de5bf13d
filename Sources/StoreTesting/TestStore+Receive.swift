import ValueStore

extension TestStore where Action: Equatable {
  /// Asserts that the store received `expected` from an effect, and how it changed the state.
  ///
  /// Received actions are asserted in the order the store processed them. When none is waiting,
  /// this waits (without polling) until an effect sends one, for up to `timeout`
  /// (``TestStore/timeout`` when nil). It fails at once when no effect is running that could send
  /// one.
  ///
  /// ```swift
  /// await store.send(.factButtonTapped)
  /// await store.receive(.factResponse("1 is a good number.")) {
  ///   $0.fact = "1 is a good number."
  /// }
  /// ```
  ///
  /// When the next received action is a different one, the failure shows both:
  ///
  /// ```text
  /// Received unexpected action: …
  ///
  ///   − CounterFeature.Action.factResponse("1 is a good number.")
  ///   + CounterFeature.Action.factResponse("1 is a fine number.")
  ///
  /// (Expected: −, Received: +)
  /// ```
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      expected, matching: { $0 == expected }, timeout: timeout, updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension TestStore {
  /// Receives an action for which `isMatching` is true; a mismatch is diffed against `expected`.
  func receive(
    _ expected: Action, matching isMatching: (Action) -> Bool, timeout: Duration?,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?, at site: CallSite
  ) async {
    await receiveAction(
      matching: isMatching,
      describedAs: { String(customDumping: expected) },
      mismatch: { received in
        differenceMessage(
          "Received unexpected action: …", expected, received,
          firstName: "Expected", secondName: "Received")
      },
      timeout: timeout, updateStateToExpectedResult, at: site)
  }
}

extension TestStore {
  /// Asserts that the store received an action for which `isMatching` is true, and how it
  /// changed the state. For actions that are not `Equatable`, or whose payload the test can't
  /// predict.
  ///
  /// ```swift
  /// await store.receive({ if case .loginResponse(.success) = $0 { true } else { false } }) {
  ///   $0.isLoggedIn = true
  /// }
  /// ```
  ///
  /// It waits and fails like the `receive` that takes an `Equatable` action; a different action
  /// is shown as it is, as there is no expected one to diff it against.
  public func receive(
    _ isMatching: (Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: isMatching,
      describedAs: { "the predicate" },
      mismatch: { Self.unexpectedActionMessage($0, expected: "an action matching the predicate") },
      timeout: timeout, updateStateToExpectedResult,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Skips the actions received so far: the test won't assert them, and ``state`` becomes the
  /// state after the last of them.
  ///
  /// ```swift
  /// await store.send(.onAppear)
  /// await store.skipReceivedActions()   // the analytics actions onAppear sends back
  /// ```
  ///
  /// First lets running effects finish sending what they are about to send. When `strict`, having
  /// no received action to skip fails the test.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await effects.settle()
    if strict && log.received.isEmpty {
      CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        .reportFailure("There were no received actions to skip.")
    }
    skipReceived()
  }

  /// Moves ``state`` past every received action and forgets them.
  func skipReceived() {
    guard let last = log.received.last else { return }
    state = last.state
    log.received.removeAll()
  }

  /// Waits for a received action that matches, and asserts how it changed the state. Exhaustive,
  /// it must be the next received action; otherwise the first that matches is taken and those
  /// before it are skipped. An expected action that doesn't come leaves the received ones to
  /// receive.
  func receiveAction(
    matching isMatching: (Action) -> Bool,
    describedAs expectation: () -> String,
    mismatch: (Action) -> String,
    timeout: Duration?,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at site: CallSite
  ) async {
    lastStepSite = site
    let timeout = timeout ?? self.timeout
    func candidate() -> Int? {
      exhaustivity == .on ? log.received.indices.first : log.received.firstIndex { isMatching($0.action) }
    }
    let arrived = await effects.wait(until: .now + timeout) {
      candidate() != nil || effects.running(includingSkipped: true).isEmpty
    }
    guard let index = candidate() else {
      let reason = arrived ? "no effect is running that could send one" : "didn't get one within \(timeout)"
      return site.reportFailure("Expected to receive an action matching \(expectation()), but \(reason).")
    }
    for skipped in log.received[..<index] {
      reportUnlessExhaustivityOff(at: site) { mismatch(skipped.action) }
    }
    log.received.removeFirst(index)
    let received = log.received.removeFirst()
    if isMatching(received.action) {
      checkStateChange(
        from: state, to: received.state, shared: received.shared, updateStateToExpectedResult, at: site)
    } else {
      site.reportFailure(mismatch(received.action))
    }
    state = received.state
    await effects.settle()
  }

  /// The failure for a received action that doesn't match an expectation with no value to diff.
  static func unexpectedActionMessage(_ received: Action, expected: String) -> String {
    "Received unexpected action: …\n\n\(indented(String(customDumping: received)))"
      + "\n\n(Expected: \(expected))"
  }
}
