/// Undo and redo for a root store: a bounded list of snapshots of its state.
///
/// State is a value, so a snapshot is a copy — cheap, and it does not disturb observation: the
/// store's observers keep working while snapshots are held (the next write forks), and undoing
/// notifies them.
///
/// ```swift
/// let history = StateHistory(store, limit: 50)
/// history.record()          // before a change worth undoing
/// store.send(.increment)
/// history.undo()            // back to the recorded state; observers are notified
/// history.redo()
/// ```
@MainActor
public final class StateHistory<State: ObservationIdentifiable, Action: Sendable> {
  private let store: Store<State, Action>
  private let limit: Int
  private var past: [State] = []
  private var future: [State] = []

  /// A history of at most `limit` snapshots of a root store's state.
  ///
  /// - Precondition: `store` is a root store (not made by `scope`), and `limit > 0`.
  public init(_ store: Store<State, Action>, limit: Int = 100) {
    precondition(limit > 0, "StateHistory: limit must be positive, got \(limit)")
    precondition(store.core is any RootStateReplacing, "StateHistory needs a root store, not a scoped one")
    self.store = store
    self.limit = limit
  }

  /// Whether ``undo()`` has a snapshot to return to.
  public var canUndo: Bool { !past.isEmpty }
  /// Whether ``redo()`` has a snapshot to return to.
  public var canRedo: Bool { !future.isEmpty }

  /// Records the current state as an undo point and clears the redo list.
  public func record() {
    past.append(store.currentState)
    if past.count > limit { past.removeFirst(past.count - limit) }
    future.removeAll()
  }

  /// Returns to the last recorded state; the current state becomes redoable. Does nothing when
  /// there is nothing to undo.
  public func undo() {
    guard let previous = past.popLast() else { return }
    future.append(store.currentState)
    replace(with: previous)
  }

  /// Returns to the last undone state. Does nothing when there is nothing to redo.
  public func redo() {
    guard let next = future.popLast() else { return }
    past.append(store.currentState)
    replace(with: next)
  }

  private func replace(with state: State) {
    (store.core as! any RootStateReplacing<State>).replaceState(with: state)
  }
}

/// A core that can replace its whole state (the root).
@MainActor
protocol RootStateReplacing<State> {
  associatedtype State
  func replaceState(with state: State)
}

extension RootCore: RootStateReplacing {
  func replaceState(with state: State) {
    let context = ThreadContext.current
    withTransaction(context) {
      mutateHeld(&self.state, slot, context) { $0 = state }
    }
  }
}
