import Synchronization

/// A plain array of observable elements observes like an identified array for in-place element
/// mutation — changing `rows[0].count` notifies the readers of that row's `count`, not the readers
/// of `rows` — but without an index it pays O(n) per mutation through the field: its identity is a
/// fingerprint of its elements' identities in order, and forked elements are found by a scan.
/// Use ``IdentifiedArray`` for large lists.
extension Array: ObservationIdentifiable where Element: ObservationIdentifiable {
  /// A fingerprint of the count and each element's identity, in order. A fork counts as the value
  /// it was forked from, so mutating an element while a snapshot is alive is not a structure change.
  /// Opaque if an element's identity is (an enum case with a plain payload).
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

  /// Anchors every element: the array has no extent of its own to carry the mark (O(*n*), only on
  /// tracked reads through a holder).
  @inlinable
  public func _anchor() {
    for element in self { element._anchor() }
  }

  @inlinable
  public func _adoptForks(owner: ObservationIdentity) {
    for element in self {
      if let extent = element.observationIdentity.extent,
        extent.flags.load(ordering: .relaxed) & Extent.isFork != 0
      {
        extent.adoptLineage(owner: owner.extent)
      }
    }
  }
}

extension Extent {
  /// The serial of the oldest extent this one was forked from (its own if it is not a fork).
  @usableFromInline
  var lineageSerial: UInt64 {
    guard flags.load(ordering: .relaxed) & Extent.isFork != 0 else { return serial }
    return withRegistry { _ in
      var node = self
      while let origin = node.origin { node = origin }
      return node.serial
    }
  }

  /// Adopts this fork into the slot that held the oldest extent of its lineage.
  @usableFromInline
  func adoptLineage(owner: Extent?) {
    _ = adopt(ancestor: lineageSerial, owner: owner)
  }
}
