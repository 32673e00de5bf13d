import Foundation
import Observation
import Testing
@testable import ValueStore

/// A shared value's readers hear a change through any holder of it, and nobody else does.
@Suite(.timeLimit(.minutes(1)))
struct SharedObservationTests {
  typealias Counter = SharedCounter

  @Test func aChangeThroughOneStateReachesTheReadersOfAnotherThatSharesIt() {
    let count = Shared(value: 0)
    let first = ObservedRoot(Counter(count: count))
    let second = ObservedRoot(Counter(count: count))
    let fired = LockIsolated(0)
    withTracking { _ = second.count } onChange: { _ in fired.withValue { $0 += 1 } }
    first.mutate { $0.$count.withLock { $0 += 1 } }
    #expect(fired.value == 1)
    #expect(second.count == 1)
  }

  @Test func aReaderOfAnotherFieldHearsNothing() {
    let root = ObservedRoot(Counter(count: Shared(value: 0)))
    let fired = LockIsolated(0)
    withTracking { _ = root.title } onChange: { _ in fired.withValue { $0 += 1 } }
    root.mutate { $0.$count.withLock { $0 += 1 } }
    #expect(fired.value == 0)
    let sharedFired = LockIsolated(0)
    withTracking { _ = root.count } onChange: { _ in sharedFired.withValue { $0 += 1 } }
    root.mutate { $0.title = "x" }
    #expect(sharedFired.value == 0)
    root.mutate { $0.$count.withLock { $0 += 0 } }
    #expect(sharedFired.value == 0)
  }

  @Test func appleObservationHearsAChangeOnce() {
    let count = Shared(value: 0)
    let fired = LockIsolated(0)
    withObservationTracking { _ = count.wrappedValue } onChange: { fired.withValue { $0 += 1 } }
    count.withLock { $0 += 1 }
    count.withLock { $0 += 1 }
    #expect(fired.value == 1)
  }

  @Test func keysOfOneNameShareOneValue() {
    withDependencies { $0 = .test } operation: {
      @Shared(.inMemory("count")) var a = 0
      @Shared(.inMemory("count")) var b = 5
      $a.withLock { $0 = 3 }
      #expect(b == 3)
    }
  }

  @Test func fileStorageRoundTrips() throws {
    let url = URL(fileURLWithPath: "/tmp/shared-test.json")
    let storage = FileStorage.inMemory
    try withDependencies {
      $0 = .test
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var names: [String] = []
      $names.withLock { $0.append("Blob") }
      let data = try #require(storage.load(url))
      #expect(try JSONDecoder().decode([String].self, from: data) == ["Blob"])
    }
    withDependencies {
      $0 = .test
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var names: [String] = []
      #expect(names == ["Blob"])
    }
  }
}

/// Through a store: a view reading a shared value through the store re-renders for it only.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct SharedThroughStoreTests {
  struct Feature: Reducer {
    typealias State = SharedCounter
    enum Action: Sendable { case increment, rename }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .increment: state.$count.withLock { $0 += 1 }
      case .rename: state.title += "x"
      }
      return .none
    }
  }

  @Test func twoStoresSharingAValueBothRerender() {
    let count = Shared(value: 0)
    let first = Store(initialState: Feature.State(count: count), reducer: Feature())
    let second = Store(initialState: Feature.State(count: count), reducer: Feature())
    let fired = LockIsolated(0)
    withObservationTracking { _ = second.count } onChange: { fired.withValue { $0 += 1 } }
    first.send(.rename)
    #expect(fired.value == 0)
    first.send(.increment)
    #expect(fired.value == 1)
    #expect(second.count == 1)
  }

  @Test func aReaderOfTheSharedValueIsNotToldOfOtherFields() {
    let store = Store(initialState: Feature.State(count: Shared(value: 0)), reducer: Feature())
    let fired = LockIsolated(0)
    let token = store.observe { _ = store.count; fired.withValue { $0 += 1 } }
    store.send(.rename)
    #expect(fired.value == 1)
    store.send(.increment)
    #expect(fired.value == 2)
    token.cancel()
  }

  @Test func aSharedReaderReadsWhatItsSharedHolds() {
    let count = Shared(value: 1)
    let reader = SharedReader(count)
    let fired = LockIsolated(0)
    withTracking { _ = reader.wrappedValue } onChange: { _ in fired.withValue { $0 += 1 } }
    count.withLock { $0 = 2 }
    #expect(reader.wrappedValue == 2)
    #expect(fired.value == 1)
  }
}

extension SharedObservationTests {
  /// Each tracked read ends as a holder's does: the thread keeps nothing of it once it is recorded.
  @Test func trackedReadsKeepNothingOnTheThread() {
    let count = Shared(value: 0)
    for _ in 0..<100 {
      withObservationTracking { _ = count.wrappedValue } onChange: {}
    }
    #expect(ThreadContext.current.appleRecorder.accessesOfCurrentRead <= 1)
  }
}
