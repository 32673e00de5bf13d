import Testing
@testable import ValueStore

/// The core's invariant checks (Sources/ValueStore/Observation/Invariants.swift) can fail: each
/// test breaks one invariant on objects of its own and shows its check reports it. Compiled with
/// `-D VALUESTORE_INTERNAL_CHECKS` only (`swift test -Xswiftc -DVALUESTORE_INTERNAL_CHECKS`);
/// without it there are no checks and the suite is skipped.
@Suite(.enabled(if: _internalChecks, "needs -D VALUESTORE_INTERNAL_CHECKS"))
struct ObservationInvariantsTests {
  /// What `body` reports broken, as invariant numbers ("I7", …).
  func broken(_ body: () -> Void) -> Set<String> {
    let violations = _collectingInvariantViolations(body).violations
    return Set(violations.map { String($0.prefix { $0 != ":" }) })
  }

  @Test func aWorkingCoreBreaksNothing() {
    let violations = _collectingInvariantViolations {
      let root = ObservedRoot(RelState())
      let fired = FireCounter()
      _ = withTracking { (root.child.count, root.rows.count) } onChange: { _ in fired.tick() }
      let snapshot = root.currentValue
      root.mutate { $0.child.count += 1 }
      root.mutate { $0.rows.append(Row(id: 1)) }
      var copy = root.currentValue
      copy.child.count += 5
      root.mutate { $0 = copy }
      root._checkInvariants()
      _checkInvariants(of: snapshot)
      #expect(fired.count == 1)
    }.violations
    #expect(violations == [])
  }

  /// Found by the randomized suite with the checks on (holder, seed 0x277814e6572450ed): splicing a
  /// lineage left an ancestor shared with a copy without an origin but still flagged as a fork,
  /// with its changes (I7), so every write to it took the slow path.
  @Test func aSplicedLineageLeavesNoForkWithoutAnOrigin() {
    let violations = _collectingInvariantViolations {
      let root = ObservedRoot(RelState())
      root.mutate { $0.rows.append(Row(id: 1)) }
      var copy = root.currentValue
      copy.rows[id: 1] = Row(id: 1, count: 0)
      root.mutate { $0 = copy }
      root.mutate { $0.rows[id: 1]?.count += 1 }
      root._checkInvariants()
      _checkInvariants(of: copy)
    }.violations
    #expect(violations == [])
  }

  @Test func lineageWithoutTheForkFlag() {
    let extent = Extent()
    let origin = Extent()  // younger than the extent: I7 twice over
    withRegistry { _ in extent.origin = origin }
    #expect(broken { extent._checkInvariants() } == ["I7"])
  }

  @Test func changesWithoutAnOrigin() {
    let extent = Extent()
    withRegistry { _ in extent.changes.insert(Change(key: .identity, keyPath: nil)) }
    #expect(broken { extent._checkInvariants() } == ["I7"])
  }

  @Test func aBoundExtentWithALineage() {
    let location = Location()
    let origin = Extent()
    let extent = Extent(continuing: origin, lineage: true)
    withRegistry { garbage in
      _ = extent.bind(to: location, &garbage)
      extent.origin = origin
      extent.flags.bitwiseOr(Extent.isFork, ordering: .relaxed)
    }
    #expect(broken { extent._checkInvariants() } == ["I7"])
  }

  @Test func aHasChildrenMirrorOutOfStep() {
    let location = Location()
    _ = withRegistry { _ in location.child(.index(0)) }
    #expect(broken { location._checkInvariants() } == [])
    location.link.hasChildren.store(false, ordering: .relaxed)
    #expect(broken { location._checkInvariants() } == ["I8"])
  }

  @Test func anObserverRegisteredTwiceForAKey() {
    let location = Location()
    let observer = Observer(onChange: { _ in })
    withRegistry { _ in
      for _ in 0..<2 {
        observer.didRegister(on: location)
        location.register(observer, key: .identity, keyPath: nil)
      }
    }
    #expect(broken { location._checkInvariants() } == ["I3a"])
    withRegistry { garbage in observer.deactivate(&garbage) }
  }

  @Test func aRegistrationTheObserverDoesNotList() {
    let location = Location()
    let observer = Observer(onChange: { _ in })
    withRegistry { _ in location.register(observer, key: .identity, keyPath: nil) }
    #expect(broken { location._checkInvariants() } == ["I3b"])
  }

  @Test func aVersionGoingDown() {
    let location = Location()
    location.version.store(5, ordering: .relaxed)
    #expect(broken { location._checkInvariants() } == [])
    location.version.store(2, ordering: .relaxed)
    #expect(broken { location._checkInvariants() } == ["I4"])
  }

  @Test func aRootLocationBoundToAnotherValue() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.count += 1 }
    #expect(broken { root._checkInvariants() } == [])
    let other = Extent()
    root.root.location.boundSerial.store(other.serial, ordering: .relaxed)
    #expect(broken { root._checkInvariants() } == ["I2b", "I2e"])
    withExtendedLifetime(other) {}
  }

  @Test func aLocationBoundToAnExtentOfAnotherLocation() {
    let location = Location()
    let elsewhere = Location()
    let extent = Extent()
    _ = withRegistry { extent.bind(to: elsewhere, &$0) }
    location.boundSerial.store(extent.serial, ordering: .relaxed)
    #expect(broken { location._checkInvariants() } == ["I2b"])
  }

  @Test func twoFieldsSharingAnExtent() {
    var state = RelState()
    // Written past the accessors, which would detach the value assigned.
    state._$fields._value.optional = state._$fields._value.child
    let holder = HolderRoot(for: RelState.self)
    #expect(broken { holder._checkInvariants(state) } == ["I1"])
  }

  @Test func anObserverReleasedUnderTheRegistryLock() {
    #expect(broken { withRegistry { _ in _ = Observer(onChange: { _ in }) } } == ["I5"])
  }

  @Test func deliveriesLeftAfterTheOutermostTransaction() {
    let context = ThreadContext.current
    let observer = Observer(onChange: { _ in })
    context.pending.append(Delivery(observer: observer, keyPath: nil))
    let found = broken { context._checkInvariants() }
    context.pending.removeAll()
    #expect(found == ["I6"])
  }
}
