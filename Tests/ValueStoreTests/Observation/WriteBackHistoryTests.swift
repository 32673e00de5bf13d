import Testing
@testable import ValueStore

/// A slot that places a value records at its location the history that value has — the value it
/// was copied from — until the value or anything below it is written: a copy of that value written
/// there later is a write-back, and only the readers of what was written since hear it (Design.md
/// §3, B6). Placing never shares an extent between two locations (such a value is detached, I1).
@Suite struct WriteBackHistoryTests {
  @Test func theSameCopyWrittenBackTwiceNotifiesNobody() {
    let root = ObservedRoot(RelState())
    let title = tracking { root.read { $0.child.title } }
    let copy = root.currentValue.child
    root.mutate { $0.child = copy }
    root.mutate { $0.child = copy }
    #expect(title.count == 0)
  }

  @Test func theSameCopyWrittenBackBeforeAndAfterAReadNotifiesNobody() {
    let root = ObservedRoot(RelState())
    let copy = root.currentValue.child
    root.mutate { $0.child = copy }
    let child = tracking { root.read { $0.child.title } }
    root.mutate { $0.child = copy }
    #expect(child.count == 0)
  }

  @Test func theSameSourcePlacedTwiceNotifiesNobody() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.optional = $0.child }
    let title = tracking { root.read { $0.optional?.title } }
    root.mutate { $0.optional = $0.child }
    #expect(title.count == 0)
  }

  @Test func anEditedCopyOfTheSamePlacedValueNotifiesWhatItChanged() {
    let root = ObservedRoot(RelState())
    let copy = root.currentValue.child
    root.mutate { $0.child = copy }
    let title = tracking { root.read { $0.child.title } }
    let count = tracking { root.read { $0.child.count } }
    var edited = copy
    edited.count += 1
    root.mutate { $0.child = edited }
    #expect(count.count == 1)
    #expect(title.count == 0)
    #expect(root.child.count == 1)
  }

  @Test func aPlacedValueWrittenSinceIsReplacedByAnOlderCopy() {
    let root = ObservedRoot(RelState())
    let copy = root.currentValue.child
    root.mutate { $0.child = copy }
    root.mutate { $0.child.count += 1 }
    let title = tracking { root.read { $0.child.title } }
    root.mutate { $0.child = copy }  // an older value: a replacement (the model's contract)
    #expect(title.count == 1)
    #expect(root.child.count == 0)
  }

  @Test func aWriteBelowEndsTheHistory() {
    let root = ObservedRoot(RelState())
    let copy = root.currentValue.rows
    root.mutate { $0.rows = copy }
    root.mutate { $0.rows.append(Row(id: 1)) }
    let rows = tracking { root.read { $0.rows.count } }
    root.mutate { $0.rows = copy }
    #expect(rows.count == 1)
    #expect(root.rows.isEmpty)
  }

  @Test func aCollectionCopyWrittenBackTwiceAroundAnUnchangedSortNotifiesNobody() {
    let root = ObservedRoot(RelState())
    var copy = root.currentValue.rows
    copy[id: 3] = Row(id: 3, count: 0)
    root.mutate { $0.rows = copy }
    let count = tracking { root.read { $0.rows.count } }
    root.mutate { $0.rows.sort { $0.count < $1.count } }
    root.mutate { $0.rows = copy }
    #expect(count.count == 0)
  }

  @Test func anElementCopySetTwiceNotifiesNobody() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows.append(Row(id: 1)) }
    let copy = root.currentValue.rows[id: 1]!
    root.mutate { $0.rows[id: 1] = copy }
    let count = tracking { root.read { $0.rows[id: 1]?.count } }
    root.mutate { $0.rows[id: 1] = copy }
    #expect(count.count == 0)
  }

  /// A hand-conformed enum without `_makeIdentityUnique` does not fork its payload: the value it
  /// places is another field's too. The slot never binds it (it is replaced and detached), so
  /// the two fields never share an extent (I1) and each hears only its own changes.
  @Test func aPayloadPlacedFromAFieldIsNeverShared() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.mode = .editing($0.child) }
    root.mutate { $0.mode = .editing($0.child) }
    let count = tracking { root.read { $0.mode.payload?.count } }
    root.mutate { $0.child.count += 1 }
    #expect(count.count == 0)
    #expect(root.mode.payload?.count == 0)
    #expect(root.currentValue.mode.payload!._$fields._extent !== root.currentValue.child._$fields._extent)
  }
}

extension WriteBackHistoryTests {
  /// A value the slot forked for its location (a copy shares it) and nothing wrote is still the
  /// copy's value: the copy written back tells nobody.
  @Test func aForkNothingWroteIsStillTheCopy() {
    let root = ObservedRoot(RelState())
    let child = tracking { root.read { $0.child.title } }
    let copy = root.currentValue.child
    root.mutate { $0.child.count += 0 }
    root.mutate { $0.child = copy }
    #expect(child.count == 0)
  }

  /// The same for the root: a mutation that wrote nothing, then the copy written back.
  @Test func aRootForkNothingWroteIsStillTheCopy() {
    let root = ObservedRoot(RelState())
    let count = tracking { root.read { $0.optional?.count } }
    let copy = root.currentValue
    root.mutate { $0.name = "" }
    root.mutate { $0 = copy }
    #expect(count.count == 0)
  }

  /// A value placed from a field, written back to that field: the field's own value again.
  @Test func aValuePlacedFromAFieldWrittenBackThereTellsNobody() {
    let root = ObservedRoot(RelState())
    let title = tracking { root.read { $0.child.title } }
    root.mutate { $0.optional = $0.child }
    root.mutate { if let o = $0.optional { $0.child = o } }
    #expect(title.count == 0)
  }
}

extension WriteBackHistoryTests {
  /// A root that is still a copy's value is not held through a mutation (that would fork it, and
  /// the fork's children would be compared with locations bound to other values): removing an
  /// absent row tells nobody. (Randomized, base seed 0x3751, seed 0xbe9629dd88e41d5f.)
  @Test func aMutationOfARootThatIsStillACopysValueForksNothing() {
    let root = ObservedRoot(RelState())
    let contains = tracking { root.rows.contains(id: 1) }
    let copy = root.currentValue
    root.mutate {
      $0.rows[id: 1]?.count += 2
      $0 = copy
    }
    root.mutate { _ in }
    root.mutate { $0.rows.remove(id: 4) }
    #expect(contains.count == 0)
    withExtendedLifetime(copy) {}
  }
}
