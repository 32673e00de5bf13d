import Foundation
import Testing
@testable import ValueStore

@Suite struct LockIsolatedTests {
  /// Contended read-modify-writes from several threads: none is lost (and, under
  /// `--sanitize=thread`, none is reported: `.ci/run` runs this suite so).
  @Test func concurrentUpdatesAreSerialised() {
    let counter = LockIsolated(0)
    let log = LockIsolated<[Int]>([])
    relOnThreads(4) { thread in
      for _ in 0..<5_000 { counter.withValue { $0 += 1 } }
      log.withValue { $0.append(thread) }
    }
    #expect(counter.value == 20_000)
    #expect(log.value.sorted() == [0, 1, 2, 3])
  }

  @Test func withValueReturnsAndRethrowsTypedErrors() {
    struct Refused: Error {}
    let box = LockIsolated("a")
    let length = box.withValue { value -> Int in
      value += "b"
      return value.count
    }
    #expect(length == 2)
    #expect(throws: Refused.self) { try box.withValue { _ throws(Refused) in throw Refused() } }
    #expect(box.value == "ab")
    box.setValue("c")
    #expect(box.value == "c")
  }
}
