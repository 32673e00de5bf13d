import Synchronization

/// A place in a holder's state — the root, a field of a place, an element of a collection at a
/// place — and the observers of what is there.
///
/// Observers subscribe to locations, never to values: values are copied, locations are not. A
/// holder (`Store`, ``ObservedRoot``) owns a tree of them, grown by tracked reads through it. Each
/// is *bound* to the ``Extent`` of the value it holds now: `boundSerial` is that extent's serial,
/// and the extent names this location (`Extent.location`). A write to a bound extent notifies the
/// location at once; a copy's extents are never bound, so a copy's writes never reach it. Only
/// the holder binds — from its mutation's accessors, under its lock or actor, and from its reads
/// — so a location moves on from one value to the next without anything being moved.
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

  /// A location whose Apple subscriptions are `apple` (a root's, made with its probe), or made on
  /// Observation's first read here.
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

  /// Forgets the location at `step` (its value left: an element removed), and retires it and
  /// every location below it: they are no place in the holder's state any more, so an extent
  /// bound to one of them is bound nowhere — a copy holding it (a snapshot) written back later
  /// brings it to the location made anew there, which binds it (`Extent.bind(to:_:)`). Requires
  /// the registry lock.
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

  /// The locations below, by step (a collection's elements, to find those that left). Requires
  /// the registry lock.
  var childSteps: Dictionary<LocationStep, Location>.Keys { children.keys }

  /// Every observer here and below, as the value here was replaced (its readers, and the readers
  /// of anything inside it). Bumps every version on the way. Requires the registry lock.
  func replacedDeliveries() -> [Delivery] {
    var deliveries: [Delivery] = []
    var pending: [Location] = [self]
    while let location = pending.popLast() {
      location.version.add(1, ordering: .relaxed)
      deliveries += location.everyObserver()
      pending += location.children.values
    }
    return deliveries
  }

  /// Whether `extent` is the value bound here now.
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
  /// The location left its holder's tree (`Location.removeChild`): an extent holding this link
  /// is bound nowhere. Set under ``registry`` by the holder's mutation, which alone reads it
  /// without the lock.
  @usableFromInline let isRetired = Atomic<Bool>(false)

  init() {}
}

/// One step from a location to the one below it.
@usableFromInline
enum LocationStep: Hashable, @unchecked Sendable {
  /// A stored field, by key.
  case field(FieldKey)
  /// An element of an identified collection, by id.
  case element(AnyHashable)
  /// An element of a plain array, by position.
  case index(Int)
}

