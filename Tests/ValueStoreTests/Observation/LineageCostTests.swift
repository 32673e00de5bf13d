import Synchronization
import Testing
@testable import ValueStore

/// What a copy's lineage costs is proportional to what it records, not to its square: the work
/// is done under the registry lock, so every other thread that observes or forks waits for it.
@Suite struct LineageCostTests {
  /// An id that counts how often it is compared (only this suite uses it).
  struct CountedID: Hashable, Sendable {
    static let comparisons = Atomic<Int>(0)
    let value: Int
    static func == (lhs: Self, rhs: Self) -> Bool {
      comparisons.add(1, ordering: .relaxed)
      return lhs.value == rhs.value
    }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
  }

  struct CountedRow: ObservableState, Identifiable, Equatable, Sendable {
    struct Fields: Identifiable, Equatable, Sendable { var id: CountedID }
    var _$fields: Observed<Fields>
  }

  struct CountedList: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var rows: IdentifiedArrayOf<CountedRow> = [] }
    var _$fields = Observed(Fields())
  }

  /// A copy removes another row at each edit, with a snapshot of it alive at each: its fork
  /// records a change below each row removed, and each edit merges the dropped snapshot's changes
  /// into its own. Finding repeats by scanning made that quadratic per edit (cubic over the
  /// loop): 300 edits on each of four threads held the registry lock for seconds under the thread
  /// sanitizer, and tests on other threads ran past their time limits. Now an edit costs what it
  /// recorded: the snapshot's changes are found by hash, and merged by adding the edit's few to
  /// them.
  @Test func aCopyRecordingChangesBelowManyRowsComparesEachAFewTimes() {
    let edits = 300
    var rows = IdentifiedArrayOf<CountedRow>()
    for id in 0..<3 { rows.append(CountedRow(.init(id: CountedID(value: id)))) }
    let original = CountedList(.init(rows: rows))
    var copy = original
    let before = CountedID.comparisons.load(ordering: .relaxed)
    for edit in 0..<edits {
      let id = CountedID(value: 100 + edit)
      copy.rows.append(CountedRow(.init(id: id)))
      let snapshot = copy  // alive while the copy is edited again
      copy.rows.remove(id: id)
      #expect(snapshot.rows.count == 4)
    }
    let comparisons = CountedID.comparisons.load(ordering: .relaxed) - before
    #expect(copy.rows.count == 3)
    #expect(original.rows.count == 3)
    // A few per edit (the array's own lookups, a short scan; about 6). Scanning: about
    // edits³ / 6 (4.5 million); hashing, but adding the snapshot's changes to the edit's:
    // about 2 × edits².
    #expect(comparisons < 20 * edits, "\(comparisons) comparisons for \(edits) edits")
  }

  /// A ring of the last 50 versions of a bare value: its lineage holds at most twice the ring
  /// (a write walks past two kept ancestors, and all of them when the lineage has doubled).
  @Test func aBareLineageHoldsAtMostTwiceTheVersionsKept() {
    var value = Child()
    var ring: [Child] = []
    var longest = 0
    for _ in 0..<2_000 {
      ring.append(value)
      if ring.count > 50 { ring.removeFirst() }
      value.count += 1
      longest = max(longest, ReliabilityMemoryTests.lineageDepth(value._$fields._extent))
    }
    #expect(longest >= 50, "every version kept is in the lineage")
    #expect(longest <= 2 * 50 + 2, "the lineage kept \(longest) extents for 50 versions")
  }
}
