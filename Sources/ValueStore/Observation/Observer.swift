/// A one-shot subscription made by ``withTracking(_:onChange:)``: registered on every place the
/// tracked closure read, fired at most once, then withdrawn from all of them.
@usableFromInline
final class Observer: @unchecked Sendable {
  let onChange: @Sendable (ObservationChange) -> Void
  /// Where this observer is registered, each with how many registrations it has there. Guarded
  /// by ``registry``. Weak: a place holds its observers, and an observer that never fires must not
  /// keep the place (a holder's location, with whatever else is subscribed to it) alive after
  /// its holder.
  @exclusivity(unchecked) private(set) var places: [Place] = []

  /// A place this observer is registered at, weakly, with how many registrations it has there.
  /// (A `weak var` read in place: a struct wrapping the weak reference is copied to be read.)
  struct Place {
    weak var subscribers: Subscribers?
    var registrations: Int
  }
  /// Guarded by ``registry``.
  @exclusivity(unchecked) private(set) var state = State.active
  #if VALUESTORE_INTERNAL_CHECKS
  /// Whether `onChange` was called (I6, Invariants.swift). Guarded by ``registry``.
  var _fired = false

  deinit { _checkReleasedOutsideRegistry("an observer (owning a user closure)") }
  #endif

  enum State {
    /// Registered early, while its tracking closure still runs (it mutated a holder, see
    /// `registerPendingReads`): what it hears is held, and heard once the closure ends on its
    /// thread — never in the middle of it, nor on another thread while it runs.
    case tracking(held: [AnyKeyPath]?)
    /// Waiting for a change.
    case active
    /// Fired or cancelled: never again.
    case inactive
  }

  init(onChange: @escaping @Sendable (ObservationChange) -> Void, tracking: Bool = false) {
    self.onChange = onChange
    if tracking { state = .tracking(held: nil) }
  }

  /// Whether it may still fire. Requires the registry lock.
  var isActive: Bool {
    if case .inactive = state { return false }
    return true
  }

  /// Lists `subscribers` (if new) and counts one more registration there. Requires the registry
  /// lock.
  func didRegister(on subscribers: Subscribers) {
    let found = places.withUnsafeMutableBufferPointer { places in
      // Newest first: reads of one place come together. In place: a copied `Place` copies its
      // weak reference.
      for index in places.indices.reversed() where places.baseAddress![index].subscribers === subscribers {
        places.baseAddress![index].registrations += 1
        return true
      }
      return false
    }
    if !found { places.append(Place(subscribers: subscribers, registrations: 1)) }
  }

  /// Deactivates this observer, so it never fires again, and withdraws its registrations (each
  /// place drops its inactive ones in batches, see `Subscribers.withdraw`). Requires the registry
  /// lock.
  func deactivate(_ garbage: inout [AnyObject]) {
    state = .inactive
    places.withUnsafeMutableBufferPointer { places in
      for index in places.indices {
        guard let subscribers = places.baseAddress![index].subscribers else { continue }
        subscribers.withdraw(places.baseAddress![index].registrations, &garbage)
        garbage.append(subscribers)
      }
    }
    places.removeAll()
    garbage.append(self)
  }

  /// How many registrations it has at each place (for tests). Requires the registry lock.
  var registrationCounts: [Int] { places.map(\.registrations) }

  /// Holds a change that arrives while its closure runs; false if it does not run. Requires the
  /// registry lock.
  func hold(_ keyPaths: [AnyKeyPath]) -> Bool {
    guard case .tracking(var held) = state else { return false }
    held = held ?? []
    for keyPath in keyPaths where !held!.contains(keyPath) { held!.append(keyPath) }
    state = .tracking(held: held)
    return true
  }

  /// Its closure ended: it is an ordinary observer from now on. Returns what it held (nil if it
  /// heard nothing, or was deactivated). Requires the registry lock.
  func stopTracking() -> [AnyKeyPath]? {
    guard case let .tracking(held) = state else { return nil }
    state = .active
    return held
  }
}

