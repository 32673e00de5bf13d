import Testing
import ValueStore

/// swift-concurrency-extras' `AnyHashableSendableTests`, one test per upstream case, plus what the
/// box adds to a set, a dictionary and a dump.
@Suite struct AnyHashableSendableTests {
  @Test func basics() {
    #expect(AnyHashableSendable(1) == AnyHashableSendable(1))
    #expect(AnyHashableSendable(1) != AnyHashableSendable(2))

    func make(_ base: some Hashable & Sendable) -> AnyHashableSendable {
      AnyHashableSendable(base)
    }

    let flat = make(1)
    let nested = make(flat)

    #expect(flat == nested)
    #expect(nested.base is Int)  // not boxed twice
  }

  @Test func existential() {
    let base: (any Hashable & Sendable)? = 1
    let wrapped = base.map(AnyHashableSendable.init)
    #expect(wrapped == AnyHashableSendable(1))
  }

  @Test func anyHashable() {
    #expect(AnyHashableSendable(1) as AnyHashable == 1 as AnyHashable)  // upstream: XCTAssertEqual, as AnyHashable
    #expect(AnyHashable(AnyHashableSendable("a")) == AnyHashable("a"))
  }

  @Test func literals() {
    #expect(AnyHashableSendable(true) == true)
    #expect(AnyHashableSendable(1) == 1)
    #expect(AnyHashableSendable(4.2) == 4.2)
    #expect(AnyHashableSendable("Blob") == "Blob")

    let bool: AnyHashableSendable = true
    #expect(bool.base as? Bool == true)
    #expect(bool as AnyHashable as? Bool == true)
  }

  @Test func keysCompareAsAnyHashableDoes() {
    var counts: [AnyHashableSendable: Int] = [1: 10, "1": 20]
    #expect(counts.count == 2)  // values of different types are different keys…
    counts[AnyHashableSendable(Int8(1))] = 30  // …but numbers compare by value, as in AnyHashable
    #expect(counts.count == 2)
    #expect(counts[1] == 30)
    #expect(counts["1"] == 20)
    let ids: Set<AnyHashableSendable> = [1, 1, "one"]
    #expect(ids.count == 2)
    #expect(AnyHashableSendable(1).hashValue == AnyHashableSendable(1).hashValue)
  }

  @Test func descriptions() {
    #expect(AnyHashableSendable(1).description == "1")
    #expect(AnyHashableSendable("Blob").description == "Blob")
    #expect(AnyHashableSendable("Blob").debugDescription == #"AnyHashableSendable("Blob")"#)
    #expect(String(customDumping: AnyHashableSendable(1)) == "AnyHashableSendable(\n  value: 1\n)")
  }
}
