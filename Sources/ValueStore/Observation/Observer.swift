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

  init(onChange: @escaping @Sendable (ObservationChange) -> Void) {
    self.onChange = onChange
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
      extent.takeUnretainedValue().withdraw(count)
    }
    extents.removeAll()
    garbage.append(self)
  }

  /// Drops a dying extent from `extents`. Requires the registry lock.
  func forget(_ extent: Extent) {
    let dying = Unmanaged.passUnretained(extent).toOpaque()
    extents.removeAll { $0.extent.toOpaque() == dying }
  }

  /// Fires once: deactivates, then calls `onChange` outside the lock.
  func fire(_ change: ObservationChange) {
    let fresh = withRegistry { garbage -> Bool in
      guard isActive else { return false }
      deactivate(&garbage)
      return true
    }
    if fresh { onChange(change) }
  }
}

/// An observer to notify, with the tracked key path that changed.
struct Delivery {
  let observer: Observer
  let keyPath: AnyKeyPath?
}

/// Notifies now, or at the end of the open transaction.
func deliver(_ deliveries: [Delivery]) {
  guard !deliveries.isEmpty else { return }
  let context = ThreadContext.current
  if context.transactionDepth > 0 {
    context.pending += deliveries
  } else {
    fire(deliveries)
  }
}

/// Fires each distinct observer once, with all of its changed key paths.
func fire(_ deliveries: [Delivery]) {
  if deliveries.count == 1, let delivery = deliveries.first {
    return delivery.observer.fire(ObservationChange(keyPaths: delivery.keyPath.map { [$0] } ?? []))
  }
  var order: [Observer] = []
  var keyPaths: [ObjectIdentifier: [AnyKeyPath]] = [:]
  for delivery in deliveries {
    let id = ObjectIdentifier(delivery.observer)
    if keyPaths[id] == nil {
      order.append(delivery.observer)
      keyPaths[id] = []
    }
    if let keyPath = delivery.keyPath, !keyPaths[id]!.contains(keyPath) {
      keyPaths[id]!.append(keyPath)
    }
  }
  for observer in order {
    observer.fire(ObservationChange(keyPaths: keyPaths[ObjectIdentifier(observer)]!))
  }
}
