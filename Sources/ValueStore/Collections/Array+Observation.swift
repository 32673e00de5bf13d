import Synchronization

/// A plain array of observable elements observes like an identified array for in-place element
/// mutation — changing `rows[0].count` notifies the readers of that row's `count`, not the readers
/// of `rows` — but without ids it pays O(n) per mutation through the field: its identity is a
/// fingerprint of its elements' lineages in order, and after a write through the field the
/// elements the holder observes are reconciled by position. Use ``IdentifiedArray`` for large
/// lists.
extension Array: ObservationIdentifiable where Element: ObservationIdentifiable {
  /// A fingerprint of the count and each element's lineage, in order: mutating an element while
  /// a snapshot is alive (a fork) is not a structure change. Opaque if an element's identity is
  /// (an enum case with a plain payload).
  @inlinable
  public var observationIdentity: ObservationIdentity {
    var hasher = Hasher()
    hasher.combine(count)
    var isOpaque = false
    for element in self {
      let identity = element.observationIdentity
      hasher.combine(identity.extent.map { $0.lineageSerial } ?? identity.serial)
      hasher.combine(identity.tag)
      isOpaque = isOpaque || identity.isOpaque
    }
    return ObservationIdentity(case: hasher.finalize(), opaque: isOpaque)
  }

  /// Gives every element (to any depth) an identity of its own: O(*n*), and a copy of the storage
  /// if it is shared. Only replacements pay it.
  public mutating func _detach() {
    for offset in indices { self[offset]._detach() }
  }

  @inlinable
  public func _unindexedElements() -> [ObservationIdentity] { map(\.observationIdentity) }

  /// Reconciles each element the holder observes (a location below `place` by position) with
  /// what it holds now: a fork of it (written while a snapshot was alive, or a copy written back)
  /// is adopted with its written keys.
  @inlinable
  public func _adoptForks(in place: _ObservationPlace) {
    guard let location = place.location, _slowPath(location.hasChildren.load(ordering: .relaxed)) else { return }
    for offset in indices {
      let identity = self[offset].observationIdentity
      guard let extent = identity.extent, extent.flags.load(ordering: .relaxed) & Extent.isFork != 0,
        let element = Slot.location(.index(offset), below: location)
      else { continue }
      extent.adopt(at: element)
    }
  }
}

extension Extent {
  /// This fork is the value at `location` now: if it descends from the value bound there, it is
  /// bound instead and the location's readers hear what was written since.
  @usableFromInline @inline(never)
  func adopt(at location: Location) {
    var apple: [(Subscribers, [Change]?)] = []
    let deliveries = withRegistry { garbage -> [Delivery] in
      let bound = location.boundSerial.load(ordering: .relaxed)
      guard let changes = self.written(since: bound), bind(to: location, &garbage) else { return [] }
      return location.deliveries(for: changes, &garbage, apple: &apple)
    }
    deliver(deliveries)
    AppleObservation.tell(apple)
  }
}
