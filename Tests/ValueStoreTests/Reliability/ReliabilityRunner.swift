@testable import ValueStore

/// A difference between the library and the reference model.
struct RelFailure: Error, CustomStringConvertible {
  enum Kind: String {
    case lost = "LOST notification"
    case spurious = "SPURIOUS notification"
    case repeated = "notified more than once"
    case early = "notified inside the transaction"
    case value = "wrong value"
    case read = "observer read a wrong value"
    /// Only with `-D VALUESTORE_INTERNAL_CHECKS` (Invariants.swift).
    case invariant = "internal invariant broken"
  }
  let kind: Kind
  let opIndex: Int
  let detail: String

  var description: String { "\(kind.rawValue) at operation \(opIndex): \(detail)" }
}

/// One installed observer, on both sides.
final class RelLiveObserver {
  let spec: RelObserverSpec
  let installedAt: Int
  let fires = FireCounter()
  var cancel: (@Sendable () -> Void)?
  var isAlive = true
  var hasFired = false

  init(spec: RelObserverSpec, installedAt: Int) {
    self.spec = spec
    self.installedAt = installedAt
  }
}

/// Runs operation sequences on a fresh target and on the model, and reports the first difference.
struct RelRunner {
  let makeTarget: () -> any RelTarget
  /// Known bugs to steer around (their situations are skipped on both sides).
  let avoiding: Set<RelKnownBug>

  func run(_ ops: [RelOp]) -> RelFailure? {
    // With the internal checks compiled in, a broken invariant is a failure of the operation that
    // broke it (and is shrunk as any other); without them nothing is collected.
    _collectingInvariantViolations { runOps(ops) }.result
  }

  /// The violations of the core's invariants found during operation `index`, and after it in the
  /// target (its holder's tree, its value's extents).
  private func invariantFailure(_ target: any RelTarget, _ index: Int) -> RelFailure? {
    guard _internalChecks else { return nil }
    target.checkInvariants()
    let violations = _takeInvariantViolations()
    guard !violations.isEmpty else { return nil }
    return RelFailure(kind: .invariant, opIndex: index, detail: violations.prefix(5).joined(separator: "; "))
  }

