import Testing
import ValueStore

// Fixture types are local to each test: they cannot clash with other suites' types, and their
// dumped names carry no enclosing type.
@Suite("diff(_:_:format:)")
struct DiffTests {
  @Test func fieldChangeInNestedStruct() {
    struct Address {
      var city: String
      var zip: String
    }
    struct User {
      var id: Int
      var name: String
      var address: Address
    }

    let old = User(id: 1, name: "Blob", address: Address(city: "Paris", zip: "75001"))
    var new = old
    new.address.city = "Lyon"
    #expect(
      diff(old, new) == """
          User(
            id: 1,
            name: "Blob",
            address: Address(
        -     city: "Paris",
        +     city: "Lyon",
              zip: "75001"
            )
          )
        """
    )
  }

  @Test func insertedArrayElement() {
    #expect(
      diff(["a", "b", "c"], ["a", "b", "x", "c"]) == """
          [
            [0]: "a",
            [1]: "b",
        -   [2]: "c"
        +   [2]: "x",
        +   [3]: "c"
          ]
        """
    )
  }

  @Test func removedArrayElement() {
    #expect(
      diff(["a", "b", "c"], ["a", "c"]) == """
          [
            [0]: "a",
        -   [1]: "b",
        -   [2]: "c"
        +   [1]: "c"
          ]
        """
    )
  }

  @Test func largeArrayShowsOnlyTheChangedElement() {
    struct Row {
      var id: Int
      var title: String
      var isDone: Bool
    }

    let old = (0..<10_000).map { Row(id: $0, title: "Row \($0)", isDone: false) }
    var new = old
    new[5_000].isDone = true
    #expect(
      diff(old, new) == """
          [
            … (5000 unchanged elements)
            [5000]: Row(
              id: 5000,
              title: "Row 5000",
        -     isDone: false
        +     isDone: true
            ),
            … (4999 unchanged elements)
          ]
        """
    )
  }

  @Test func unchangedRunBetweenChangesFoldsItsMiddle() {
    let old = Array(0..<20)
    var new = old
    new[3] = 30
    new[15] = 150
    #expect(
      diff(old, new) == """
          [
            [0]: 0,
            [1]: 1,
            [2]: 2,
        -   [3]: 3,
        +   [3]: 30,
            [4]: 4,
            [5]: 5,
            [6]: 6,
            … (5 unchanged)
            [12]: 12,
            [13]: 13,
            [14]: 14,
        -   [15]: 15,
        +   [15]: 150,
            [16]: 16,
            [17]: 17,
            [18]: 18,
          … (2 unchanged)
        """
    )
  }

  @Test func proportionalFormatUsesMinusSign() {
    struct Counter {
      var count: Int
      var title: String
    }

    #expect(
      diff(Counter(count: 1, title: "A"), Counter(count: 2, title: "A"), format: .proportional) == """
          Counter(
        \u{2212}   count: 1,
        +   count: 2,
            title: "A"
          )
        """
    )
  }

  @Test func customFormatMarksEveryLine() {
    let format = DiffFormat(first: "<", second: ">", both: "|")
    #expect(diff(1, 2, format: format) == "< 1\n> 2")
    #expect(diff([1], [2], format: format) == "| [\n<   [0]: 1\n>   [0]: 2\n| ]")
  }

  @Test func equalValuesHaveNoDiff() {
    struct Row {
      var id: Int
      var tags: Set<String>
    }

    #expect(diff(Row(id: 1, tags: ["a", "b", "c"]), Row(id: 1, tags: ["c", "b", "a"])) == nil)
    #expect(diff(Optional<Int>.none, nil) == nil)
  }

  @Test func diffIsStable() {
    func scores(_ names: [String]) -> [String: Int] {
      Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 % 3) })
    }

    let names = (0..<50).map { "player \($0)" }
    let first = diff(scores(names), scores(names.reversed()))
    let second = diff(scores(names), scores(names.reversed()))
    #expect(first != nil)
    #expect(first == second)
  }
}
