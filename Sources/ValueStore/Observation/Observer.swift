/// A one-shot subscription made by ``withTracking(_:onChange:)``: registered on every place the
/// tracked closure read, fired at most once, then withdrawn from all of them.
@usableFromInline
final class Observer: @unchecked Sendable {
  let onChange: @Sendable (ObservationChange) -> Void
  /// Where it is registered, with its count at each. Guarded by ``registry``. Weak: an observer that
  /// never fires must not keep a place (and its other subscribers) alive after its holder.
  @exclusivity(unchecked) private(set) var places: [Place] = []

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
    /// Registered early, while its closure runs (it mutated a holder, see `registerPendingReads`):
    /// what it hears is held until the closure ends on its thread.
    case tracking(held: [AnyKeyPath]?)
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

  /// Counts one more registration at `subscribers`, listing it if new. Requires the registry lock.
  func didRegister(on subscribers: Subscribers) {
    let found = places.withUnsafeMutableBufferPointer { places in
      // Newest first (reads of one place come together); in place: a copy copies the weak reference.
      for index in places.indices.reversed() where places.baseAddress![index].subscribers === subscribers {
        places.baseAddress![index].registrations += 1
        return true
      }
      return false
    }
    if !found { places.append(Place(subscribers: subscribers, registrations: 1)) }
  }

  /// Never fires again; withdraws its registrations (places drop inactive ones in batches, see
  /// `Subscribers.withdraw`). Requires the registry lock.
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

  /// Holds a change while its closure runs; false if it does not run. Requires the registry lock.
  func hold(_ keyPaths: [AnyKeyPath]) -> Bool {
    guard case .tracking(var held) = state else { return false }
    held = held ?? []
    for keyPath in keyPaths where !held!.contains(keyPath) { held!.append(keyPath) }
    state = .tracking(held: held)
    return true
  }

  /// Its closure ended: an ordinary observer from now on. Returns what it held (nil if nothing, or
  /// deactivated). Requires the registry lock.
  func stopTracking() -> [AnyKeyPath]? {
    guard case let .tracking(held) = state else { return nil }
    state = .active
    return held
  }
}

/// An observer to notify with the tracked key path that changed, or Apple's scopes at a place.
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

/// Notifies now, or at the end of the open transaction. Observers run from one loop per thread,
/// never nested: one that changes what others observe (or itself, as `observe` may) queues their
/// notifications for after it returns, so a chain of rounds runs at a constant stack depth.
func deliver(_ deliveries: [Delivery]) {
  guard !deliveries.isEmpty else { return }
  let context = ThreadContext.current
  context.pending += deliveries
  if context.transactionDepth == 0 { context.drainPending() }
}

extension ThreadContext {
  /// Fires the pending deliveries round after round, unless a loop up this thread's stack does.
  /// Observers run outside the tracking closure that made the change: what they read is theirs.
  func drainPending() {
    guard !pending.isEmpty else { return }
    guard !isFiring else {
      // Apple's scopes hear an observer's change now, as Observation's own properties do: at the next
      // round a scope re-armed meanwhile would hear it too, and a self-changing closure would loop.
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
    if pending.capacity < batch.capacity { swap(&batch, &pending) }
  }
}

/// Fires each distinct observer once with all its changed key paths: all are deactivated under one
/// acquisition of the lock, then each `onChange` runs outside it.
private func fire(_ all: [Delivery]) {
  var deliveries = all
  // Apple's after ours: a change ours make reaches them at once, before they re-render and read it.
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
