// The core's invariants (Design.md §4), each checked by its type's `_checkInvariants()`, compiled
// only with `-DVALUESTORE_INTERNAL_CHECKS` (.ci/run); else each check is an empty `@inline(__always)`
// function. A check under the registry lock runs no user code (values are walked by reflection
// first; custom mirrors outside the stdlib are not followed). With the flag each holder mutation
// walks its whole value and tree (O(state): not for large-state tests). A broken invariant stops
// the process, naming it, unless the thread collects them (`_collectingInvariantViolations`).
//
// I1  Shared extents. No extent sits at two places of a holder's value (a replacement detaches).
// I2  Binding. (a) A location's link names it. (b) A nonzero `boundSerial` names a dead extent or
//     one whose `location` is this link. (c) `isBound` ⇔ `location` set. (d) A value validly bound
//     (`location.boundSerial == serial`) is bound in its holder's tree, below its enclosing value's
//     location. (e) After a mutation the root location is bound to the root value or to nothing.
// I3  Registrations. (a) A table holds an observer at most once per key; its index, if any, lists
//     exactly its registrations. (b) An active observer lists each place with exactly its
//     registrations there, an inactive one none (registrations never move). (c) `inactive` counts
//     exactly the inactive observers' registrations, under half the table. (d) `isObserved` ⇔
//     `!table.isEmpty`; a link says observed iff its table or Apple's scopes are (else: quiet path).
// I4  Versions never decrease.
// I5  No user code under the registry lock: `onChange`, `withMutation` and an observer's release
//     (it owns user closures) run without it; an extent may die there, not an observer it releases.
// I6  Delivery. An observer fires at most once, from its thread's firing loop. A holder mutates only
//     inside a transaction; after the outermost one (no loop above draining) the thread's queue is
//     empty; transaction and holder depths never go below zero.
// I7  Lineage. `origin != nil` ⇔ `isFork`; no origin ⇒ no changes; changes are deduplicated
//     (`Change.isSame`); an extent ever bound has no lineage; an origin is older (smaller serial),
//     of the same lineage and value id; no cycle; `hasSameAs` ⇒ `sameAs`, naming a value no other's.
// I8  Tree mirrors. A location's and its link's `hasChildren` say whether it has children; a
//     location appears once in its holder's tree.

import Synchronization

/// Whether this build checks the core's invariants (`-D VALUESTORE_INTERNAL_CHECKS`).
#if VALUESTORE_INTERNAL_CHECKS
let _internalChecks = true
#else
let _internalChecks = false
#endif

/// Runs `body`; this thread's broken invariants are collected, not fatal (none without the flag).
func _collectingInvariantViolations<R>(_ body: () throws -> R) rethrows -> (result: R, violations: [String]) {
  #if VALUESTORE_INTERNAL_CHECKS
  let me = currentThreadID()
  let outer = violationsLock.withLock { violationsByThread.updateValue([], forKey: me) }
  defer { violationsLock.withLock { violationsByThread[me] = outer } }
  let result = try body()
  return (result, _takeInvariantViolations())
  #else
  return (try body(), [])
  #endif
}

/// Takes the violations collected on this thread so far (see `_collectingInvariantViolations`).
func _takeInvariantViolations() -> [String] {
  #if VALUESTORE_INTERNAL_CHECKS
  let me = currentThreadID()
  return violationsLock.withLock {
    guard let found = violationsByThread[me] else { return [] }
    violationsByThread[me] = []
    return found
  }
  #else
  return []
  #endif
}

#if VALUESTORE_INTERNAL_CHECKS

// MARK: - Reporting

private let violationsLock = Lock()
/// The threads collecting violations, by `currentThreadID()`. Guarded by `violationsLock`.
nonisolated(unsafe) private var violationsByThread: [UInt: [String]] = [:]

