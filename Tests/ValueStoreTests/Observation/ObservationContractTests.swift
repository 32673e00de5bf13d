import Testing
@testable import ValueStore

/// The observation contract, rows S1–S19 of the core issue. Each row runs inside a root holder
/// (where the contract is exact); the rows that differ for a bare local variable are also run bare.
@Suite struct ObservationContractTests {
  @Test func s1_oneShotTrackingFiresOnce_observeFiresEachTime() {
    let root = ObservedRoot(AppState())
    let once = tracking { root.count }
    let continuous = Recorder()
    let token = observe { _ = root.count; continuous.record(ObservationChange(keyPaths: [])) }
    root.mutate { $0.count += 1 }
    root.mutate { $0.count += 1 }
    #expect(once.count == 1)
    #expect(continuous.count == 3)  // the first run, then once per change
    token.cancel()
  }

  @Test func s2_unrelatedFieldDoesNotNotify() {
    let root = ObservedRoot(AppState())
    let recorder = tracking { root.count }
    root.mutate { $0.name = "x" }
    #expect(recorder.count == 0)
  }

  @Test func s3_writingAnEqualValueDoesNotNotify() {
    let root = ObservedRoot(AppState())
    let recorder = tracking { root.count }
    root.mutate { $0.count = $0.count }
    root.mutate { $0.count += 0 }
    #expect(recorder.count == 0)
    root.mutate { $0.count += 1 }
    #expect(recorder.count == 1)
  }

  @Test func s4_computedPropertyTracksTheFieldsItReads() {
    let root = ObservedRoot(AppState())
    let onName = tracking { root.isEven }
    root.mutate { $0.name = "x" }
    #expect(onName.count == 0)
    root.mutate { $0.count += 1 }
    #expect(onName.count == 1)
  }

  @Test func s5_inPlaceChildMutationKeepsTheChildsIdentity() {
    let root = ObservedRoot(AppState())
    let childCount = tracking { root.child.count }
    let child = tracking { _ = root.child }
    root.mutate { $0.child.count += 1 }
    #expect(childCount.count == 1)
    #expect(child.count == 0)
  }

  @Test func s6_replacingAChildNotifiesItsReaders() {
    let root = ObservedRoot(AppState())
    let recorder = tracking { root.child.count }
    root.mutate { $0.child = Child() }
    #expect(recorder.count == 1)
  }

  @Test func s7_childReplacingItselfNotifiesTheParentField() {
    let root = ObservedRoot(AppState())
    let recorder = tracking { _ = root.child }
    root.mutate { $0.child.reset() }
    #expect(recorder.count == 1)
  }

  @Test func s8_swappingTwoChildrenNotifiesBoth() {
    let root = ObservedRoot(AppState())
    let a = tracking { root.a.count }
    let b = tracking { root.b.count }
    root.mutate { state in
      let a = state.a
      state.a = state.b
      state.b = a
    }
    #expect(a.count == 1)
    #expect(b.count == 1)
  }

  @Test func s9_optionalChild() {
    let root = ObservedRoot(AppState())
    let appeared = tracking { root.optional?.count }
    root.mutate { $0.optional = Child() }
    #expect(appeared.count == 1)

    let optional = tracking { _ = root.optional }
    let count = tracking { root.optional?.count }
    root.mutate { $0.optional?.count += 1 }
    #expect(optional.count == 0)
    #expect(count.count == 1)

    let disappeared = tracking { root.optional?.count }
    root.mutate { $0.optional = nil }
    #expect(disappeared.count == 1)
  }

  @Test func s10_enumState() {
    let root = ObservedRoot(AppState())
    let unchangedIdle = tracking { root.mode }
    root.mutate { $0.mode = .idle }
    #expect(unchangedIdle.count == 0)

    root.mutate { $0.mode = .editing(Child()) }
    #expect(unchangedIdle.count == 1)  // case change

    let mode = tracking { root.mode }
    let payloadCount = tracking { () -> Int? in
      guard case let .editing(child) = root.mode else { return nil }
      return child.count
    }
    let payloadTitle = tracking { () -> String? in
      guard case let .editing(child) = root.mode else { return nil }
      return child.title
    }
    root.mutate { $0.mode.modifyEditing { $0.count += 1 } }
    #expect(mode.count == 0)  // in-place payload mutation keeps the case's identity
    #expect(payloadCount.count == 1)
    #expect(payloadTitle.count == 0)

    let sameCaseNewPayload = tracking { root.mode }
    root.mutate { $0.mode = .editing(Child(count: 1)) }
    #expect(sameCaseNewPayload.count == 1)
  }

