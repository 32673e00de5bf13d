import Dispatch
@_spi(Testing) import ValueStore

extension TestStore {
  /// Fails if received actions are still unasserted, then waits until every effect has finished,
  /// for up to `timeout` (``TestStore/timeout`` when nil), and fails for each one still running
  /// then.
  ///
  /// ```swift
  /// await store.send(.saveButtonTapped) { $0.isSaving = true }
  /// await store.receive(.saved) { $0.isSaving = false }
  /// await store.finish()   // the save effect has returned
  /// ```
  ///
  /// Each failure names the action that started the effect and where the test sent it:
  ///
  /// ```text
  /// An effect returned for this action is still running. It must run to completion before the end of the test. …
  ///
  /// Started by send(TimerFeature.Action.toggleTimer) at TimerTests.swift:12
  /// ```
  ///
  /// Effects skipped with ``skipInFlightEffects(strict:fileID:filePath:line:column:)`` are not waited for. Actions the effects send
  /// meanwhile are received actions, to assert afterwards.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    if !log.received.isEmpty {
      reportUnlessExhaustivityOff(at: site) { unhandledActionsMessage("The store received", ":") }
    }
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    let finished = await effects.wait(until: deadline) { effects.running().isEmpty }
    guard !finished else { return }
    for effect in effects.running() { site.reportFailure(effect.stillRunningMessage) }
  }

  /// Stops requiring the effects running now to finish by the end of the test. They keep running,
  /// and the actions they send are still received actions.
  ///
  /// ```swift
  /// await store.send(.onAppear)       // starts listening to notifications, for good
  /// await store.skipInFlightEffects()
  /// ```
  ///
  /// First lets effects that are about to finish do so. When `strict`, having no running effect to
  /// skip fails the test.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await effects.settle()
    if strict && effects.running().isEmpty {
      CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        .reportFailure("There were no in-flight effects to skip.")
    }
    effects.skipRunning()
  }

  /// The checks made when the test store is released: no unasserted received actions (reported
  /// at the test's last step, which they came after), no running effects (reported where the
  /// test sent the action that started them).
  func checkEndOfTest() {
    if !log.received.isEmpty {
      reportUnlessExhaustivityOff(at: lastStepSite) { unhandledActionsMessage("The store received", " after this one:") }
    }
    for effect in effects.running() {
      reportUnlessExhaustivityOff(at: effect.origin.site) { effect.stillRunningMessage }
    }
    if sharedChanges.hasChanges(at: sharedChanges.snapshot()) {
      reportUnlessExhaustivityOff(at: lastStepSite) {
        "Test store finished before asserting against changes to shared state: assert them with "
          + "`store.assert { $0.$value.withLock { … } }`."
      }
    }
  }

  /// `The store received 2 unexpected actions after this one: …`, and the actions.
  private func unhandledActionsMessage(_ lead: String, _ tail: String) -> String {
    "\(lead) \(counted(log.received.count, "unexpected action"))\(tail) …"
      + "\n\nUnhandled actions: \(log.receivedActionsDump)"
  }
}

/// Whether the caller runs on the main actor, without trapping when it doesn't (unlike
/// `MainActor.assumeIsolated`). The main actor runs its jobs on the main dispatch queue, so a
/// value set on that queue is visible exactly there.
func isRunningOnMainActor() -> Bool {
  DispatchQueue.getSpecific(key: mainQueueMarker) == true
}

private let mainQueueMarker: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()
