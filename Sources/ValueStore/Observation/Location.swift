import Synchronization

/// A place in a holder's state (the root, a field, an element) and the observers of what is there.
/// Observers subscribe to locations, never to values: values are copied, locations are not. A holder
/// owns a tree of them, grown by tracked reads. Each is *bound* to the ``Extent`` it holds now
/// (`boundSerial`; the extent names it), whose writes notify it at once; a copy's never are. Only the
/// holder binds (its mutation, under its lock or actor, and its reads).
@usableFromInline
final class Location: Subscribers, @unchecked Sendable {  // guarded by `registry`, as its base
  /// The serial of the extent bound here, 0 before the first binding.
  @usableFromInline let boundSerial = Atomic<UInt64>(0)
  /// The locations below, made by the tracked reads that reached them. Guarded by ``registry``.
  @exclusivity(unchecked) private(set) var children: [LocationStep: Location] = [:]
  /// `!children.isEmpty`, readable without the lock.
  @usableFromInline let hasChildren = Atomic<Bool>(false)

  /// What extents bound here hold: a weak reference to this location.
  @usableFromInline let link = LocationLink()

  /// `apple`: a root's Apple subscriptions (with its probe); else made on Observation's first read.
  override init(sharing apple: AppleSubscriptions? = nil) {
    super.init(sharing: apple)
    link.location = self
    if let apple { madeApple(apple) }
  }

  override func madeApple(_ apple: AppleSubscriptions) {
    apple.onObserved = { [link] in link.isObserved.store(true, ordering: .relaxed) }
  }

  override func observedChanged(_ observed: Bool) {
    link.isObserved.store(observed || apple?.isObserved.load(ordering: .relaxed) == true, ordering: .relaxed)
  }

  /// Calls `body` with this location and every one below. Requires the registry lock.
  func forEachInTree(_ body: (Location) -> Void) {
    var pending: [Location] = [self]
    while let location = pending.popLast() {
      body(location)
      pending += location.children.values
    }
  }

  /// The location at `step` below this one, made on first use. Requires the registry lock.
  func child(_ step: LocationStep) -> Location {
    if let found = children[step] { return found }
    let made = Location()
    children[step] = made
    hasChildren.store(true, ordering: .relaxed)
    link.hasChildren.store(true, ordering: .relaxed)
    return made
  }

  /// The location at `step` below this one, if a read reached it. Requires the registry lock.
  func existingChild(_ step: LocationStep) -> Location? {
    children[step]
  }

  /// Forgets the location at `step` (an element removed), retiring it and all below: their extents
  /// are bound nowhere until written back (`Extent.bind(to:_:)`). Requires the registry lock.
  func removeChild(_ step: LocationStep) {
    guard let removed = children.removeValue(forKey: step) else { return }
    removed.forEachInTree { $0.link.isRetired.store(true, ordering: .relaxed) }
    if children.isEmpty {
      hasChildren.store(false, ordering: .relaxed)
      link.hasChildren.store(false, ordering: .relaxed)
    }
  }

  /// How many locations this tree holds (for tests). Requires the registry lock.
  var treeSize: Int {
    var count = 0
    forEachInTree { _ in count += 1 }
    return count
  }

  /// Every observer here and below, as the value here was replaced. Requires the registry lock.
  func replacedDeliveries() -> [Delivery] {
    var deliveries: [Delivery] = []
    forEachInTree { location in
      location.version.add(1, ordering: .relaxed)
      deliveries += location.everyObserver()
    }
    return deliveries
  }


  @inlinable
  func isBound(to extent: Extent) -> Bool {
    boundSerial.load(ordering: .relaxed) == extent.serial
  }
}

/// An extent's reference to the location it is bound to: weak, made once per location.
@usableFromInline
final class LocationLink: @unchecked Sendable {  // `location` is set once, before the link is shared
  @usableFromInline fileprivate(set) weak var location: Location?
  /// Mirrors of the location's state that writes ask, without loading the weak reference: whether
  /// anyone (ours or Apple's) is subscribed there, and whether a read reached below it.
  @usableFromInline let isObserved = Atomic<Bool>(false)
  @usableFromInline let hasChildren = Atomic<Bool>(false)
  /// The location left its holder's tree (`Location.removeChild`): an extent holding this link is
  /// bound nowhere. Set under ``registry`` by the holder's mutation, which alone reads it unlocked.
  @usableFromInline let isRetired = Atomic<Bool>(false)

  init() {}
}

/// One step from a location to the one below: a stored field by key, an identified collection's
/// element by id, a plain array's element by position.
@usableFromInline
enum LocationStep: Hashable, @unchecked Sendable {
  case field(FieldKey)
  case element(AnyHashable)
  case index(Int)
}

