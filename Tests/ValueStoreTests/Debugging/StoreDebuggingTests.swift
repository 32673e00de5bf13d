import Testing
@testable import ValueStore

@MainActor
@Suite struct StoreDebuggingTests {
  @Test func printChangesLogsTheActionAndTheStateDiff() {
    let lines = Warnings()
    let store = Store(initialState: AppState(), reducer: AppFeature().printChanges { lines.append($0) })
    store.send(.increment)
    store.send(.mutateDiscardedCopy)
    #expect(
      lines.all == [
        """
        received action: AppFeature.Action.increment
            AppState(
          -   count: 0,
          +   count: 1,
              name: "",
              child: Child(
                count: 0,
            … (14 unchanged)
        """,
        """
        received action: AppFeature.Action.mutateDiscardedCopy
          (No state changes)
        """,
      ])
  }

  @Test func undoAndRedoRestoreStatesAndNotifyObservers() {
    let store = Store.app()
    let history = StateHistory(store, limit: 2)
    #expect(!history.canUndo)
    history.record()
    store.send(.increment)
    history.record()
    store.send(.increment)
    let recorder = tracking { store.count }
    history.undo()
    #expect(store.count == 1)
    #expect(recorder.count == 1)
    let again = tracking { store.count }
    history.undo()
    #expect(store.count == 0)
    #expect(again.count == 1)
    #expect(!history.canUndo)
    history.redo()
    #expect(store.count == 1)
    // Observation keeps working while the history holds snapshots (they share the live state).
    let afterRedo = tracking { store.count }
    store.send(.increment)
    #expect(afterRedo.count == 1)
    #expect(store.count == 2)
  }

  @Test func historyIsBounded() {
    let store = Store.app()
    let history = StateHistory(store, limit: 2)
    for _ in 0..<5 {
      history.record()
      store.send(.increment)
    }
    history.undo()
    history.undo()
    history.undo()  // only two were kept
    #expect(store.count == 3)
  }
}
