/// How an observer reads its paths.
enum RelReadStyle: Hashable, Sendable {
  /// `root.child.count`: the first field through the holder's accessor, the rest on the copy it
  /// returned (the style of the README and the doc comments; anchored by marking since 4876e57).
  case chain
  /// `root.read { $0.child.count }` / `store.withState { … }`: every read anchored to the holder.
  case anchored
  /// Through child stores (`store.scope(state: \.child, …).count`, a row's store); anchored
  /// elsewhere. Stores only.
  case scoped
}

struct RelObserverSpec: Hashable, Sendable, CustomStringConvertible {
  var paths: [RelPath]
  var style: RelReadStyle
  /// `observe { }` (re-tracks after each change, cancellable) rather than one-shot `withTracking`.
  var isLoop: Bool
  /// Its closures capture a copy of the state that has an observer of its own, so that the copy
  /// dies when the observer does (issue 12: that death took the registry lock inside it).
  var captures = false
  /// A one-shot observer whose `onChange` runs a mutation of the observed value (one that changes
  /// nothing): a mutation from inside the loop that fires observers, while others are pending.
  var mutatesWhenNotified = false
  /// Through Apple's `withObservationTracking` (the bridge), not ours: one-shot, or a loop re-armed
  /// from its own `onChange`. Bare values ignore it: Observation sees reads through holders only.
  var viaObservation = false
  /// A one-shot observer whose closure, after reading, mutates the observed value itself (an
  /// `observe` body sending an action): it hears what that changed of what it read, nothing else.
  /// Holders and stores only.
  var writesWhileReading: RelStep?
  /// A path read first, inside `untracked`: it is not the observer's (Observation must not record
  /// it either, although a store's field asks it through its own key path).
  var untrackedPath: RelPath?

  var description: String {
    let write = writesWhileReading.map { "; mutate { \($0) }" } ?? ""
    let skipped = untrackedPath.map { "untracked { \($0) }; " } ?? ""
    let kind = isLoop ? (viaObservation ? "withObservationTracking loop" : "observe") : viaObservation ? "withObservationTracking" : "withTracking"
    return "\(captures ? "capturing " : "")\(kind) \(style) { \(skipped)"
      + "\(paths.map(\.description).joined(separator: ", "))\(write) }\(mutatesWhenNotified ? " onChange: mutate { }" : "")"
  }
}

/// Which part of the observed value a copy is taken of.
enum RelPart: Hashable, Sendable, CustomStringConvertible {
  case root, child, optional, modePayload, row(Int), rows

  var description: String {
    switch self {
    case .root: "state"
    case .child: "state.child"
    case .optional: "state.optional"
    case .modePayload: "state.mode.editing"
    case let .row(id): "state.rows[id: \(id)]"
    case .rows: "state.rows"
    }
  }
}

/// One operation of a randomized sequence.
enum RelOp: Hashable, Sendable, CustomStringConvertible {
  /// One mutation of the observed value (a holder's `mutate`, a store's `send`, or plain writes to
  /// a bare variable, in a transaction when there are several).
  case mutate([RelStep])
  /// Several mutations inside one `withTransaction` (for a store: actions sent synchronously by one).
  case transaction([[RelStep]])
  case snapshot(Int), dropSnapshot(Int)
  /// Takes a copy out of the observed value (`copies[k] = root.currentValue.child`).
  case copyOut(Int, RelPart)
  /// Mutates a copy in place, outside any mutation of the observed value.
  case editCopy(Int, RelStep)
  /// Mutates a snapshot in place, outside any mutation.
  case thaw(Int, RelStep)
  case dropCopy(Int)
  case track(RelObserverSpec)
  /// Cancels the n-th `observe` subscription (modulo their number).
  case cancel(Int)
  /// Reads a path outside any tracking (an action handler, a log line): it must not subscribe,
  /// and it closes a stale Observation window, so that the next reads take their fast path.
  case peek(RelPath)

  var description: String {
    switch self {
    case let .mutate(steps): "mutate { \(steps.map(\.description).joined(separator: "; ")) }"
    case let .transaction(groups):
      "withTransaction { "
        + groups.map { "mutate { \($0.map(\.description).joined(separator: "; ")) }" }.joined(separator: "; ") + " }"
    case let .snapshot(k): "snapshots[\(k)] = state"
    case let .dropSnapshot(k): "snapshots[\(k)] = nil"
    case let .copyOut(k, part): "copies[\(k)] = \(part)"
    case let .editCopy(k, step): "copies[\(k)]: \(step)"
    case let .thaw(k, step): "snapshots[\(k)]: \(step)"
    case let .dropCopy(k): "copies[\(k)] = nil"
    case let .track(spec): "\(spec)"
    case let .cancel(n): "cancel observe #\(n)"
    case let .peek(path): "_ = \(path)"
    }
  }

  /// The steps the operation runs on the observed value.
  var steps: [RelStep] {
    switch self {
    case let .mutate(steps): steps
    case let .transaction(groups): groups.flatMap { $0 }
    case let .track(spec): spec.writesWhileReading.map { [$0] } ?? []
    default: []
    }
  }

  /// Whether the operation writes a value taken from another place, or replaces the root: the
  /// mutations where a holder may still over-notify (B6, Design.md §3).
  var isB6Shaped: Bool {
    steps.contains { step in
      switch step {
      case .childFromCopy, .childFromOptional, .optionalFromChild, .optionalFromCopy, .modeFromChild, .modeFromCopy,
        .rowSetCopy, .rowsAppendCopy, .rowsFromCopy, .rootFromCopy, .rootFromSnapshot, .rootReset, .rootNewShared,
        .rootUpdatedFromSnapshot:
        true
      default: false
      }
    }
  }

  /// Whether the operation mutates a copy of the observed value (S11: a bare value may notify).
  var mutatesACopy: Bool {
    switch self {
    case .editCopy, .thaw: true
    default: steps.contains(where: \.mutatesACopy)
    }
  }
}
