import Testing
@testable import ValueStore

/// Counts the comparisons of the fields of a ``Compared`` value; one per test.
private final class Comparisons {
  var count = 0
}

/// An observable state whose fields count their comparisons.
private struct Compared: ObservableState, Equatable {
  struct Fields: Equatable {
    var value = 0
    var title = ""
    let comparisons: Comparisons

    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.comparisons.count += 1
      return lhs.value == rhs.value && lhs.title == rhs.title
    }
  }
  var _$fields: Observed<Fields>

  init(_ comparisons: Comparisons) { _$fields = Observed(Fields(comparisons: comparisons)) }
}

/// `Observed`'s `==`: values that share storage are equal without comparing their fields; others
/// compare them.
@Suite struct SharedStorageEqualityTests {
  @Test func aCopyIsEqualWithoutComparingFields() {
    let comparisons = Comparisons()
    let value = Compared(comparisons)
    let copy = value
    #expect(value == copy)
    #expect(comparisons.count == 0)
  }

  @Test func anEqualWriteKeepsTheStorageShared() {
    let comparisons = Comparisons()
    let value = Compared(comparisons)
    var copy = value
    copy.value = 0  // equal: not written
    copy.value += 0  // written, equal: no fork
    #expect(value == copy)
    #expect(comparisons.count == 0)
  }

  @Test func aCopyChangedBackComparesItsFields() {
    let comparisons = Comparisons()
    let value = Compared(comparisons)
    var copy = value
    copy.value += 1
    #expect(value != copy)
    copy.value -= 1
    #expect(value == copy)
    copy.title = "changed in place"
    #expect(value != copy)
    #expect(comparisons.count == 3)
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

  @Test func equalityMatchesTheDumpsOfRandomStates() {
    var generator = DiffDocGenerator(seed: 34)
    var sharing = 0
    for _ in 0..<400 {
      let (first, second) = generator.pair()
      let dumpsEqual = String(customDumping: first) == String(customDumping: second)
      #expect((first == second) == dumpsEqual, "\(String(customDumping: first))\n\(String(customDumping: second))")
      #expect((second == first) == dumpsEqual)
      #expect(first.items == second.items || !dumpsEqual)
      sharing += zip(first.items, second.items).count { $0._$fields._extent === $1._$fields._extent }
    }
    // The runs compare values that share storage, not only rebuilt ones.
    #expect(sharing > 1_000)
  }
}
