/// A one-shot subscription made by ``withTracking(_:onChange:)``: registered on every extent the
/// tracked closure read, fired at most once, then removed from all of them.
@usableFromInline
final class Observer: @unchecked Sendable {
  let onChange: @Sendable (ObservationChange) -> Void
  /// Guarded by ``registry``. Unretained: an extent removes itself from here when it dies, so an
  /// observer never keeps an extent alive (that would make every observed value look shared).
  var extents: [Unmanaged<Extent>] = []
  /// Guarded by ``registry``.
  var isActive = true

  init(onChange: @escaping @Sendable (ObservationChange) -> Void) {
    self.onChange = onChange
  }

  /// Stops this observer. Its registrations stay in the extents' tables, skipped by every reader,
  /// until a table is half inactive and compacts: removing them one by one would scan a table of
  /// N observers N times. Requires the registry lock.
  func deactivate(_ garbage: inout [AnyObject]) {
    isActive = false
    for extent in extents {
      extent.takeUnretainedValue().observerDeactivated(&garbage)
    }
    extents.removeAll()
    garbage.append(self)
  }

  /// Drops a dying extent from `extents`. Requires the registry lock.
  func forget(_ extent: Extent) {
    let dying = Unmanaged.passUnretained(extent).toOpaque()
    extents.removeAll { $0.toOpaque() == dying }
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
