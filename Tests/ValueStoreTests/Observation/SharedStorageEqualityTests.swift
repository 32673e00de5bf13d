import Testing
@testable import ValueStore

/// An observable state whose fields are never equal: only shared storage makes two values equal.
private struct Unequal: ObservableState, Equatable {
  struct Fields: Equatable {
    var value = 0
    var title = ""

    static func == (lhs: Self, rhs: Self) -> Bool { false }
  }
  var _$fields = Observed(Fields())
}

/// `Observed`'s `==`: values that share storage are equal without comparing their fields; others
/// compare them.
@Suite struct SharedStorageEqualityTests {
  @Test func aCopyIsEqualWithoutItsFields() {
    let value = Unequal()
    let copy = value
    #expect(value == copy)
    #expect(value != Unequal())
  }

  @Test func anEqualWriteKeepsTheStorageShared() {
    let value = Unequal()
    var copy = value
    copy.value = 0  // equal: not written
    copy.value += 0  // written, equal: no fork
    #expect(value == copy)
  }

  @Test func aCopyChangedBackComparesItsFields() {
    let value = Unequal()
    var copy = value
    copy.value += 1
    copy.value -= 1
    #expect(value != copy)
    var other = value
    other.title = "changed in place"
    #expect(value != other)
  }

  @Test func sharedStorageIsEqualEvenWhenAFieldIsNot() {
    // As with `Array`: one storage is equal to itself, though `Double.nan != .nan`.
    struct Measure: ObservableState, Equatable {
      struct Fields: Equatable { var value = Double.nan }
      var _$fields = Observed(Fields())
    }
    let measure = Measure()
    let copy = measure
    #expect(measure == copy)
    #expect(measure != Measure())
  }

  @Test func insideATrackingScopeTheResultIsTheSame() {
    let value = Unequal()
    let copy = value
    var results: (shared: Bool, other: Bool) = (false, true)
    _ = tracking { results = (value == copy, value == Unequal()) }
    #expect(results == (true, false))
  }

  @Test func equalityMatchesTheDumpsOfRandomStates() {
    var generator = DiffDocGenerator(seed: 34)
    var sharing = 0
    for _ in 0..<400 {
      let (first, second) = generator.pair()
      let dumpsEqual = String(customDumping: first) == String(customDumping: second)
      #expect((first == second) == dumpsEqual, "\(String(customDumping: first))\n\(String(customDumping: second))")
      #expect((second == first) == dumpsEqual)
      sharing += zip(first.items, second.items).count { $0._$fields._extent === $1._$fields._extent }
    }
    // The runs compare values that share storage, not only rebuilt ones.
    #expect(sharing > 1_000)
  }
}
