import Foundation
import Testing
@testable import ValueStore

/// Declaring observable state (R1–R5) and the tracking API beyond the contract rows.
@Suite struct ObservableStateTests {
  struct Row: ObservableState, Identifiable, Hashable, Codable, Sendable {
    struct Fields: Identifiable, Hashable, Codable, Sendable {
      var id: Int
      var title = ""
    }
    var _$fields: Observed<Fields>
  }

  @Test func r2_keyPathsAndOptionalChainingReadLikePlainStructs() {
    var state = AppState()
    state.optional = Child()
    state.optional?.title = "x"
    state[keyPath: \AppState.child.count] = 3
    #expect(state.optional?.title == "x")
    #expect(state.child.count == 3)
  }

  @Test func r4_conformancesIgnoreTheExtent() throws {
    let a = Row(id: 1, title: "a")
    var b = a
    b.title = "b"
    b.title = "a"  // equal fields, different extent (b forked)
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(a.id == 1)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(a)
    #expect(String(decoding: data, as: UTF8.self) == #"{"_$fields":{"id":1,"title":"a"}}"#)
    #expect(try JSONDecoder().decode(Row.self, from: data) == a)
    #expect(String(describing: Mirror(reflecting: a).children.first!.value).contains("title") )
  }

  @Test func r5_appendingToAnArrayFieldIsInPlace() {
    var state = AppState()
    state.numbers.reserveCapacity(100_001)
    for i in 0..<100_000 { state.numbers.append(i) }
    let before = state.numbers.withUnsafeBufferPointer { $0.baseAddress }
    state.numbers.append(0)
    #expect(state.numbers.withUnsafeBufferPointer { $0.baseAddress } == before)
  }

  @Test func aBareValueWhoseSnapshotsAreGoneReturnsToTheFastPath() {
    var state = AppState()
    for _ in 0..<1_000 {
      let snapshot = state
      state.count += 1  // forks: the snapshot shares the extent
      _ = snapshot
    }
    state.count += 1  // the snapshots are gone: their extents are spliced out of the lineage
    #expect(state._$fields._extent.origin == nil)
    #expect(state._$fields._extent.isQuiet)
  }

  @Test func mutatingAnObservedRootKeepsItsExtent() {
    // Forking on every mutation would cost an allocation and a copy of every registration.
    let root = ObservedRoot(AppState())
    let token = observe { _ = root.count }
    let before = root.read { $0._$fields._extent.serial }
    root.mutate { $0.count += 1 }
    root.mutate { $0.name = "x" }
    #expect(root.read { $0._$fields._extent.serial } == before)
    withExtendedLifetime(token) {}  // `_ = token` does not keep it alive in an optimized build
  }

  @Test func untrackedReadsDoNotSubscribe() {
    let root = ObservedRoot(AppState())
    let recorder = tracking {
      _ = root.name
      _ = untracked { root.count }
    }
    root.mutate { $0.count += 1 }
    #expect(recorder.count == 0)
    root.mutate { $0.name = "x" }
    #expect(recorder.count == 1)
  }

  @Test(.timeLimit(.minutes(1))) func trackingScopesArePerThread() async {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let root = ObservedRoot(AppState())
    // Two threads track different fields at the same moment; each scope sees only its reads.
    let gate = DispatchGroup()
    let recorders = (Recorder(), Recorder())
    let started = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    gate.enter()
    Thread.detachNewThread {
      withTracking {
        _ = root.count
        started.signal()
        proceed.wait()  // the main test thread tracks `name` meanwhile
      } onChange: { recorders.0.record($0) }
      gate.leave()
    }
    started.wait()
    _ = withTracking { root.name } onChange: { recorders.1.record($0) }
    proceed.signal()
    gate.wait()
    root.mutate { $0.name = "x" }
    #expect(recorders.0.count == 0)
    #expect(recorders.1.count == 1)
    root.mutate { $0.count += 1 }
    #expect(recorders.0.count == 1)
  }

  @Test func observedValuesYieldsCurrentThenChangedValues() async {
    let root = ObservedRoot(AppState())
    var iterator = ObservedValues { root.count }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    root.mutate { $0.count = 5 }
    #expect(await iterator.next() == 5)
  }

  @Test func observedValuesEndsOnCancellationAndReleasesWhatItCaptured() async {
    weak var weakRoot: ObservedRoot<AppState>?
    let task: Task<Int, Never>
    do {
      let root = ObservedRoot(AppState())
      weakRoot = root
      let values = ObservedValues { root.count }
      task = Task {
        var seen = 0
        for await _ in values { seen += 1 }
        return seen
      }
    }
    task.cancel()
    _ = await task.value
    #expect(weakRoot == nil)
  }

  @Test func observeDoesNotRetainItsTokenOrCycle() {
    weak var weakToken: ObservationToken?
    let root = ObservedRoot(AppState())
    do {
      let token = observe { _ = root.count }
      weakToken = token
    }
    #expect(weakToken == nil)
    #expect(root.currentValue._$fields._extent.registrations.isEmpty)
  }
}

extension ObservableStateTests.Row {
  init(id: Int, title: String = "") { _$fields = Observed(Fields(id: id, title: title)) }
}
