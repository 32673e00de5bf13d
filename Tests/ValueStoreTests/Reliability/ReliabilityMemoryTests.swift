import Foundation
import Testing
@testable import ValueStore

/// Memory stays flat over many observe/fire cycles. Asserted on the library's tables (registrations
/// per extent, fork lineage, store caches), not on the process's memory, which the allocator and
/// other tests make noisy.
///
/// `VALUESTORE_RELIABILITY_CYCLES` sets the number of cycles (default 100,000, a few seconds in a
/// debug build; 1,000,000 takes about ten times as long).
@Suite struct ReliabilityMemoryTests {
  static let cycles = RelRandomConfig.number("VALUESTORE_RELIABILITY_CYCLES").map(Int.init) ?? 100_000
  static let checkpoints = 10

  /// What can grow: each observed extent's registrations, and how many extents it keeps alive.
  static func tables(_ state: RelState) -> [Int] {
    let extents: [Extent] = [
      state._$fields._extent, state.child._$fields._extent, state.rows._extent, state.rows[id: 1]!._$fields._extent,
    ]
    return extents.flatMap { extent in [withRegistry { _ in extent.registrations.count }, lineageDepth(extent)] }
  }

  /// How many extents an extent keeps alive through its links: its fork lineage and the values it
  /// is (or was) the same as, stale links included — any of them can chain a whole history.
  static func lineageDepth(_ extent: Extent) -> Int {
    withRegistry { _ in
      var seen = Set<ObjectIdentifier>()
      var pending = [extent.origin, extent.sameAs].compactMap { $0 }
      while let node = pending.popLast(), seen.insert(ObjectIdentifier(node)).inserted {
        pending += [node.origin, node.sameAs].compactMap { $0 }
      }
      return seen.count
    }
  }

  /// An `observe` subscription re-tracks after every change, while snapshots come and go (forks,
  /// adoption): its registrations stay one per field read, lineages stay cut.
  @Test func registrationTablesStayFlatOverObserveFireCycles() {
    let root = ObservedRoot(ReliabilityThreadTests.populated())
    let runs = FireCounter()
    let token = observe {
      _ = root.read { ($0.count, $0.child.count, $0.rows[id: 1]?.count) }
      runs.tick()
    }
    var snapshot: RelState?
    var baseline: [Int]?
    for cycle in 0..<Self.cycles {
      if cycle % 7 == 0 { snapshot = root.currentValue } else if cycle % 7 == 3 { snapshot = nil }
      switch cycle % 3 {
      case 0: root.mutate { $0.count += 1 }
      case 1: root.mutate { $0.child.count += 1 }
      default: root.mutate { $0.rows[id: 1]?.count += 1 }
      }
      if cycle % (Self.cycles / Self.checkpoints) == Self.cycles / Self.checkpoints - 1 {
        snapshot = nil
        let tables = Self.tables(root.currentValue)
        baseline = baseline ?? tables
        #expect(tables == baseline, "cycle \(cycle)")
      }
    }
    #expect(runs.count == Self.cycles + 1)
    token.cancel()
    // No registration left; an extent keeps at most the one value it is still the same as.
    #expect(Self.tables(root.currentValue).enumerated().allSatisfy { $0.element <= $0.offset % 2 })
    withExtendedLifetime(snapshot) {}
  }

  /// Observers leave a shared table without a scan (the row-send hot path): a table holds at most
  /// twice its live registrations, and none once the last observer is gone.
  @Test func aSharedTableStaysWithinTwiceItsLiveObserversAndEmpties() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows = IdentifiedArray(uniqueElements: (0..<100).map { Row(id: $0) }) }
    let tokens = TokenBox((0..<100).map { id in observe { _ = root.read { $0.rows[id: id]?.count } } })
    let table = { withRegistry { _ in root.currentValue._$fields._extent.registrations.count } }
    #expect(table() == 100)  // each subscription reads `rows` on the root
    for id in 0..<100 {
      if id.isMultiple(of: 2) { tokens.cancel(id) } else { root.mutate { $0.rows[id: id]?.count += 1 } }
      let live = 100 - (id / 2 + 1)  // the even ones cancelled so far are gone; the rest re-tracked
      #expect(table() < 2 * live, "after observer \(id)")
    }
    // The odd ones re-tracked after their change and are live again; cancel them too.
    for id in stride(from: 1, to: 100, by: 2) { tokens.cancel(id) }
    #expect(table() == 0)
  }

  /// A bare value mutated while a snapshot of it is alive forks every time; once the snapshots are
  /// gone the lineage is spliced, so it never grows (Documentation/Core.md, "Lineage is bounded").
  @Test func bareLineagesStayBoundedOverSnapshotCycles() {
    var state = ReliabilityThreadTests.populated()
    var fired = 0
    var maximum: [Int] = []
    for cycle in 0..<Self.cycles / 10 {
      let counter = FireCounter()
      withTracking { _ = state.count } onChange: { _ in counter.tick() }
      let snapshot = state
      state.count += 1
      state.child.count += 1
      fired += counter.count
      withExtendedLifetime(snapshot) {}
      if cycle % 1_000 == 999 {
        maximum = zip(Self.tables(state), maximum + Array(repeating: 0, count: 8)).map { max($0, $1) }
      }
    }
    #expect(fired == Self.cycles / 10)  // S12 bare: F every time
    // Registrations: at most the one observer of this cycle.
    #expect(maximum.enumerated().filter { $0.offset % 2 == 0 }.allSatisfy { $0.element <= 1 }, "\(maximum)")
    // Lineages: at most the snapshot of this cycle (B20: the child's waiting adoptions, one per
    // write, kept every ancestor of the child alive).
    #expect(maximum.enumerated().filter { $0.offset % 2 == 1 }.allSatisfy { $0.element <= 1 }, "\(maximum)")
  }

  /// A store sending many actions, with field bridges, child stores and element stores that come
  /// and go: its caches hold only what exists.
  @MainActor @Test func storeCachesStayBoundedOverManySends() {
    let store = ReliabilityLifetimeTests.store()
    let runs = FireCounter()
    let token = store.observe {
      _ = (store.count, store.rows.count)
      runs.tick()
    }
    let rows = { store.scope(state: \.rows, action: CasePath(RelAction.rows)) }
    var sizes: Set<[Int]> = []
    for cycle in 0..<Self.cycles / 10 {
      let id = 10 + cycle % 50
      store.send(.steps([.rowsAppend(id), .addCount(1)]))
      _ = rows()[id: id]?.count  // makes the element's store
      store.send(.steps([.rowsRemove(id)]))
      if cycle % 1_000 == 999 {
        let cache = store.children.values.compactMap { $0 as? ElementStoreCache<Int, Row, RelNoAction> }.first
        sizes.insert([store.children.count, cache?.count ?? -1, relRegistrations(store.currentState)])
      }
    }
    #expect(sizes.count == 1, "\(sizes)")
    #expect(runs.count == 2 * (Self.cycles / 10) + 1)
    token.cancel()
  }
}
