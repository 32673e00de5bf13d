import Foundation
import Observation
@testable import ValueStore

/// What the randomized runner drives: an observed `RelState` behind a holder, a store, or in a bare
/// variable, with copies kept beside it.
protocol RelTarget: AnyObject {
  var env: RelCopies { get }
  /// Bare values have the weaker contract (never lost; a mutated copy may notify, S11).
  var isBare: Bool { get }
  /// A copy of the current value.
  var current: RelState { get }
  func mutate(_ steps: [RelStep])
  /// Runs the groups as one transaction; `beforeEnd` runs inside it, after the last group.
  func transaction(_ groups: [[RelStep]], beforeEnd: () -> Void)
  /// Reads `path` through the target's accessors, outside any tracking.
  func peek(_ path: RelPath)
  /// Installs an observer; returns what it read, and how to cancel a loop.
  func install(_ spec: RelObserverSpec, _ fires: FireCounter) -> (read: [String], cancel: (@Sendable () -> Void)?)
  /// Checks the core's invariants on the target (only with `-D VALUESTORE_INTERNAL_CHECKS`).
  func checkInvariants()
}

extension RelTarget {
  /// The extents of the current value, and those of the copies and snapshots kept.
  func checkInvariants() {
    ValueStore._checkInvariants(of: current)
    ValueStore._checkInvariants(of: (env.copies, env.snapshots))
  }
}

/// A continuous observer written with Apple's `withObservationTracking`: re-armed from its own
/// `onChange` (on the thread that changed what it read) until cancelled.
final class RelObservationLoop: @unchecked Sendable {
  private let lock = NSLock()
  private var cancelled = false
  var isCancelled: Bool { lock.withLock { cancelled } }
  func cancel() { lock.withLock { cancelled = true } }

  /// Tracks `read` and counts a round, now and after each change, as `observe` does.
  func run(_ read: @escaping @Sendable () -> [String], _ box: RelReadBox, _ fires: FireCounter) {
    box.value = withObservationTracking(read) { [self] in
      if !isCancelled { run(read, box, fires) }
    }
    fires.tick()
  }
}

/// What a capturing observer's closures hold (see `RelObserverSpec.captures`): a copy of the state
/// observed on its own, or nothing.
func relCapture(_ spec: RelObserverSpec, _ state: RelState) -> RelCaptured? {
  guard spec.captures else { return nil }
  let captured = RelCaptured(state)
  _ = withTracking { (captured.state.count, captured.state.child.title) } onChange: { _ in }
  return captured
}

final class RelCaptured: @unchecked Sendable {
  let state: RelState
  init(_ state: RelState) { self.state = state }
}

