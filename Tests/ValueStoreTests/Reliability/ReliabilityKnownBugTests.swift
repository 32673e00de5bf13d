import Foundation
import Testing
@testable import ValueStore

/// The smallest failing test of each bug the randomized tests found (see `RelKnownBug`). Each
/// expectation states the contract. Every bug here is fixed (B14 is in `RegistrationWindowTests`,
/// B15 in `SharedIdentityTests`): they are plain regression tests. A bug found open gets its test
/// in `withKnownIssue` and its case in `RelKnownBug.open` until it is fixed.
@Suite(.timeLimit(.minutes(1))) struct ReliabilityKnownBugTests {
  /// B1 — lost. Randomized (seed 0x454625a8762a575a): `rows.append(Row(id: 1));
  /// track rows.map(\.count); copies[1] = state; copies[1]: rows[id: 1]?.count += 2;
  /// state = copies[1]`.
  @Test func b1_rootWriteBackLosesChangesOfChildren() {
    let root = ObservedRoot(RelState())
    let count = tracking { root.read { $0.child.count } }
    var copy = root.currentValue
    copy.child.count += 1
    root.currentValue = copy
    #expect(root.child.count == 1)
    #expect(count.count == 1)
  }

  /// B2 — spurious. Randomized (seed 0xfb1b66a0f0408298): `rows.append(Row(id: 1));
  /// track rows[id: 4]?.count; mutate { var c = state; c.rows.remove(id: 1) }`.
  @Test func b2_copyOfTheRootInsideAMutationNotifiesChildObservers() {
    let root = ObservedRoot(RelState())
    let count = tracking { root.read { $0.child.count } }
    root.mutate { state in
      var copy = state
      copy.child.count += 1
      _ = copy
    }
    #expect(root.child.count == 0)
    #expect(count.count == 0)
  }

  /// B4 — lost. Randomized (seed 0xb28703f73183d985): `rows.append(Row(id: 3));
  /// track rows.map(\.count); copies[1] = state.rows; copies[1]: rows[id: 3]?.count += 1;
  /// rows = copies[1]`.
  @Test func b4_collectionWrittenBackLosesElementChanges() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows.append(Row(id: 1)) }
    let edited = tracking { root.read { $0.rows[id: 1]?.count } }
    var copy = root.currentValue.rows
    copy[id: 1]?.count += 1
    root.mutate { $0.rows = copy }
    #expect(root.rows[id: 1]?.count == 1)

    // The undo direction: an older copy of the array written back.
    let older = root.currentValue.rows
    root.mutate { $0.rows[id: 1]?.count += 1 }
    let undone = tracking { root.read { $0.rows[id: 1]?.count } }
    root.mutate { $0.rows = older }
    #expect(root.rows[id: 1]?.count == 1)
    #expect(edited.count == 1)
    #expect(undone.count == 1)
  }

  /// B5 — lost. Randomized (seed 0x5dbfe7603c3edbf2): `track for row in rows { row.count };
  /// rows.append(Row(id: 4))`.
  @Test func b5_iteratingRecordsNoStructureRead() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows.append(Row(id: 1)) }
    let loop = tracking { root.read { state in state.rows.reduce(0) { $0 + $1.count } } }
    root.mutate { $0.rows.append(Row(id: 2, count: 5)) }
    #expect(root.read { state in state.rows.reduce(0) { $0 + $1.count } } == 5)
    #expect(loop.count == 1)
  }

  /// B6 — was spurious. Randomized (seed 0xed8489e8ba9e9aec): `optional = child; track optional;
  /// optional = child`. Fixed: a value keeps its history where it is placed (`WriteBackHistoryTests`).
  @Test func b6_writingTheSameCopyBackTwiceIsAWriteBack() {
    let root = ObservedRoot(RelState())
    let copy = root.currentValue.child
    root.mutate { $0.child = copy }  // a write-back of an unchanged copy: nothing
    let title = tracking { root.read { $0.child.title } }
    root.mutate { $0.child = copy }  // the same again: still nothing
    #expect(title.count == 0)
  }

  /// B7 — spurious. Randomized (seed 0xb55d489a3f17ea1): `copies[2] = state; track child;
  /// mutate { child.count += 2 }; copies[2]: child = Child(count: 0)`.
  @Test func b7_aSnapshotMutatedAfterTheHolderMovedOnNotifiesItsObservers() {
    let root = ObservedRoot(RelState())
    let name = tracking { root.name }
    var snapshot = root.currentValue
    root.mutate { $0.count += 1 }
    snapshot.name = "x"
    #expect(root.name == "")
    #expect(name.count == 0)
  }

  /// B8 — spurious, and lost. Found at 2f1f8a0 as `mode = .editing(child); track child.count;
  /// mode.modifyEditing { $0.count += 2 }`; at 4876e57 the first randomized failure is seed
  /// 0x37f278a8d00fc041. The payload shared the child's extent: the mode's change notified the
  /// child's readers, and moved away those of fields it did not change. Fixed by detaching
  /// replacements (`ObservationIdentifiable._detach()`, Detach.swift).
  @Test func b8_enumPayloadAssignedFromAChildSharesItsObservers() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.mode = .editing($0.child) }
    let childCount = tracking { root.read { $0.child.count } }
    let childTitle = tracking { root.read { $0.child.title } }
    root.mutate { $0.mode.modifyEditing { $0.count += 1 } }
    #expect(root.child.count == 0)
    #expect(childCount.count == 0)
    root.mutate { $0.child.title = "x" }
    #expect(childTitle.count == 1)
  }

  /// B9 — was spurious. Randomized (seed 0x3b7eb80ee21dad60): `rows.append(Row(id: 2));
  /// track rows.map(\.count); copies[1] = state; copies[1]: rows.remove(id: 2)`. Fixed: an element
  /// leaving an unadopted structure fork is told to its readers when (if) the fork is adopted.
  @Test func b9_removingAnElementFromACopyNotifiesTheOriginalsReaders() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows = [Row(id: 1), Row(id: 2)] }
    let row = tracking { root.read { $0.rows[id: 1]?.title } }
    var snapshot = root.currentValue
    snapshot.rows.remove(id: 1)  // a copy outside the holder
    root.mutate { state in
      var copy = state.rows
      copy.remove(id: 1)  // a copy inside a mutation, discarded
      copy[id: 2] = Row(id: 2, title: "new")
      _ = copy
    }
    #expect(root.rows.count == 2)
    #expect(row.count == 0)

    // The holder's own array, forked because a snapshot shares it, does lose the element.
    let held = root.currentValue
    root.mutate { $0.rows.remove(id: 1) }
    #expect(row.count == 1)
    #expect(held.rows.count == 2)
  }

  /// B9's other side: the removal made on a copy is heard when the copy is written back.
  @Test func b9_aCopyWithAnElementRemovedWrittenBackNotifiesItsReaders() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows = [Row(id: 1), Row(id: 2)] }
    let one = tracking { root.read { $0.rows[id: 1]?.title } }
    let two = tracking { root.read { $0.rows[id: 2]?.title } }
    var copy = root.currentValue.rows
    copy.remove(id: 1)
    #expect(one.count == 0)
    root.mutate { $0.rows = copy }
    #expect(one.count == 1)
    #expect(two.count == 0)

    // The same inside one mutation.
    let readd = tracking { root.read { $0.rows[id: 2]?.title } }
    root.mutate { state in
      var rows = state.rows
      rows[id: 2] = Row(id: 2, title: "other")
      state.rows = rows
    }
    #expect(readd.count == 1)
  }

  /// B16 — lost. Randomized (base seed 0xC0FFEE, seed 0x17008b3067d9e048): a snapshot edited,
  /// then written back as the root and edited again in the same mutation: the rows slot was forked
  /// twice along the root's lineage, and the newer fork adopted from the older one before the older
  /// one had adopted the location's observers. Adoption now runs oldest first. (In the redesign:
  /// the root's value before the mutation, forked for its location, was held by nothing but the
  /// snapshot's lineage, which dropped it; the root slot holds it now.)
  @Test func b16_aSlotForkedTwiceAlongTheLineageAdoptsOldestFirst() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows = [Row(id: 2), Row(id: 3)] }
    var snapshot = root.currentValue
    snapshot.rows[id: 3]?.count -= 1
    let contains = tracking { root.read { $0.rows.contains(id: 4) } }
    root.mutate {
      $0 = snapshot
      $0.rows[id: 2]?.count -= 1
    }
    #expect(contains.count == 0)
    root.mutate { $0.rows[id: 4] = Row(id: 4) }
    #expect(contains.count == 1)
  }

  /// B17 — lost. Randomized (base seed 0xC0FFEE, seed 0x62e6315e2d505705): a bare value forked
  /// because a snapshot is alive left a child's adoption waiting on a fork no holder would ever
  /// adopt. Outside a holder the un-anchored readers now follow at once.
  @Test func b17_aBareValuesChildAdoptionDoesNotWaitForAHolder() {
    var state = RelState()
    state.rows = [Row(id: 2, count: 1), Row(id: 3, count: 2)]
    var copy = state.rows
    copy.sort { $0.id > $1.id }
    let snapshot = state
    let counts = tracking { state.rows.map(\.count) }
    state.rows = copy
    #expect(state.rows.map(\.count) == [2, 1])
    #expect(counts.count == 1)
    #expect(snapshot.rows.map(\.count) == [1, 2])
  }

  /// B18 — lost (a regression of this session's B9 fix). Randomized (base seed 0xBADC0DE, seed
  /// 0x488fb6fc49970e37): a snapshot written back as the root counts as a replacement when the
  /// root moved on since; the forks of its children that waited on its adoption kept their
  /// lineage, so a later removal from its rows waited on a structure fork nobody would adopt.
  /// Cutting a lineage now cuts the waiting children's too.
  @Test func b18_aReplacedRootsWaitingChildrenStandOnTheirOwn() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows.append(Row(id: 1)) }
    let runs = FireCounter()
    let token = observe {
      _ = root.rows[id: 1]?.count
      runs.tick()
    }
    let snapshot = root.currentValue
    withTransaction {
      root.mutate { $0.count += 1 }
      root.mutate {
        $0 = snapshot
        $0.rows[id: 1]?.title = "x"
      }
    }
    let before = runs.count
    root.mutate { $0.rows.remove(id: 1) }
    #expect(runs.count == before + 1)
    token.cancel()
  }

  /// B19 — lost. Randomized (base seeds 0x1–0x8, e.g. seed 0x865640a23052bd57): an element edited
  /// while a copy was alive is a fork whose observers wait on the structure's fork; replaced (or
  /// removed) in the same mutation, it was not recorded as departed — it had no observers *yet* —
  /// and the adoption then gave its observers to an element no longer in the array.
  @Test func b19_anElementEditedThenReplacedWhileACopyIsAliveTellsItsReaders() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows.append(Row(id: 3)) }
    let copy = root.currentValue
    let title = tracking { root.read { $0.rows[id: 3]?.title } }
    root.mutate {
      $0.rows[id: 3]?.count -= 1
      $0.rows[id: 3] = Row(id: 3)
    }
    #expect(title.count == 1)
    #expect(copy.rows[id: 3]?.count == 0)
  }

  /// B19 through a copy written back (seed 0x9be3408f6404de50).
  @Test func b19_aCopysEditedThenReplacedElementWrittenBackTellsItsReaders() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows.append(Row(id: 1)) }
    let title = tracking { root.read { $0.rows[id: 1]?.title } }
    var copy = root.currentValue
    copy.rows[id: 1]?.count += 1
    copy.rows[id: 1] = Row(id: 1)
    #expect(title.count == 0)
    root.mutate { $0 = copy }
    #expect(title.count == 1)
  }

  /// B21 — spurious. Randomized (seed 0xce0c443496bbd75b): a bare copy taken out of the holder
  /// replaces an element after the holder moved on; the copy's structure fork is adopted by the
  /// copy's own (bare) slot, which told the departed element's *anchored* readers — the holder's.
  @Test func b21_aBareCopysReplacedElementDoesNotNotifyTheHoldersReaders() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows.append(Row(id: 3)) }
    var copy = root.currentValue
    let loop = tracking { root.read { state in state.rows.reduce(0) { $0 + $1.count } } }
    root.mutate { $0.name = "x" }  // forks: the copy shares the holder's value
    copy.rows[id: 3] = Row(id: 3, count: 5)
    #expect(loop.count == 0)
    root.mutate { $0.rows[id: 3]?.count += 1 }
    #expect(loop.count == 1)
  }

  /// B10 — was lost, forever. Found by `ReliabilityThreadTests.trackingWhileAnotherThreadMutates`
  /// (observers active but registered on no extent). Made deterministic by mutating from another
  /// thread inside the tracked closure, between the read and the registration.
  @Test func b10_aMutationBetweenATrackedReadAndItsRegistrationIsLostForever() {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let root = ObservedRoot(RelState())
    let fires = FireCounter()
    _ = withTracking {
      let count = root.count
      let done = DispatchSemaphore(value: 0)
      Thread {
        root.mutate { $0.count += 1 }
        done.signal()
      }.start()
      done.wait()
      return count
    } onChange: { _ in
      fires.tick()
    }
    #expect(fires.count == 1)  // the change landed after the read: heard as the observer registers
    root.mutate { $0.count += 1 }
    #expect(fires.count == 1)
  }

  /// B12 — memory. Found by `ReliabilityMemoryTests.bareLineagesStayBoundedOverSnapshotCycles`
  /// (depth 10,000 after 10,000 cycles). No observer needed.
  @Test func b12_aBareLineageGrowsWhileEveryWriteHasASnapshotAlive() {
    var state = RelState()
    for _ in 0..<100 {
      let previous = state  // e.g. the "before" of a diff, or a one-level undo
      state.count += 1
      withExtendedLifetime(previous) {}
    }
    let depth = ReliabilityMemoryTests.lineageDepth(state._$fields._extent)
    #expect(depth <= 1)
  }

  /// B33 — was lost. Found by the extended randomized runs (`VALUESTORE_RANDOM_BASE_SEED=0x11`,
  /// sequence 4900): an element replaced or removed in a *copy* (a snapshot edited while nobody
  /// read that element yet) left no departure behind, so readers the holder's element got
  /// afterwards were not told when the copy was written back. Each way a copy can lose an element.
  static let copyEdits: [(name: String, edit: @Sendable (inout RelState) -> Void)] = [
    ("replaced", { $0.rows[id: 2] = Row(id: 2) }),
    ("removed by id", { _ = $0.rows.remove(id: 2) }),
    ("set to nil", { $0.rows[id: 2] = nil }),
    ("edited in place", { $0.rows[id: 2]?.count += 1 }),
  ]

  @Test(arguments: 0..<copyEdits.count)
  func b33_anElementLeavingACopyIsToldWhenTheCopyIsWrittenBack(_ index: Int) {
    let (name, edit) = Self.copyEdits[index]
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows.append(Row(id: 2)) }
    var snapshot = root.currentValue
    edit(&snapshot)
    let fired = tracking { root.read { _ = $0.rows[id: 2]?.count } }
    root.mutate { $0 = snapshot }
    #expect(fired.count == 1, "lost: \(name)")
  }

  /// B34 — was lost. Found by the randomized runs (`VALUESTORE_RANDOM_BASE_SEED=0x7A14`, bare,
  /// sequence 12859): `copies[0] = state; copies[1] = state.rows; copies[1]: rows[id: 2] = …;
  /// track rows.map(\.count); state.rows = copies[1]`. A bare value whose root is shared (a
  /// snapshot alive) forks on the write-back; its un-anchored readers followed the written-back
  /// collection, but not the elements edited in the copy, which waited for a holder that a bare
  /// value never has. Each element edit × each read of the element, bare against the same in a
  /// holder: a bare value hears at least what the holder does. (In the redesign: a bare box knows
  /// the values read below it, and a bare write-back reconciles them as a holder its locations;
  /// every step below a field in `BareWriteBackTests`.)
  static let collectionEdits: [(name: String, edit: @Sendable (inout IdentifiedArrayOf<Row>) -> Void)] = [
    ("element replaced", { $0[id: 2] = Row(id: 2) }),
    ("element edited", { $0[id: 2]?.count += 1 }),
    ("element removed", { _ = $0.remove(id: 2) }),
    ("appended", { $0.append(Row(id: 3)) }),
  ]
  static let collectionReads: [(name: String, read: @Sendable (RelState) -> Void)] = [
    ("rows.count", { _ = $0.rows.count }),
    ("rows[id: 2]?.count", { _ = $0.rows[id: 2]?.count }),
    ("rows.map(\\.count)", { _ = $0.rows.map(\.count) }),
  ]

  @Test(arguments: 0..<collectionEdits.count, 0..<collectionReads.count)
  func b34_aCopiedCollectionWrittenBackIntoASharedBareValueTellsItsElementsReaders(_ edit: Int, _ read: Int) {
    let (editName, change) = Self.collectionEdits[edit]
    let (readName, readRows) = Self.collectionReads[read]

    var state = RelState()
    state.rows.append(Row(id: 2))
    let snapshot = state
    var rows = state.rows
    change(&rows)
    let bare = tracking { readRows(state) }
    state.rows = rows

    let root = ObservedRoot(RelState())
    root.mutate { $0.rows.append(Row(id: 2)) }
    let rootSnapshot = root.currentValue
    var rootRows = root.currentValue.rows
    change(&rootRows)
    let held = tracking { root.read { readRows($0) } }
    root.mutate { $0.rows = rootRows }

    withExtendedLifetime((snapshot, rootSnapshot)) {}
    #expect(bare.count >= held.count, "lost: \(editName), \(readName): bare \(bare.count), holder \(held.count)")
  }
}
