import Observation
import Testing
@testable import ValueStore

/// Edges of `withLock` and projections: saves in the order of their changes, a throwing body, a
/// projection made inside its root's `withLock`, read-only members.
@Suite(.timeLimit(.minutes(1)))
struct SharedEdgeTests {
  struct Boom: Error {}
  struct Pair: Equatable, Sendable {
    var a = 0
    var b = 0
    var sum: Int { a + b }
  }

  /// A save that runs after a later change was saved is dropped: the stored value is the last one.
  @Test func aSaveOvertakenByALaterChangeIsDropped() {
    let log = LockIsolated<[Int]>([])
    let reference = SharedReference(0, persistence: SharedPersistence(save: { value in log.withValue { $0.append(value) } }))
    let earlier = reference.saving(reference.persistence!)  // a change whose save has not run yet
    reference.withLock { $0 = 7 }
    earlier()
    #expect(log.value == [7])
  }

  @Test func aThrowingBodyKeepsWhatItChangedAndItsReadersHearIt() {
    let saves = LockIsolated<[Int]>([])
    let reference = SharedReference(0, persistence: SharedPersistence(save: { value in saves.withValue { $0.append(value) } }))
    let shared = Shared(reference: reference)
    let fired = LockIsolated(0)
    withObservationTracking { _ = shared.wrappedValue } onChange: { fired.withValue { $0 += 1 } }
    _ = try? shared.withLock { value -> Void in
      value = 5
      throw Boom()
    }
    #expect(shared.wrappedValue == 5)
    #expect(fired.value == 1)
    #expect(saves.value == [5])
  }

  @Test func aThrowingBodyThroughAProjectionKeepsWhatItChanged() {
    let pair = Shared(value: Pair())
    _ = try? pair.a.withLock { value -> Void in
      value = 2
      throw Boom()
    }
    #expect(pair.wrappedValue.a == 2)
  }

  @Test func aProjectionMadeInsideItsRootsWithLock() {
    let pair = Shared(value: Pair())
    pair.withLock { value in
      value.a = pair.a.wrappedValue + 1
    }
    #expect(pair.wrappedValue.a == 1)
  }

  @Test func aReadOnlyMemberIsAReader() {
    let pair = Shared(value: Pair(a: 1, b: 2))
    let sum: SharedReader<Int> = pair.sum
    let reader = SharedReader(pair)
    #expect(sum.wrappedValue == 3)
    #expect(reader.sum.wrappedValue == 3)
    let fired = LockIsolated(0)
    withTracking { _ = sum.wrappedValue } onChange: { _ in fired.withValue { $0 += 1 } }
    pair.withLock { $0.a = 2; $0.b = 1 }
    #expect(fired.value == 0)
    pair.withLock { $0.b = 5 }
    #expect(fired.value == 1)
  }
}
