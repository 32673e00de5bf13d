import Synchronization

/// The observers of one place: a holder's ``Location``, or a bare value's box (an ``Extent``'s,
/// for values read outside any holder).
///
/// Registrations never move: an observer registers here and stays until it fires or is
/// cancelled. Guarded by ``registry``, except the two atomics, which writes read without the
/// lock.
@usableFromInline
class Subscribers: @unchecked Sendable {
  /// Guarded by ``registry``.
  var table = RegistrationTable()
  /// Registrations of deactivated observers still in `table`. Guarded by ``registry``.
  private(set) var inactive = 0
  /// Goes up by one at every write that reaches this place: an access that read an older version
  /// registers too late to hear that write, so it fires as it registers (a change between a
  /// tracked read and its registration).
  @usableFromInline let version = Atomic<UInt64>(0)
  /// `!table.isEmpty`, readable without the lock: a write finds nobody to tell in one load.
  @usableFromInline let isObserved = Atomic<Bool>(false)
  /// Apple's Observation's scopes that read here (AppleObservation/). A bare value's fork shares
  /// its origin's: Observation's subscriptions cannot be copied, and the fork may be the value
  /// they read.
  let apple: AppleSubscriptions
  #if VALUESTORE_INTERNAL_CHECKS
  /// The version the last check saw (I4, Invariants.swift). Guarded by ``registry``.
  var _checkedVersion: UInt64 = 0
  #endif

  init(apple: AppleSubscriptions) { self.apple = apple }

  /// `isObserved` became `observed` (a location mirrors it for writes). Requires the registry lock.
  func observedChanged(_ observed: Bool) {}

  /// Registers `observer` for `key`; the caller lists this place in the observer. Requires the
  /// registry lock.
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

  /// An observer with `count` registrations here was deactivated: once the inactive ones are half
  /// the table they are all dropped, so a table holds fewer than twice its live registrations,
  /// at O(1) amortized per observer. Requires the registry lock.
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

  /// Copies the active registrations of `other` here (a bare value forked: its readers may be
  /// the fork's). Requires the registry lock.
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

/// One observer's interest in one key of one place.
struct Registration {
  let observer: Observer
  let key: FieldKey
  let keyPath: AnyKeyPath?
}

/// A key written, with the key path that names it to observers.
@usableFromInline
struct Change {
  let key: FieldKey
  let keyPath: AnyKeyPath?
  /// Set when this is not a write of `key` but a value below `step` changed in place on a copy
  /// (its own extent recorded what): nobody reading `key` hears it, the readers below `step` do
  /// when the copy is written back.
  let below: LocationStep?

  @usableFromInline
  init(key: FieldKey, keyPath: AnyKeyPath?) {
    self.key = key
    self.keyPath = keyPath
    below = nil
  }

  /// A value below `step` changed in place on a copy.
  @usableFromInline
  init(below step: LocationStep) {
    key = .descendant
    keyPath = nil
    below = step
  }

  /// A value's place: it was replaced or removed.
  static var identity: Change { Change(key: .identity, keyPath: nil) }

  /// Whether this records what `other` records (a write of the same key, or a change below the
  /// same step).
  func isSame(as other: Change) -> Bool { key == other.key && below == other.below }
}

extension Array where Element == Registration {
  /// The active observers among these registrations whose key matches one of `changes`.
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
  /// The registrations that reach this value: its box's, and its location's while bound (what a
  /// test asks of "the value's observers"). Requires the registry lock.
  var registrations: RegistrationTable {
    var table = RegistrationTable()
    for registration in box.load()?.table ?? RegistrationTable() { table.append(registration) }
    for registration in boundLocation?.table ?? RegistrationTable() { table.append(registration) }
    return table
  }
}
