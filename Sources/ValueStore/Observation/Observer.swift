/// A one-shot subscription made by ``withTracking(_:onChange:)``: registered on every extent the
/// tracked closure read, fired at most once, then removed from all of them.
@usableFromInline
final class Observer: @unchecked Sendable {
  let onChange: @Sendable (ObservationChange) -> Void
  /// The extents this observer is registered on, each with how many registrations it has there.
  /// Guarded by ``registry``. Unretained: an extent removes itself from here when it dies, so an
  /// observer never keeps an extent alive (that would make every observed value look shared).
  var extents: [(extent: Unmanaged<Extent>, registrations: Int)] = []
  /// Guarded by ``registry``.
  var isActive = true
  /// While its tracking closure still runs (its reads before a mutation were registered early, see
  /// `registerPendingReads`): a change then is held, and heard once the closure ends, on its
  /// thread — never in the middle of it, nor on another thread while it runs. Guarded by
  /// ``registry``.
  var isTracking = false
  var heldKeyPaths: [AnyKeyPath]?
  /// Set for a bridge to Apple's Observation (ObservationBridge.swift, FieldBridges.swift), which
  /// then differs twice:
  /// - Told it fired, and whether it stays registered (`kept`), before any observer of its batch
  ///   runs (`onChange` may run user code, which may read the bridged field again: it must find
  ///   the bridge closed, or it would record a key path whose notification is still to come, and
  ///   hear of a change it has already seen).
  /// - Kept, not deactivated, when it fires while Observation tracks on this thread: the closure
  ///   running there may have recorded it, and subscribes only when it ends (the change is missed
  ///   then, as for Observation's own properties, but the next one must not be). On the thread
  ///   that armed it, when another thread fires it: while that thread's bridge window is open
  ///   (`ObservationBridge.armedBy`). And whenever `keeps` says so; never once a newer bridge
  ///   stands for the same field (`ObservationBridge.isSuperseded`).
  let closed: (@Sendable (_ kept: Bool) -> Void)?
  /// The window bridge this observer is the observer of, if it is one (ObservationBridge.swift).
  let windowBridge: ObservationBridge?
  /// Whether a bridge stays registered for its own reasons (a store field read since it last
  /// fired, FieldBridges.swift). Called on the firing thread, outside the registry lock.
  let keeps: (@Sendable () -> Bool)?

  init(
    onChange: @escaping @Sendable (ObservationChange) -> Void, closed: (@Sendable (_ kept: Bool) -> Void)? = nil,
    windowBridge: ObservationBridge? = nil, keeps: (@Sendable () -> Bool)? = nil
  ) {
    self.onChange = onChange
    self.closed = closed
    self.windowBridge = windowBridge
    self.keeps = keeps
  }

  /// Whether this bridge, firing now on `context`'s thread, stays registered (see `closed`).
  /// `tracksHere` caches the probe for a batch. A window bridge counts the decision as under way
  /// (`ObservationBridge.deciding`) until `decided()`, which every call on a bridge is followed by.
  func staysArmed(firingOn context: ThreadContext, _ tracksHere: inout Bool?) -> Bool {
    guard closed != nil else { return false }
    windowBridge?.deciding.add(1, ordering: .sequentiallyConsistent)
    if let keeps, keeps() { return true }
    if let bridge = windowBridge {
      if bridge.isSuperseded.load(ordering: .sequentiallyConsistent) { return false }
      if bridge.armedBy !== context.window { return bridge.armedBy.isOpen.load(ordering: .sequentiallyConsistent) }
    }
    if tracksHere == nil { tracksHere = context.observationTracksHere() }
    return tracksHere!
  }

  /// The decision `staysArmed` started is carried out (the bridge closed or kept).
  func decided() {
    windowBridge?.deciding.subtract(1, ordering: .sequentiallyConsistent)
  }

