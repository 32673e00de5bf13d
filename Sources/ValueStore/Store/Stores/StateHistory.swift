/// Undo and redo for a root store: a bounded list of snapshots of its state.
///
/// State is a value, so a snapshot is a copy — cheap, and it does not disturb observation: the
/// store's observers keep working while snapshots are held (the next write forks). Undoing does
/// not replace the state: it *updates* it to the snapshot, writing only what differs, so only the
/// readers of what the undo changes are notified (a row edited since is redrawn, the others not).
///
/// ```swift
/// let history = StateHistory(store, limit: 50)
/// history.record()          // before a change worth undoing
/// store.send(.increment)
/// history.undo()            // back to the recorded state; its readers are notified
/// history.redo()
/// ```
///
/// To undo parts of the state only — leaving a running timer, say, alone — name them:
/// `StateHistory(store, parts: \.counter, \.list)`.
@MainActor
public final class StateHistory<State: ObservationIdentifiable, Action: Sendable> {
  private let store: Store<State, Action>
  private let limit: Int
  /// Makes the state's part equal to a snapshot's.
  private let restore: (inout State, State) -> Void
  private var past: [State] = []
  private var future: [State] = []

  /// A history of at most `limit` snapshots of a root store's state.
  ///
  /// - Precondition: `store` is a root store (not made by `scope`), and `limit > 0`.
  public convenience init(_ store: Store<State, Action>, limit: Int = 100) {
    self.init(store, parts: \State.self, limit: limit)
  }

  /// A history of at most `limit` snapshots of `parts` of a root store's state (its fields, say):
  /// undo and redo change those parts alone.
  ///
  /// - Precondition: `store` is a root store (not made by `scope`), every part is writable, and
  ///   `limit > 0`.
  public init(_ store: Store<State, Action>, parts: PartialKeyPath<State>..., limit: Int = 100) {
    require(limit > 0, "StateHistory: limit must be positive, got \(limit)")
    require(store.core is any RootStateUpdating, "StateHistory needs a root store, not a scoped one")
    self.store = store
    self.limit = limit
    let restorers = parts.map { part in
      func restorer<Part>(_: Part.Type) -> (inout State, State) -> Void {
        guard let part = part as? WritableKeyPath<State, Part> else {
          badInput("StateHistory: \(part) is not a writable part of \(State.self)")
        }
        return { state, snapshot in update(&state[keyPath: part], from: snapshot[keyPath: part]) }
      }
      return _openExistential(type(of: part).valueType, do: restorer)
    }
    restore = { state, snapshot in
      for restore in restorers { restore(&state, snapshot) }
    }
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
    restore(to: previous)
  }

  /// Returns to the last undone state. Does nothing when there is nothing to redo.
  public func redo() {
    guard let next = future.popLast() else { return }
    past.append(store.currentState)
    restore(to: next)
  }

  private func restore(to snapshot: State) {
    (store.core as! any RootStateUpdating<State>).updateState { restore(&$0, snapshot) }
  }
}

/// A core whose whole state can be changed from outside its reducer (the root's).
@MainActor
protocol RootStateUpdating<State> {
  associatedtype State
  func updateState(_ body: (inout State) -> Void)
}

extension RootCore: RootStateUpdating {
  func updateState(_ body: (inout State) -> Void) {
    let context = ThreadContext.current
    withTransaction(context) {
      mutateHeld(&self.state, root, context) { body(&$0) }
    }
  }
}
