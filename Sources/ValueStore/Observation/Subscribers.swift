import Synchronization

/// The observers of one place: a holder's ``Location``, or a bare value's box. Registrations never
/// move: an observer stays until it fires or is cancelled. Guarded by ``registry``, except the two
/// atomics, which writes read without the lock.
@usableFromInline
class Subscribers: @unchecked Sendable {
  /// Guarded by ``registry``.
  @exclusivity(unchecked) var table = RegistrationTable()
  /// Registrations of deactivated observers still in `table`. Guarded by ``registry``.
  @exclusivity(unchecked) private(set) var inactive = 0
  /// Incremented by every write that reaches this place: an access that read an older version
  /// registered too late to hear that write, so it fires as it registers.
  @usableFromInline let version = Atomic<UInt64>(0)
  /// `!table.isEmpty`, readable without the lock: an unobserved write costs one load.
  @usableFromInline let isObserved = Atomic<Bool>(false)
  /// Apple's Observation's scopes that read here, made on its first read. A bare value's fork shares
  /// its origin's: the fork may be the value they read, and they cannot be copied.
  private let appleSubscriptions = SetOnce<AppleSubscriptions>()
  #if VALUESTORE_INTERNAL_CHECKS
  /// The version the last check saw (I4, Invariants.swift). Guarded by ``registry``.
  var _checkedVersion: UInt64 = 0
  #endif

  init(sharing apple: AppleSubscriptions? = nil) {
    if let apple { _ = appleSubscriptions.storeIfNil(apple) }
  }

  var apple: AppleSubscriptions? { appleSubscriptions.load() }

  /// Apple's subscriptions here, made on Observation's first read.
  func makeApple() -> AppleSubscriptions {
    if let made = appleSubscriptions.load() { return made }
    let apple = appleSubscriptions.storeIfNil(AppleSubscriptions())
    madeApple(apple)
    return apple
  }

  /// Apple's subscriptions were made here (a location mirrors whether anyone observes it).
  func madeApple(_ apple: AppleSubscriptions) {}

  /// `isObserved` became `observed` (a location mirrors it for writes). Requires the registry lock.
  func observedChanged(_ observed: Bool) {}

  /// Registers `observer` for `key` (the caller lists this place in it). Requires the registry lock.
  func register(_ observer: Observer, key: FieldKey, keyPath: AnyKeyPath?) {
    table.append(Registration(observer: observer, key: key, keyPath: keyPath))
    if table.count == 1 {
      isObserved.store(true, ordering: .relaxed)
      observedChanged(true)
    }
  }

  /// Whether `observer` is registered here for `key`. Requires the registry lock.
  func contains(_ observer: Observer, key: FieldKey) -> Bool { table.contains(observer, key: key) }

  /// The active observers of `changes`. Requires the registry lock.
  func matching(_ changes: [Change]) -> [Delivery] {
    guard !table.isEmpty, !changes.isEmpty else { return [] }
    return table.matching(changes)
  }

  /// Every active observer: the value at this place was replaced. Requires the registry lock.
  func everyObserver() -> [Delivery] {
    table.all.compactMap { $0.observer.isActive ? Delivery(observer: $0.observer, keyPath: $0.keyPath) : nil }
  }

  /// `count` registrations here were deactivated: dropped once half the table (under twice the live
  /// registrations, O(1) amortized per observer). Requires the registry lock.
  func withdraw(_ count: Int, _ garbage: inout [AnyObject]) {
    inactive += count
    guard inactive * 2 >= table.count else { return }
    for registration in table where !registration.observer.isActive { garbage.append(registration.observer) }
    table.removeAll { !$0.observer.isActive }
    inactive = 0
    if table.isEmpty {
      isObserved.store(false, ordering: .relaxed)
      observedChanged(false)
    }
  }

  /// Copies `other`'s active registrations here (a bare value forked: its readers may be the
  /// fork's). Requires the registry lock.
  func copyRegistrations(of other: Subscribers) {
    let isFresh = table.isEmpty
    for registration in other.table where registration.observer.isActive {
      if !isFresh, table.contains(registration.observer, key: registration.key) { continue }
      registration.observer.didRegister(on: self)
      table.append(registration)
    }
    isObserved.store(!table.isEmpty, ordering: .relaxed)
    observedChanged(!table.isEmpty)
  }
}

/// The readers of a bare value (an ``Extent``'s box), which follow it as it moves (a fork copies
/// them, a copy written back takes them along), and `below`, the box's counterpart of a location's
/// children, through which a copy written back is reconciled with the values read below.
@usableFromInline
final class BareBox: Subscribers, @unchecked Sendable {  // guarded by `registry`, as its base
  /// The value each read through this one reached, by step; also set by every reconciliation of a
  /// slot of this value that kept its value. Guarded by ``registry``.
  var below: [LocationStep: Extent] = [:]

  /// Whether readers (ours or Apple's) or values read below follow the value. Requires the registry lock.
  var isInUse: Bool {
    isObserved.load(ordering: .relaxed) || apple?.isObserved.load(ordering: .relaxed) == true || !below.isEmpty
  }

  /// Notes that a read through this value reached `child` at `step`. Requires the registry lock.
  func read(_ child: Extent, at step: LocationStep, _ garbage: inout [AnyObject]) {
    if let old = below.updateValue(child, forKey: step), old !== child { garbage.append(old) }
  }

  /// A fork's box, with the same readers and values below. Requires the registry lock.
  func copy() -> BareBox {
    let copied = BareBox(sharing: apple)
    copied.copyRegistrations(of: self)
    copied.below = below
    return copied
  }
}

struct Registration {
  let observer: Observer
  let key: FieldKey
  let keyPath: AnyKeyPath?
}

extension Array where Element == Registration {
  func matching(_ changes: [Change]) -> [Delivery] {
    var result: [Delivery] = []
    for registration in self where registration.observer.isActive {
      for change in changes where registration.key.matches(change.key) {
        result.append(Delivery(observer: registration.observer, keyPath: registration.keyPath ?? change.keyPath))
        break
      }
    }
    return result
  }
}

extension Extent {
  /// The registrations that reach this value: its box's, and its location's while bound (a test's
  /// "the value's observers"). Requires the registry lock.
  var registrations: RegistrationTable {
    var table = RegistrationTable()
    for registration in box.load()?.table ?? RegistrationTable() { table.append(registration) }
    for registration in boundLocation?.table ?? RegistrationTable() { table.append(registration) }
    return table
  }
}