  @Test func s11_mutatingADiscardedCopyNotifiesNobody() {
    let root = ObservedRoot(AppState())
    let recorder = tracking { root.count }
    root.mutate { state in
      var copy = state
      copy.count += 1
      _ = copy
    }
    #expect(recorder.count == 0)
    // A copy taken out of the holder and mutated outside any transaction is not the holder either.
    var copy = root.currentValue
    copy.count += 1
    copy.child.count += 1
    #expect(recorder.count == 0)
    #expect(root.count == 0)
  }

  @Test func s11_nestedReadsBelongToTheHolderNotToCopies() {
    let root = ObservedRoot(ListState(rows: 3))
    let nested = ObservedRoot(AppState())
    let child = tracking { nested.child.count }
    let row = tracking { root.rows[id: 1]?.count }
    var copy = nested.currentValue
    copy.child.count += 1
    var rows = root.currentValue
    rows.rows[id: 1]?.count += 1
    #expect(child.count == 0)
    #expect(row.count == 0)
    nested.mutate { $0.child.count += 1 }
    root.mutate { $0.rows[id: 1]?.count += 1 }
    #expect(child.count == 1)
    #expect(row.count == 1)
  }

  @Test func s11_bare_copyMayNotifyAtMostOnce() {
    let state = AppState()
    let recorder = tracking { state.count }
    var copy = state
    copy.count += 1
    copy.count += 1
    #expect(recorder.count <= 1)
    _ = (state, copy)
  }

  @Test func s12_mutatingWhileASnapshotIsAliveNotifies() {
    let root = ObservedRoot(AppState())
    let recorder = tracking { root.count }
    let snapshot = root.currentValue
    root.mutate { $0.count += 1 }
    #expect(recorder.count == 1)
    #expect(snapshot.count == 0)

    let afterwards = tracking { root.count }
    var thawed = snapshot
    thawed.count = 9
    #expect(afterwards.count == 0)
    root.mutate { $0.count += 1 }
    #expect(afterwards.count == 1)
  }

  @Test func s12_bare_mutatingWhileASnapshotIsAliveNotifies() {
    var state = AppState()
    let recorder = tracking { state.count }
    let snapshot = state
    state.count += 1
    #expect(recorder.count == 1)

    let afterwards = tracking { state.count }
    var thawed = snapshot
    thawed.count = 9
    #expect(afterwards.count == 0)
    state.count += 1
    #expect(afterwards.count == 1)
  }

  @Test func s13_copyMutatedThenWrittenBackNotifiesExactlyItsChanges() {
    let root = ObservedRoot(AppState())
    var copy = root.currentValue.child
    copy.count += 1
    let count = tracking { root.child.count }
    let title = tracking { root.child.title }
    let child = tracking { _ = root.child }
    root.mutate { $0.child = copy }
    #expect(count.count == 1)
    #expect(count.last?.contains(\Child.Fields.count) == true)
    #expect(title.count == 0)
    #expect(child.count == 0)  // a fork of the same child written back is not a new child

    let again = tracking { root.child.count }
    root.mutate { $0.child.count += 1 }
    #expect(again.count == 1)
  }

  @Test func s13_bare_copyWrittenBackNotifies() {
    var state = AppState()
    var copy = state.child
    copy.count += 1
    let recorder = tracking { state.child.count }
    state.child = copy
    #expect(recorder.count == 1)
  }