/// Holds what an `observe` loop read on its first run.
final class RelReadBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []
  var value: [String] {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

// MARK: - Holder

final class RelHolderTarget: RelTarget {
  let root = ObservedRoot(RelState())
  let env = RelCopies()
  var isBare: Bool { false }
  var current: RelState { root.currentValue }

  /// The holder's tree and value (I1, I2), and the extents of the copies and snapshots kept.
  func checkInvariants() {
    root._checkInvariants()
    ValueStore._checkInvariants(of: (env.copies, env.snapshots))
  }

  func mutate(_ steps: [RelStep]) {
    let env = env
    root.mutate { state in
      for step in steps { step.apply(to: &state, env) }
    }
  }

  func transaction(_ groups: [[RelStep]], beforeEnd: () -> Void) {
    withTransaction {
      for group in groups { mutate(group) }
      beforeEnd()
    }
  }

  func peek(_ path: RelPath) { _ = path.read(RelRootFields(root)) }

  func install(_ spec: RelObserverSpec, _ fires: FireCounter) -> (read: [String], cancel: (@Sendable () -> Void)?) {
    let (root, env) = (root, env)
    let read: @Sendable () -> [String] = {
      defer {
        if let step = spec.writesWhileReading { root.mutate { step.apply(to: &$0, env) } }
      }
      if let path = spec.untrackedPath { _ = untracked { path.read(RelRootFields(root)) } }
      if spec.style == .chain {
        let fields = RelRootFields(root)
        return spec.paths.map { $0.read(fields) }
      }
      return root.read { state in
        let fields = RelRootFields(state)
        return spec.paths.map { $0.read(fields) }
      }
    }
    let captured = relCapture(spec, root.currentValue)
    if spec.isLoop && spec.viaObservation {
      let (loop, box) = (RelObservationLoop(), RelReadBox())
      loop.run({ _ = captured; return read() }, box, fires)
      return (box.value, loop.cancel)
    }
    if spec.isLoop {
      let box = RelReadBox()
      let token = observe {
        _ = captured
        box.value = read()
        fires.tick()
      }
      return (box.value, token.cancel)
    }
    // Weak: an Observation registration that never fires keeps its closure (in the thread's
    // cached bridge), as Apple's own registrar does.
    let onChange: @Sendable () -> Void = { [weak root] in
      _ = captured
      fires.tick()
      if spec.mutatesWhenNotified { root?.mutate { _ in } }
    }
    if spec.viaObservation { return (withObservationTracking(read, onChange: onChange), nil) }
    return (withTracking(read) { _ in onChange() }, nil)
  }
}

// MARK: - Bare

/// A bare value: no holder, mutated in place (in a transaction when a mutation has several steps).
/// One-shot observers only: an `observe` loop would re-read the variable from inside its own write.
final class RelBareTarget: RelTarget {
  var state = RelState()
  let env = RelCopies()
  var isBare: Bool { true }
  var current: RelState { state }

  func mutate(_ steps: [RelStep]) {
    if steps.count == 1 {
      steps[0].apply(to: &state, env)
    } else {
      withTransaction {
        for step in steps { step.apply(to: &state, env) }
      }
    }
  }

  func transaction(_ groups: [[RelStep]], beforeEnd: () -> Void) {
    withTransaction {
      for step in groups.joined() { step.apply(to: &state, env) }
      beforeEnd()
    }
  }

  func peek(_ path: RelPath) { _ = path.read(RelRootFields(state)) }

  func install(_ spec: RelObserverSpec, _ fires: FireCounter) -> (read: [String], cancel: (@Sendable () -> Void)?) {
    let captured = relCapture(spec, state)
    let read = withTracking {
      let fields = RelRootFields(state)
      if let path = spec.untrackedPath { _ = untracked { path.read(fields) } }
      return spec.paths.map { $0.read(fields) }
    } onChange: { _ in
      _ = captured
      fires.tick()
    }
    return (read, nil)
  }
}

// MARK: - Store

enum RelNoAction: Sendable { case none }

enum RelAction: Sendable {
  case steps([RelStep])
  /// Sends one `.steps` per group synchronously: one transaction.
  case batch([[RelStep]])
  case child(RelNoAction)
  case rows(IdentifiedAction<Int, RelNoAction>)
}

/// A store whose reducer runs the steps. Not main-actor isolated itself (the runner is generic);
/// it must be used on the main thread, which every method asserts.
final class RelStoreTarget: RelTarget, @unchecked Sendable {
  let env = RelCopies()
  let store: Store<RelState, RelAction>
  var isBare: Bool { false }

  init() {
    let env = env
    store = MainActor.assumeIsolated {
      Store(initialState: RelState()) {
        Reduce<RelState, RelAction> { state, action in
          switch action {
          case let .steps(steps):
            for step in steps { step.apply(to: &state, env) }
            return .none
          case let .batch(groups):
            return .merge(groups.map { .send(.steps($0)) })
          case .child, .rows:
            return .none
          }
        }
      }
    }
  }

  var current: RelState { MainActor.assumeIsolated { store.currentState } }

  func mutate(_ steps: [RelStep]) { MainActor.assumeIsolated { _ = store.send(.steps(steps)) } }

  /// The batch is one transaction; observers cannot be inspected from inside it.
  func transaction(_ groups: [[RelStep]], beforeEnd: () -> Void) {
    MainActor.assumeIsolated { _ = store.send(.batch(groups)) }
  }

  func peek(_ path: RelPath) { MainActor.assumeIsolated { _ = path.read(Self.chainFields(store)) } }

  func install(_ spec: RelObserverSpec, _ fires: FireCounter) -> (read: [String], cancel: (@Sendable () -> Void)?) {
    MainActor.assumeIsolated {
      let reader = reader(spec)
      let store = store
      let read: @MainActor () -> [String] = {
        defer { if let step = spec.writesWhileReading { _ = store.send(.steps([step])) } }
        if let path = spec.untrackedPath { _ = untracked { path.read(Self.chainFields(store)) } }
        return reader()
      }
      let captured = relCapture(spec, store.currentState)
      if spec.isLoop && spec.viaObservation {
        let (loop, box) = (RelObservationLoop(), RelReadBox())
        let storeRead = UncheckedSendable(read)
        loop.run({ _ = captured; return MainActor.assumeIsolated { storeRead.value() } }, box, fires)
        return (box.value, loop.cancel)
      }
      if spec.isLoop {
        let box = RelReadBox()
        let token = store.observe {
          _ = captured
          box.value = read()
          fires.tick()
        }
        return (box.value, token.cancel)
      }
      let weakStore = UncheckedWeak(store)  // weak, as the holder's (above)
      let onChange: @Sendable () -> Void = {
        _ = captured
        fires.tick()
        if spec.mutatesWhenNotified { MainActor.assumeIsolated { _ = weakStore.value?.send(.steps([])) } }
      }
      if spec.viaObservation { return (withObservationTracking({ read() }, onChange: onChange), nil) }
      return (withTracking { read() } onChange: { _ in onChange() }, nil)
    }
  }

  /// The store's fields read one by one through its accessors (`store.count`).
  @MainActor
  private static func chainFields(_ store: Store<RelState, RelAction>) -> RelRootFields {
    RelRootFields(
      count: { MainActor.assumeIsolated { store.count } }, isEven: { MainActor.assumeIsolated { store.isEven } },
      name: { MainActor.assumeIsolated { store.name } }, child: { MainActor.assumeIsolated { store.child } },
      childCountViaFields: { MainActor.assumeIsolated { store.childCountViaFields } },
      optional: { MainActor.assumeIsolated { store.optional } }, mode: { MainActor.assumeIsolated { store.mode } },
      rows: { MainActor.assumeIsolated { store.rows } },
      maybeMode: { MainActor.assumeIsolated { store.maybeMode } })
  }

  @MainActor
  private func reader(_ spec: RelObserverSpec) -> @MainActor () -> [String] {
    let store = store
    switch spec.style {
    case .chain:
      return {
        let fields = Self.chainFields(store)
        return spec.paths.map { $0.read(fields) }
      }
    case .anchored:
      return { spec.paths.map { path in store.withState { path.read(RelRootFields($0)) } } }
    case .scoped:
      // Child stores are made here, outside the tracked closure: making them reads the state.
      let child = store.scope(state: \.child, action: CasePath(RelAction.child))
      let rows = store.scope(state: \.rows, action: CasePath(RelAction.rows))
      let reads: [@MainActor () -> String] = spec.paths.map { path in
        switch path {
        case .child: return { child.withState { relDescribe($0) } }
        case .childCount: return { "\(child.count)" }
        case .childTitle: return { child.title }
        case let .rowCount(id):
          if let row = rows[id: id] { return { row.hasState ? "\(row.count)" : "nil" } }
        case let .rowTitle(id):
          if let row = rows[id: id] { return { row.hasState ? row.title : "nil" } }
        default: break
        }
        return { store.withState { path.read(RelRootFields($0)) } }
      }
      return { reads.map { $0() } }
    }
  }
}

/// A weak reference a `@Sendable` closure may hold to a main-actor object it uses on the main
/// actor only.
struct UncheckedWeak<Object: AnyObject>: @unchecked Sendable {
  weak var value: Object?
  init(_ value: Object) { self.value = value }
}