  /// Lists `extent` (if new) and counts one more registration on it. Requires the registry lock.
  func didRegister(on extent: Extent) {
    let opaque = Unmanaged.passUnretained(extent).toOpaque()
    if let index = extents.lastIndex(where: { $0.extent.toOpaque() == opaque }) {
      extents[index].registrations += 1
    } else {
      extents.append((.passUnretained(extent), 1))
    }
  }

  /// Deactivates this observer, so it never fires again, and withdraws its registrations. Tables
  /// are not scanned: each extent counts its inactive registrations and drops them all once they
  /// are half of its table, so a table holds at most twice its live registrations and returns to
  /// empty when the last live one goes (S19) — at O(1) amortized per observer and extent (a scan
  /// per deactivation made a row send cost O(observers of the root)). Requires the registry lock.
  func deactivate(_ garbage: inout [AnyObject]) {
    isActive = false
    for (extent, count) in extents {
      // No temporary reference if the compiler can help it; if one is made and turns out to be
      // the last, `Extent.deinit` copes (see `registry`).
      extent._withUnsafeGuaranteedRef { $0.withdraw(count, &garbage) }
    }
    extents.removeAll()
    garbage.append(self)
  }

  /// Holds a change that arrives while its closure runs (see `isTracking`); false if it does not
  /// run. Requires the registry lock.
  func hold(_ keyPath: AnyKeyPath?) -> Bool {
    guard isTracking else { return false }
    var held = heldKeyPaths ?? []
    if let keyPath, !held.contains(keyPath) { held.append(keyPath) }
    heldKeyPaths = held
    return true
  }

  /// Moves its registrations on `old` to `new`, which has none of them (a table taken whole).
  /// Requires the registry lock.
  func moveRegistrations(from old: Extent, to new: Extent) {
    let opaque = Unmanaged.passUnretained(old).toOpaque()
    if let index = extents.lastIndex(where: { $0.extent.toOpaque() == opaque }) {
      extents[index].extent = .passUnretained(new)
    }
  }

  /// Drops an extent from `extents` (it dies, or its location moved on). Requires the registry
  /// lock. A window bridge left with none tells the thread that caches it (`deadBridges`).
  func forget(_ extent: Extent) {
    let dying = Unmanaged.passUnretained(extent).toOpaque()
    extents.removeAll { $0.extent.toOpaque() == dying }
    if extents.isEmpty, let windowBridge {
      windowBridge.armedBy.deadKeys.append(windowBridge.key)
      windowBridge.armedBy.deadBridges.add(1, ordering: .relaxed)
    }
  }
}

/// An observer to notify, with the tracked key path that changed.
struct Delivery {
  let observer: Observer
  let keyPath: AnyKeyPath?
}

/// Notifies now, or at the end of the open transaction.
///
/// Observers run from a loop on this thread, never nested: an observer that changes what others
/// observe (or itself, as `observe` does when its body mutates what it read) queues their
/// notifications, and the loop runs them after it returns — so a chain of rounds runs at a
/// constant stack depth. Bridges to Apple's Observation are the exception (`fireWhileFiring`).
func deliver(_ deliveries: [Delivery]) {
  guard !deliveries.isEmpty else { return }
  let context = ThreadContext.current
  guard context.transactionDepth == 0 else {
    context.pending += deliveries
    return
  }
  guard !context.isFiring else { return context.fireWhileFiring(deliveries) }
  context.startFiring()
  defer { context.stopFiring() }
  fire(deliveries)
  context.firePending()
}

extension ThreadContext {
  /// Fires the pending deliveries, round after round, unless a loop further up this thread's stack
  /// is already doing so.
  func drainPending() {
    guard !isFiring else {
      let queued = pending
      pending.removeAll(keepingCapacity: true)
      return fireWhileFiring(queued)
    }
    startFiring()
    defer { stopFiring() }
    firePending()
  }