  private func runOps(_ ops: [RelOp]) -> RelFailure? {
    let target = makeTarget()
    var world = MWorld()
    var observers: [RelLiveObserver] = []
    defer { for observer in observers { observer.cancel?() } }

    for (index, op) in ops.enumerated() {
      let before = observers.map(\.fires.count)
      var expected = Set<ObjectIdentifier>()
      var allowed = Set<ObjectIdentifier>()
      var failure: RelFailure?
      /// Bare values: a write to a value that is a copy of another live value may notify (S11).
      var writesASharedCopy = false

      func note(_ change: RelChange, _ observer: RelLiveObserver) {
        switch change {
        case .required: expected.insert(ObjectIdentifier(observer))
        case .allowed: allowed.insert(ObjectIdentifier(observer))
        case .none: break
        }
      }

      /// Applies one mutation's steps to the model, collecting the observers whose paths they change,
      /// and returns the steps to run on the library (known limits and avoided bugs are skipped).
      /// Each write counts (S18: written twice, or back, still notifies). A mutation that replaces
      /// the root is judged as a whole, as the holder does (Documentation/Core.md, "Root replacement"): what
      /// differs between its start and its end must be notified, anything else may be.
      func model(_ steps: [RelStep]) -> [RelStep] {
        let start = world.state
        var changes: [(RelLiveObserver, RelChange)] = []
        var replaced = false
        var runnable: [RelStep] = []
        for step in steps {
          if target.isBare && step.replacesTheRoot { continue }  // known limit: nothing can notify
          if RelKnownBug.blocks(step, world, start: start, avoiding) != nil { continue }
          runnable.append(step)
          let old = world.state
          var new = old
          step.apply(to: &new, world)
          world.simulateHolderStep(step, &new)
          if target.isBare && !writesASharedCopy { writesASharedCopy = world.writesASharedCopy(old, new) }
          world.state = new
          replaced = replaced || !old.hist.isAncestor(of: new.hist)
          for observer in observers where observer.isAlive {
            changes.append((observer, observer.spec.paths.map { $0.change(from: old, to: new) }.max() ?? .none))
          }
        }
        for (observer, change) in changes { note(replaced ? min(change, .allowed) : change, observer) }
        if replaced {
          for observer in observers where observer.isAlive {
            note(observer.spec.paths.map { $0.change(from: start, to: world.state) }.max() ?? .none, observer)
          }
        }
        return runnable
      }

      switch op {
      case let .mutate(steps):
        let steps = model(steps)
        if !steps.isEmpty { target.mutate(steps) }
      case let .transaction(groups):
        let runnableGroups = groups.map { model($0) }
        target.transaction(runnableGroups) {
          if observers.map(\.fires.count) != before {
            failure = RelFailure(kind: .early, opIndex: index, detail: "an observer ran before the transaction ended")
          }
        }
      case let .snapshot(k):
        world.snapshots[k] = world.state
        target.env.snapshots[k] = target.current
      case let .dropSnapshot(k):
        world.snapshots[k] = nil
        target.env.snapshots[k] = nil
      case let .copyOut(k, part):
        world.copies[k] = world.state.copy(part)
        target.env.copies[k] = target.current.copy(part)
      case let .peek(path):
        target.peek(path)
      case let .dropCopy(k):
        world.copies[k] = MCopy()
        target.env.copies[k] = RelCopy()
      case let .editCopy(k, step):
        if RelKnownBug.blocksEdit(step, of: .copy(k), target.env, isBare: target.isBare, avoiding) == nil {
          world.editCopy(k, step)
          target.env.editCopy(k, step)
        }
      case let .thaw(k, step):
        let blocked = RelKnownBug.blocksEdit(step, of: .snapshot(k), target.env, isBare: target.isBare, avoiding)
        if world.snapshots[k] != nil, blocked == nil {
          world.thaw(k, step)
          target.env.thaw(k, step)
        }
      case var .track(spec):
        guard RelKnownBug.blocks(spec, avoiding) == nil else { break }
        let readState = world.state
        if let step = spec.writesWhileReading {
          // Bare values are not mutated from inside their observer's closure. Nor is a value
          // observed by a loop re-armed from Observation's `onChange` from inside Observation's
          // closure: the loop re-armed there is nested in that closure, and Observation merges
          // what it reads into it (Design §5, limits).
          let nestsALoop = spec.viaObservation && observers.contains { $0.isAlive && $0.spec.isLoop && $0.spec.viaObservation }
          spec.writesWhileReading = target.isBare || nestsALoop ? nil : model([step]).first
        }
        let observer = RelLiveObserver(spec: spec, installedAt: index)
        let (read, cancel) = target.install(spec, observer.fires)
        observer.cancel = cancel
        observers.append(observer)
        let modelRead = spec.paths.map { $0.read(readState) }
        if read != modelRead {
          failure = RelFailure(kind: .read, opIndex: index, detail: "\(spec) read \(read), the model says \(modelRead)")
        } else if spec.writesWhileReading == nil && observer.fires.count > (spec.isLoop ? 1 : 0) {
          // Nothing changed between its reads and its registration (one thread): a read that
          // registers stale (at a location that does not hold the value read) fires at once.
          failure = RelFailure(
            kind: .spurious, opIndex: index, detail: "the new observer (\(spec)) was notified as it was installed")
        } else if spec.writesWhileReading != nil && spec.viaObservation {
          // Observation subscribes when the closure ends: its own change is missed (as on Apple's
          // own models), the next one is heard.
          if observer.fires.count > 0 {
            failure = RelFailure(
              kind: .spurious, opIndex: index,
              detail: "the new observer (\(spec)) was notified of its own change; Observation had not subscribed yet")
          }
        } else if spec.writesWhileReading != nil {
          // It read, then its own mutation: it hears what that changed of what it read.
          let change = spec.paths.map { $0.change(from: readState, to: world.state) }.max() ?? .none
          let fired = observer.fires.count
          let who = "the new observer (\(spec))"
          if fired > 0 { (observer.isAlive, observer.hasFired) = (false, true) }
          if fired > 1 {
            failure = RelFailure(kind: .repeated, opIndex: index, detail: "\(who) ran \(fired) times")
          } else if change == .required && fired == 0 {
            failure = RelFailure(kind: .lost, opIndex: index, detail: "\(who) was not notified; what it read changed")
          } else if change == .none && fired > 0 {
            failure = RelFailure(kind: .spurious, opIndex: index, detail: "\(who) was notified; nothing it read changed")
          }
        }
      case let .cancel(n):
        let loops = observers.filter { $0.isAlive && $0.spec.isLoop }
        if !loops.isEmpty {
          let loop = loops[n % loops.count]
          loop.cancel?()
          loop.isAlive = false
        }
      }
      if let failure { return failure }
      if let failure = invariantFailure(target, index) { return failure }
      let mayBeSpurious = target.isBare && (op.mutatesACopy || writesASharedCopy)
      if let failure = check(observers, before, expected, allowed, index, mayBeSpurious: mayBeSpurious, target.isBare) {
        return failure
      }
      guard !op.steps.isEmpty else { continue }  // only mutations change the value
      let current = target.current
      if !current.matches(world.state) {
        let detail = "the value is \(current.summary), the model says \(world.state.summary)"
        return RelFailure(kind: .value, opIndex: index, detail: detail)
      }
    }
    return nil
  }

  private func check(
    _ observers: [RelLiveObserver], _ before: [Int], _ expected: Set<ObjectIdentifier>,
    _ allowed: Set<ObjectIdentifier>, _ index: Int,
    mayBeSpurious: Bool, _ isBare: Bool
  ) -> RelFailure? {
    for (number, observer) in observers.enumerated() where number < before.count && observer.isAlive {
      let delta = observer.fires.count - before[number]
      let shouldFire = expected.contains(ObjectIdentifier(observer))
      var who: String { "observer #\(number) (\(observer.spec), installed at operation \(observer.installedAt))" }
      if delta > 0 { observer.hasFired = true }
      if !observer.spec.isLoop && delta > 0 { observer.isAlive = false }
      if delta > 1 {
        return RelFailure(kind: .repeated, opIndex: index, detail: "\(who) ran \(delta) times")
      }
      // Bare values: never lost means notified at some point since it was installed.
      let missed = isBare ? !observer.hasFired : delta == 0
      if shouldFire && missed {
        return RelFailure(kind: .lost, opIndex: index, detail: "\(who) was not notified; what it read changed")
      }
      if !shouldFire && delta > 0 && !mayBeSpurious && !allowed.contains(ObjectIdentifier(observer)) {
        return RelFailure(kind: .spurious, opIndex: index, detail: "\(who) was notified; nothing it read changed")
      }
    }
    return nil
  }
}