  @Test func s14_copiesDoNotNotifyEachOther() {
    let root = ObservedRoot(AppState())
    root.mutate { state in
      state.b = state.a
      state.b.count += 1
    }
    let b = tracking { root.b.count }
    let a = tracking { root.a.count }
    root.mutate { $0.a.count += 1 }
    #expect(b.count == 0)
    #expect(a.count == 1)
    root.mutate { $0.b.count += 1 }
    #expect(b.count == 1)
  }

  @Test func s14_bare_copiesDoNotNotifyEachOther() {
    let a0 = AppState()
    var a = a0
    var b = a
    b.count += 1
    let recorder = tracking { b.count }
    a.count += 1
    #expect(recorder.count == 0)
    b.count += 1
    #expect(recorder.count == 1)
  }

  @Test func s15_nestedTrackingNotifiesBothScopes() {
    let root = ObservedRoot(AppState())
    let outer = Recorder()
    let inner = Recorder()
    withTracking {
      _ = root.name
      withTracking { _ = root.count } onChange: { inner.record($0) }
    } onChange: { outer.record($0) }
    root.mutate { $0.count += 1 }
    #expect(inner.count == 1)
    #expect(outer.count == 1)
  }

  @Test func s16_cancelledOrReleasedTokensStop() {
    let root = ObservedRoot(AppState())
    let cancelled = Recorder()
    let token = observe { _ = root.count; cancelled.record(ObservationChange(keyPaths: [])) }
    token.cancel()
    root.mutate { $0.count += 1 }
    #expect(cancelled.count == 1)  // only the first run

    let released = Recorder()
    var held: ObservationToken? = observe { _ = root.count; released.record(ObservationChange(keyPaths: [])) }
    #expect(held != nil)
    held = nil
    root.mutate { $0.count += 1 }
    #expect(released.count == 1)
  }

  @Test func s17_onChangeSeesTheNewValueAndWhatChanged() {
    let root = ObservedRoot(AppState())
    let seen = Recorder()
    nonisolated(unsafe) var observed = -1
    withTracking { _ = root.count; _ = root.name } onChange: { change in
      observed = root.count
      seen.record(change)
    }
    root.mutate { $0.count = 7 }
    #expect(observed == 7)
    #expect(seen.last?.keyPaths == [\AppState.Fields.count])
    // As written on the state, too.
    #expect(seen.last?.contains(\AppState.count) == true)
    #expect(seen.last?.contains(\AppState.name) == false)
    #expect(seen.last?.keyPaths(of: AppState.self) == [\AppState.count])
    #expect(seen.last?.keyPaths(of: Child.self) == [])
  }

  @Test func s17_aNestedFieldIsReportedOnItsOwnType() {
    let root = ObservedRoot(AppState())
    let seen = Recorder()
    withTracking { _ = root.child.title } onChange: { seen.record($0) }
    root.mutate { $0.child.title = "x" }
    #expect(seen.last?.contains(\Child.title) == true)
    #expect(seen.last?.keyPaths(of: Child.self) == [\Child.title])
  }

  @Test func s18_transactionNotifiesOnceAfterwardsWithEverythingThatChanged() {
    let root = ObservedRoot(AppState())
    let recorder = tracking { (root.count, root.name) }
    withTransaction {
      root.mutate { $0.count += 1 }
      root.mutate { $0.name = "x" }
      root.mutate { $0.count += 1 }
      #expect(recorder.count == 0)
    }
    #expect(recorder.count == 1)
    #expect(recorder.last?.contains(\AppState.Fields.count) == true)
    #expect(recorder.last?.contains(\AppState.Fields.name) == true)
  }

  @Test func s19_observeCancelCyclesLeaveNoRegistrations() {
    let root = ObservedRoot(AppState())
    for _ in 0..<1_000 {
      let token = observe { _ = root.count; _ = root.child.count }
      root.mutate { $0.count += 1 }
      token.cancel()
    }
    let state = root.currentValue
    #expect(state._$fields._extent.registrations.isEmpty)
    #expect(state.child._$fields._extent.registrations.isEmpty)
    #expect(withRegistry { _ in root.root.location.table.isEmpty && !root.root.location.isObserved.load(ordering: .relaxed) })
  }
}