/// An observer to notify, with the tracked key path that changed — or Apple's scopes that read
/// keys of a location.
struct Delivery {
  let observer: Observer!
  let keyPath: AnyKeyPath?
  let apple: (place: AppleSubscriptions, keyPaths: [KeyPath<AppleSubscriptions, Int>])?

  init(observer: Observer, keyPath: AnyKeyPath?) {
    self.observer = observer
    self.keyPath = keyPath
    apple = nil
  }

  init(apple place: AppleSubscriptions, keyPaths: [KeyPath<AppleSubscriptions, Int>]) {
    observer = nil
    keyPath = nil
    apple = (place, keyPaths)
  }
}

/// Notifies now, or at the end of the open transaction.
///
/// Observers run from one loop per thread, never nested: an observer that changes what others
/// observe (or itself, as `observe` does when its body mutates what it read) queues their
/// notifications, and the loop runs them after it returns — so a chain of rounds runs at a
/// constant stack depth.
func deliver(_ deliveries: [Delivery]) {
  guard !deliveries.isEmpty else { return }
  let context = ThreadContext.current
  context.pending += deliveries
  if context.transactionDepth == 0 { context.drainPending() }
}

extension ThreadContext {
  /// Fires the pending deliveries, round after round, unless a loop further up this thread's stack
  /// is already doing so. Observers run outside whatever tracking closure made the change that
  /// notified them: what they read is theirs (an `observe` re-tracking), not that closure's.
  func drainPending() {
    guard !pending.isEmpty else { return }
    guard !isFiring else {
      // Apple's scopes hear a change made by an observer now, at the change, as Observation's own
      // properties tell them: at the loop's next round they would include a scope re-armed in
      // this one after the change, and a closure that changes what it read would re-run forever.
      let apple = pending.filter { $0.apple != nil }
      guard !apple.isEmpty else { return }
      pending.removeAll { $0.apple != nil }
      return fire(apple)
    }
    isFiring = true
    let scopeOutside = scope
    scope = nil
    defer {
      isFiring = false
      scope = scopeOutside
    }
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
/// under one acquisition of the lock, then each `onChange` runs outside it.
private func fire(_ all: [Delivery]) {
  var deliveries = all
  // Apple's scopes after ours: a change one of ours makes reaches them at once (`drainPending`),
  // before they re-render and read it.
  var apple: [Delivery] = []
  if deliveries.contains(where: { $0.apple != nil }) {
    apple = deliveries.filter { $0.apple != nil }
    deliveries.removeAll { $0.apple != nil }
  }
  defer { for delivery in apple { if let (place, keyPaths) = delivery.apple { AppleObservation.fire(place, keyPaths) } } }
  guard !deliveries.isEmpty else { return }
  var order: [Observer] = []
  var keyPaths: [[AnyKeyPath]] = []
  if deliveries.count == 1 {
    order = [deliveries[0].observer]
    keyPaths = [deliveries[0].keyPath.map { [$0] } ?? []]
  } else {
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
  let fresh = withRegistry { garbage in
    order.indices.map { position -> Bool in
      let observer = order[position]
      guard observer.isActive, !observer.hold(keyPaths[position]) else { return false }
      #if VALUESTORE_INTERNAL_CHECKS
      observer._willFire()
      #endif
      observer.deactivate(&garbage)
      return true
    }
  }
  for position in order.indices where fresh[position] {
    #if VALUESTORE_INTERNAL_CHECKS
    _checkBeforeOnChange(order[position])
    #endif
    order[position].onChange(ObservationChange(keyPaths: keyPaths[position]))
  }
  #if VALUESTORE_INTERNAL_CHECKS
  withRegistry { _ in for position in order.indices where fresh[position] { order[position]._checkInvariantsLocked() } }
  #endif
}