/// Reports `invariant` broken unless `holds`.
@usableFromInline
func _invariant(
  _ holds: Bool, _ invariant: StaticString, _ detail: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if _fastPath(holds) { return }
  let message = "\(invariant): \(detail()) (\(file):\(line))"
  let me = currentThreadID()
  let collected = violationsLock.withLock { () -> Bool in
    guard violationsByThread[me] != nil else { return false }
    violationsByThread[me]!.append(message)
    return true
  }
  if !collected { fatalError("ValueStore internal invariant broken, \(message)") }
}

// MARK: - I5: no user code under the registry lock

/// I5: user code (`what`) is about to run: the registry lock is not held by this thread.
func _checkOutsideRegistry(_ what: String) {
  _invariant(!registry.isHeldByCurrentThread, "I5", "\(what) runs under the registry lock")
}

/// I5: a deinitializer runs: the object was not released under the registry lock.
func _checkReleasedOutsideRegistry(_ what: String) {
  _invariant(!registry.isHeldByCurrentThread, "I5", "\(what) was released under the registry lock")
}

// MARK: - Live extents (I2b)

private let liveExtentsLock = Lock()
/// Every extent alive, by serial (only with the flag). Guarded by `liveExtentsLock`.
nonisolated(unsafe) private var liveExtents: [UInt64: WeakExtent] = [:]

private struct WeakExtent {
  weak var extent: Extent?
}

@usableFromInline
func _registerLiveExtent(_ extent: Extent) {
  liveExtentsLock.withLock { liveExtents[extent.serial] = WeakExtent(extent: extent) }
}

func _forgetLiveExtent(_ serial: UInt64) {
  liveExtentsLock.withLock { _ = liveExtents.removeValue(forKey: serial) }
}

/// The live extent with `serial`, kept in `garbage` (its last release must not be under the lock).
private func liveExtent(_ serial: UInt64, _ garbage: inout [AnyObject]) -> Extent? {
  guard let extent = liveExtentsLock.withLock({ liveExtents[serial]?.extent }) else { return nil }
  garbage.append(extent)
  return extent
}

// MARK: - Registrations (I3, I4)

extension RegistrationTable {
  /// I3a. Needs no lock itself (a table is a value); its owner's checks hold the registry lock.
  @inline(never)
  func _checkInvariants() {
    var seen = Set<Pair>()
    for registration in all {
      let pair = Pair(observer: ObjectIdentifier(registration.observer), key: registration.key)
      _invariant(seen.insert(pair).inserted, "I3a", "an observer is registered twice for \(registration.key)")
    }
    guard isIndexed else { return }
    _invariant(pairs == seen, "I3a", "the index's pairs differ from the registrations")
    var indexed = 0
    for (key, list) in positions {
      indexed += list.count
      for position in list {
        _invariant(position < all.count && all[position].key == key, "I3a", "the index lists position \(position) under \(key) wrongly")
      }
    }
    _invariant(indexed == all.count, "I3a", "the index lists \(indexed) of \(all.count) registrations")
  }
}

extension Subscribers {
  /// I3–I4 at this place (a location's or a box's). Requires the registry lock.
  func _checkInvariantsLocked() {
    table._checkInvariants()
    _invariant(isObserved.load(ordering: .relaxed) == !table.isEmpty, "I3d", "isObserved disagrees with the table")
    let inactiveCount = table.all.count(where: { !$0.observer.isActive })
    _invariant(inactive == inactiveCount, "I3c", "inactive is \(inactive), the table holds \(inactiveCount) inactive registrations")
    _invariant(inactive == 0 || inactive * 2 < table.count, "I3c", "\(inactive) of \(table.count) registrations inactive")
    var counts: [ObjectIdentifier: (observer: Observer, count: Int)] = [:]
    for registration in table where registration.observer.isActive {
      counts[ObjectIdentifier(registration.observer), default: (registration.observer, 0)].count += 1
    }
    for (observer, count) in counts.values {
      let listed = observer.places.first { $0.subscribers === self }?.registrations ?? 0
      _invariant(listed == count, "I3b", "an observer with \(count) registrations here lists \(listed)")
    }
    let version = version.load(ordering: .relaxed)
    _invariant(version >= _checkedVersion, "I4", "the version went down from \(_checkedVersion) to \(version)")
    _checkedVersion = version
  }
}

