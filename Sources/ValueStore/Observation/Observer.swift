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

  /// Removes every registration of this observer, so tables return to empty (S19). Requires the
  /// registry lock.
  func deactivate(_ garbage: inout [AnyObject]) {
    isActive = false
    for extent in extents {
      let extent = extent.takeUnretainedValue()
      extent.registrations.removeAll { $0.observer === self }
      extent.updateFlags()
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