  /// Changes made while this thread's observers run (from an `onChange`): our observers wait for
  /// the loop's next round; bridges to Apple's Observation fire now, nested, as Observation's own
  /// `withMutation` runs at the change. Apple notifies the scopes subscribed *when it runs*, and
  /// only now are those the scopes that read the field before the change: at the next round they
  /// would include a scope re-armed in this one after the change, and the very closure that made
  /// it (a closure that reads and then changes a value, re-armed from its `onChange`, re-ran for
  /// ever; Observation does not tell a closure of its own changes, `Observer.closed`).
  func fireWhileFiring(_ deliveries: [Delivery]) {
    var bridges: [Delivery] = []
    for delivery in deliveries {
      if delivery.observer.closed != nil { bridges.append(delivery) } else { pending.append(delivery) }
    }
    if !bridges.isEmpty { fire(bridges) }
  }

  /// Observers run outside whatever tracking closure made the change that notified them: what
  /// they read is theirs (an `observe` re-tracking), not that closure's.
  fileprivate func startFiring() {
    isFiring = true
    scopeWhileFiring = scope
    scope = nil
  }

  fileprivate func stopFiring() {
    isFiring = false
    scope = scopeWhileFiring
    scopeWhileFiring = nil
  }

  /// The loop: each round's observers may queue the next round. Requires `isFiring`.
  fileprivate func firePending() {
    guard !pending.isEmpty else { return }
    var batch: [Delivery] = []
    while !pending.isEmpty {
      swap(&batch, &pending)
      fire(batch)
      batch.removeAll(keepingCapacity: true)
    }
    // Keep the larger buffer for the next round.
    if pending.capacity < batch.capacity { swap(&batch, &pending) }
  }
}

/// Fires each distinct observer once, with all of its changed key paths: every one is deactivated
/// under one acquisition of the lock (so the cost of a notification does not depend on how
/// contended the lock is per observer), bridges are told they closed, then each `onChange` runs
/// outside it.
func fire(_ deliveries: [Delivery]) {
  if deliveries.count == 1, let delivery = deliveries.first {
    // The common case, without the bookkeeping below.
    let observer = delivery.observer
    var tracksHere: Bool?
    let keep = observer.closed != nil && observer.staysArmed(firingOn: ThreadContext.current, &tracksHere)
    let fresh = withRegistry { garbage -> Bool in
      guard observer.isActive, !observer.hold(delivery.keyPath) else { return false }
      if !keep { observer.deactivate(&garbage) }
      return true
    }
    if fresh { observer.closed?(keep) }
    if observer.closed != nil { observer.decided() }
    guard fresh else { return }
    observer.onChange(ObservationChange(keyPaths: delivery.keyPath.map { [$0] } ?? []))
    return
  }
  var order: [Observer] = []
  var keyPaths: [[AnyKeyPath]] = []
  do {
    var index: [ObjectIdentifier: Int] = [:]
    for delivery in deliveries {
      let id = ObjectIdentifier(delivery.observer)
      let position = index[id] ?? {
        order.append(delivery.observer)
        keyPaths.append([])
        index[id] = order.count - 1
        return order.count - 1
      }()
      if let keyPath = delivery.keyPath, !keyPaths[position].contains(keyPath) {
        keyPaths[position].append(keyPath)
      }
    }
  }
  var tracksHere: Bool?
  let context = order.contains { $0.closed != nil } ? ThreadContext.current : nil
  let keeps = order.map { observer in context.map { observer.staysArmed(firingOn: $0, &tracksHere) } ?? false }
  let fresh = withRegistry { garbage in
    order.enumerated().map { offset, observer -> Bool in
      guard observer.isActive else { return false }
      if observer.isTracking {
        _ = observer.hold(nil)  // held even when no key path names the change (an identity)
        for keyPath in keyPaths[offset] { _ = observer.hold(keyPath) }
        return false
      }
      if !keeps[offset] { observer.deactivate(&garbage) }
      return true
    }
  }
  for (offset, observer) in order.enumerated() where fresh[offset] { observer.closed?(keeps[offset]) }
  if context != nil { for observer in order where observer.closed != nil { observer.decided() } }
  for (offset, observer) in order.enumerated() where fresh[offset] {
    observer.onChange(ObservationChange(keyPaths: keyPaths[offset]))
  }
}