extension Observer {
  /// I3b from the observer's side. Requires the registry lock.
  func _checkInvariantsLocked() {
    guard isActive else {
      return _invariant(places.isEmpty, "I3b", "an inactive observer still lists \(places.count) places")
    }
    for place in places {
      let listed = place.registrations
      guard let subscribers = place.subscribers else { continue }
      let count = subscribers.table.all.count(where: { $0.observer === self })
      _invariant(listed == count, "I3b", "an observer lists \(listed) registrations at a place that holds \(count)")
    }
  }

  @inline(never)
  func _checkInvariants() { withRegistry { _ in _checkInvariantsLocked() } }

  /// I6: it is about to fire. Requires the registry lock.
  func _willFire() {
    _invariant(!_fired, "I6", "an observer fires a second time")
    _fired = true
  }
}

/// I3–I4 at the places `observer` just registered at, and I3b from its side.
func _checkRegistration(_ observer: Observer, at places: [Subscribers]) {
  withRegistry { _ in
    for place in places { place._checkInvariantsLocked() }
    observer._checkInvariantsLocked()
  }
}

/// I5–I6: `observer`'s `onChange` is about to run on this thread.
func _checkBeforeOnChange(_ observer: Observer) {
  _checkOutsideRegistry("an observer's onChange")
  _invariant(ThreadContext.current.isFiring, "I6", "an onChange runs outside its thread's firing loop")
}

// MARK: - Lineage (I2c, I7)

extension Extent {
  /// I2c, I7 for this extent and its ancestors, I3–I4 for their boxes. Requires the registry lock.
  func _checkInvariantsLocked() {
    var seen = Set<ObjectIdentifier>()
    var node = self
    while true {
      _invariant(seen.insert(ObjectIdentifier(node)).inserted, "I7", "the lineage of #\(serial) has a cycle")
      node._checkOwnInvariantsLocked()
      guard let origin = node.origin, !seen.contains(ObjectIdentifier(origin)) else { break }
      node = origin
    }
  }

  private func _checkOwnInvariantsLocked() {
    let flags = flags.load(ordering: .relaxed)
    let isFork = flags & Extent.isFork != 0
    _invariant((origin != nil) == isFork, "I7", "#\(serial): origin \(origin.map { "#\($0.serial)" } ?? "nil") but isFork \(isFork)")
    let changes = self.changes.changes
    if origin == nil { _invariant(changes.isEmpty, "I7", "#\(serial) has no origin but \(changes.count) changes") }
    for (index, change) in changes.enumerated() {
      _invariant(!changes[..<index].contains { $0.isSame(as: change) }, "I7", "#\(serial) records \(change.key) twice")
    }
    _invariant(location.isSet == (flags & Extent.isBound != 0), "I2c", "#\(serial): location set \(location.isSet), isBound flag \(!location.isSet ? "set" : "clear")")
    if location.isSet { _invariant(origin == nil, "I7", "#\(serial) was bound but carries a lineage") }
    if flags & Extent.hasSameAs != 0 { _invariant(sameAs != nil, "I7", "#\(serial): hasSameAs flag without sameAs") }
    if let sameAs = validSameAs {
      _invariant(sameAs.validSameAs == nil && sameAs !== self, "I7", "#\(serial) is the same as #\(sameAs.serial), which is the same as another")
    }
    if let origin {
      _invariant(origin.serial < serial, "I7", "#\(serial)'s origin #\(origin.serial) is younger")
      _invariant(
        origin.lineageSerial == lineageSerial && origin.valueID == valueID, "I7",
        "#\(serial)'s origin #\(origin.serial) is of another lineage or value")
    }
    box.load()?._checkInvariantsLocked()
  }

  /// I2c and I7 for this extent and its ancestors.
  @inline(never)
  func _checkInvariants() { withRegistry { _ in _checkInvariantsLocked() } }
}

// MARK: - Locations (I2a–b, I3–I4, I8)

extension Location {
  /// I2a–b, I3–I4 and I8 for this location and every one below; returns each location's parent
  /// (nil for this one). Requires the registry lock.
  @discardableResult
  func _checkTreeLocked(_ garbage: inout [AnyObject]) -> [ObjectIdentifier: Location?] {
    var parents: [ObjectIdentifier: Location?] = [ObjectIdentifier(self): nil]
    var pending: [Location] = [self]
    while let location = pending.popLast() {
      location._checkOwnInvariantsLocked(&garbage)
      for child in location.children.values {
        let fresh = parents.updateValue(location, forKey: ObjectIdentifier(child)) == nil
        _invariant(fresh, "I8", "a location appears twice in its tree")
        if fresh { pending.append(child) }
      }
    }
    return parents
  }

  private func _checkOwnInvariantsLocked(_ garbage: inout [AnyObject]) {
    _invariant(link.location === self, "I2a", "a location's link names another location")
    let hasChildren = hasChildren.load(ordering: .relaxed)
    _invariant(hasChildren == !children.isEmpty, "I8", "hasChildren is \(hasChildren) with \(children.count) children")
    _invariant(link.hasChildren.load(ordering: .relaxed) == hasChildren, "I8", "the link's hasChildren disagrees")
    let linkObserved = link.isObserved.load(ordering: .relaxed)
    _invariant(!isObserved.load(ordering: .relaxed) || linkObserved, "I3d", "observed, but its link says nobody is")
    _invariant(
      !linkObserved || isObserved.load(ordering: .relaxed) || apple?.isObserved.load(ordering: .relaxed) == true, "I3d",
      "its link says observed, but nobody is")
    let bound = boundSerial.load(ordering: .relaxed)
    if bound != 0, let extent = liveExtent(bound, &garbage) {
      _invariant(extent.location.holds(link), "I2b", "bound to #\(bound), which names another location")
    }
    _checkInvariantsLocked()
  }

  /// I2a–b, I3–I4 and I8 for this location and every one below.
  @inline(never)
  func _checkInvariants() { withRegistry { _ = _checkTreeLocked(&$0) } }
}

// MARK: - Holders (I1, I2d–e, and everything in their tree)

/// A value reflection cannot walk (a custom mirror, or one with side effects): its extent and parts.
protocol _InvariantParts {
  var _invariantParts: (extent: Extent?, parts: [Any]) { get }
}

extension Observed: _InvariantParts {
  var _invariantParts: (extent: Extent?, parts: [Any]) { (_extent, [_value]) }
}

/// An extent found in a value: where, and the extent of the nearest observable value around it.
struct _ExtentPlace {
  let extent: Extent
  let enclosing: Extent?
  let path: String
}

/// Every extent in `value`, by reflection (no classes, no custom mirror outside the stdlib).
func _extentPlaces(in value: Any) -> [_ExtentPlace] {
  var places: [_ExtentPlace] = []
  func walk(_ value: Any, _ enclosing: Extent?, _ path: String) {
    if let carrier = value as? any _InvariantParts {
      let (extent, parts) = carrier._invariantParts
      if let extent { places.append(_ExtentPlace(extent: extent, enclosing: enclosing, path: path)) }
      for (index, part) in parts.enumerated() { walk(part, extent ?? enclosing, parts.count == 1 ? path : "\(path)[\(index)]") }
      return
    }
    if type(of: value) is AnyObject.Type { return }
    if value is CustomReflectable, !String(reflecting: type(of: value)).hasPrefix("Swift.") { return }
    for (index, child) in Mirror(reflecting: value).children.enumerated() {
      walk(child.value, enclosing, "\(path).\(child.label ?? String(index))")
    }
  }
  walk(value, nil, "")
  return places
}

extension HolderRoot {
  /// I1, I2d–e and I6 (a holder mutates inside a transaction) for this holder, its tree and its
  /// value's extents. The caller holds the holder's lock or actor.
  @usableFromInline @inline(never)
  func _checkInvariants<Value: ObservationIdentifiable>(_ value: inout Value, _ context: ThreadContext) {
    _invariant(context.transactionDepth > 0, "I6", "a holder mutates outside a transaction")
    _checkInvariants(value)
  }

  /// See above; outside a mutation.
  @inline(never)
  func _checkInvariants<Value: ObservationIdentifiable>(_ value: Value) {
    let places = _extentPlaces(in: value)
    var seen: [ObjectIdentifier: String] = [:]
    for place in places {
      if let other = seen.updateValue(place.path, forKey: ObjectIdentifier(place.extent)) {
        _invariant(false, "I1", "extent #\(place.extent.serial) sits at \(other) and at \(place.path)")
      }
    }
    let rootSerial = value.observationIdentity.extent?.serial
    withRegistry { garbage in
      let parents = location._checkTreeLocked(&garbage)
      let bound = location.boundSerial.load(ordering: .relaxed)
      _invariant(
        bound == 0 || bound == rootSerial, "I2e",
        "the root location is bound to #\(bound), the root value is #\(rootSerial.map(String.init) ?? "none")")
      /// The location `extent` is validly bound to, if any.
      func validLocation(_ extent: Extent) -> Location? {
        guard let location = extent.location.load()?.location, location.isBound(to: extent) else { return nil }
        return location
      }
      for place in places {
        place.extent._checkInvariantsLocked()
        guard let at = validLocation(place.extent) else { continue }
        guard parents[ObjectIdentifier(at)] != nil else {
          _invariant(false, "I2d", "#\(place.extent.serial) at \(place.path) is bound to a location outside its holder's tree")
          continue
        }
        guard let enclosing = place.enclosing, let above = validLocation(enclosing) else { continue }
        var ancestor = parents[ObjectIdentifier(at)] ?? nil
        while let current = ancestor, current !== above { ancestor = parents[ObjectIdentifier(current)] ?? nil }
        _invariant(
          ancestor != nil, "I2d",
          "#\(place.extent.serial) at \(place.path) is bound to a location not below its enclosing value's (#\(enclosing.serial))")
      }
    }
    withExtendedLifetime(places) {}
  }
}

extension ObservedRoot {
  /// Checks the root's invariants (see `HolderRoot._checkInvariants`).
  func _checkInvariants() { lock.withLock { root._checkInvariants(storage) } }
}

/// I2c, I3–I4 and I7 for the extents of a value (a bare one, or a copy).
func _checkInvariants(of value: Any) {
  let places = _extentPlaces(in: value)
  withRegistry { _ in for place in places { place.extent._checkInvariantsLocked() } }
  withExtendedLifetime(places) {}
}

// MARK: - Threads (I6)

extension ThreadContext {
  /// I6 for this thread, at the end of a transaction.
  @inline(never)
  func _checkInvariants() {
    _invariant(transactionDepth >= 0 && holderDepth >= 0, "I6", "depths \(transactionDepth), \(holderDepth)")
    _invariant(holderDepth == 0 || transactionDepth > 0, "I6", "a holder mutates outside a transaction")
    if transactionDepth == 0 && !isFiring {
      _invariant(pending.isEmpty, "I6", "\(pending.count) deliveries left after the outermost transaction")
    }
    _invariant(
      openTrackingScopes.load(ordering: .relaxed) >= openScopes.count, "I6",
      "this thread has more open scopes than all threads together")
  }
}

#else

extension HolderRoot {
  @inlinable @inline(__always)
  func _checkInvariants<Value: ObservationIdentifiable>(_ value: inout Value, _ context: ThreadContext) {}
  @inline(__always)
  func _checkInvariants<Value: ObservationIdentifiable>(_ value: Value) {}
}

extension ObservedRoot {
  @inline(__always) func _checkInvariants() {}
}

extension Location {
  @inline(__always) func _checkInvariants() {}
}

extension Extent {
  @inline(__always) func _checkInvariants() {}
}

extension Observer {
  @inline(__always) func _checkInvariants() {}
}

extension ThreadContext {
  @inline(__always) func _checkInvariants() {}
}

@inline(__always) func _checkInvariants(of value: Any) {}

#endif
