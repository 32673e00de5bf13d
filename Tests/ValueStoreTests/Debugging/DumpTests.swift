import Foundation
import Testing
import ValueStore

// Fixture types are local to each test: they cannot clash with other suites' types, and their
// dumped names carry no enclosing type.
@Suite("String(customDumping:)")
struct DumpTests {
  @Test func structPrintsOneFieldPerLine() {
    struct User {
      var id: Int
      var name: String
      var isAdmin: Bool
      var score: Double
    }
    struct Empty {}

    #expect(
      String(customDumping: User(id: 1, name: "Blob", isAdmin: false, score: 0.5)) == """
        User(
          id: 1,
          name: "Blob",
          isAdmin: false,
          score: 0.5
        )
        """
    )
    #expect(String(customDumping: Empty()) == "Empty()")
  }

  @Test func nestedStructIndentsByTwoSpaces() {
    struct Address {
      var city: String
    }
    struct Profile {
      var address: Address
      var nickname: String?
    }
    struct User {
      var id: Int
      var profile: Profile
    }

    let user = User(id: 1, profile: Profile(address: Address(city: "Paris"), nickname: nil))
    #expect(
      String(customDumping: user) == """
        User(
          id: 1,
          profile: Profile(
            address: Address(
              city: "Paris"
            ),
            nickname: nil
          )
        )
        """
    )
  }

  @Test func observableStructPrintsOnlyItsFields() {
    let observable: String = {
      // Stand-in for the library's observable structs: all fields behind `_$fields`.
      struct Counter {
        struct Fields {
          var count = 0
          var title = "x"
        }
        var _$fields = Fields()
      }
      return String(customDumping: Counter())
    }()
    let wrapped: String = {
      // Closer to the real storage: a wrapper whose mirror shows the fields, not its bookkeeping.
      struct Storage<Fields>: CustomReflectable {
        var fields: Fields
        var registrations = [1, 2]
        var customMirror: Mirror { Mirror(reflecting: fields) }
      }
      struct Counter {
        struct Fields {
          var count = 0
          var title = "x"
        }
        var _$fields = Storage(fields: Fields())
      }
      return String(customDumping: Counter())
    }()
    let plain: String = {
      struct Counter {
        var count = 0
        var title = "x"
      }
      return String(customDumping: Counter())
    }()

    #expect(observable == plain)
    #expect(wrapped == plain)
    #expect(
      observable == """
        Counter(
          count: 0,
          title: "x"
        )
        """
    )
  }

  @Test func enumPrintsCaseAndPayload() {
    struct Row {
      var id: Int
    }
    enum Action {
      case reset
      case set(Int)
      case move(from: Int, to: Int)
      case rename(id: Int, String)
      case insert(Row)
    }

    #expect(String(customDumping: Action.reset) == "Action.reset")
    #expect(String(customDumping: Action.set(5)) == "Action.set(5)")
    #expect(String(customDumping: Action.move(from: 1, to: 2)) == "Action.move(from: 1, to: 2)")
    #expect(String(customDumping: Action.rename(id: 1, "Blob")) == #"Action.rename(id: 1, "Blob")"#)
    #expect(
      String(customDumping: Action.insert(Row(id: 7))) == """
        Action.insert(
          Row(
            id: 7
          )
        )
        """
    )
  }

  @Test func optionalPrintsWrappedValueOrNil() {
    #expect(String(customDumping: Int?.some(3)) == "3")
    #expect(String(customDumping: Int?.none) == "nil")
    #expect(String(customDumping: String??.some(.some("a"))) == #""a""#)
  }

  @Test func tuplePrintsLabelsExceptPositions() {
    #expect(
      String(customDumping: (a: 1, 2)) == """
        (
          a: 1,
          2
        )
        """
    )
  }

  @Test func classPrintsFieldsIncludingInherited() {
    class Animal {
      var name = "Rex"
    }
    final class Dog: Animal {
      var isGood = true
    }

    #expect(
      String(customDumping: Dog()) == """
        Dog(
          name: "Rex",
          isGood: true
        )
        """
    )
  }

  @Test func classCycleStopsAtSecondVisit() {
    final class Node {
      var id: Int
      var next: Node?
      init(id: Int) { self.id = id }
    }

    let first = Node(id: 1)
    let second = Node(id: 2)
    first.next = second
    second.next = first
    #expect(
      String(customDumping: first) == """
        Node(
          id: 1,
          next: Node(
            id: 2,
            next: Node(↩︎)
          )
        )
        """
    )
    first.next = nil  // Breaks the cycle so both nodes are freed.
  }

  @Test func sharedObjectOffThePathPrintsInFull() {
    final class Tag {
      var name = "new"
    }

    let tag = Tag()
    #expect(
      String(customDumping: [tag, tag]) == """
        [
          [0]: Tag(
            name: "new"
          ),
          [1]: Tag(
            name: "new"
          )
        ]
        """
    )
  }

  @Test func arrayPrintsIndexedElements() {
    #expect(
      String(customDumping: ["a", "b"]) == """
        [
          [0]: "a",
          [1]: "b"
        ]
        """
    )
    #expect(String(customDumping: [Int]()) == "[]")
    #expect(
      String(customDumping: ContiguousArray([true])) == """
        [
          [0]: true
        ]
        """
    )
  }

  @Test func labeledCollectionPrintsLabelsAndTypeName() {
    struct Row {
      var id: Int
      var title: String
    }
    // Stand-in for the library's IdentifiedArray: a collection mirror labeling elements by id.
    struct IdentifiedRows: CustomReflectable {
      var rows: [Row]
      var customMirror: Mirror {
        Mirror(self, children: rows.map { (label: "id: \($0.id)", value: $0) }, displayStyle: .collection)
      }
    }

    let rows = IdentifiedRows(rows: [Row(id: 3, title: "A"), Row(id: 1, title: "B")])
    #expect(
      String(customDumping: rows) == """
        IdentifiedRows([
          [id: 3]: Row(
            id: 3,
            title: "A"
          ),
          [id: 1]: Row(
            id: 1,
            title: "B"
          )
        ])
        """
    )
    #expect(String(customDumping: IdentifiedRows(rows: [])) == "IdentifiedRows([])")
  }

  @Test func dictionaryPrintsSortedKeys() {
    #expect(
      String(customDumping: [10: "ten", 2: "two", -1: "minus one"]) == """
        [
          -1: "minus one",
          2: "two",
          10: "ten"
        ]
        """
    )
    #expect(String(customDumping: [String: Int]()) == "[:]")
  }

  @Test func dictionaryWithoutComparableKeysSortsByKeyText() {
    struct Key: Hashable {
      var name: String
    }

    #expect(
      String(customDumping: [Key(name: "b"): 2, Key(name: "a"): 1]) == """
        [
          Key(
            name: "a"
          ): 1,
          Key(
            name: "b"
          ): 2
        ]
        """
    )
    #expect(
      String(customDumping: [AnyHashable(2): 2, AnyHashable("one"): 1]) == """
        [
          "one": 1,
          2: 2
        ]
        """
    )
  }

  @Test func setPrintsSortedElements() {
    #expect(
      String(customDumping: Set(["pear", "apple", "fig"])) == """
        Set([
          "apple",
          "fig",
          "pear"
        ])
        """
    )
    #expect(String(customDumping: Set<Int>()) == "Set([])")
  }

  @Test func equalUnorderedCollectionsDumpAlike() {
    var forward: [String: Int] = [:]
    var backward: [String: Int] = [:]
    for number in 0..<100 {
      forward["key \(number)"] = number
      backward["key \(99 - number)"] = 99 - number
    }

    #expect(String(customDumping: forward) == String(customDumping: backward))
    #expect(String(customDumping: Set(forward.keys)) == String(customDumping: Set(backward.keys)))
  }

  @Test func singleLineStringEscapesQuotesAndBackslashes() {
    #expect(String(customDumping: #"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
    #expect(String(customDumping: "" as Substring) == #""""#)
    #expect(String(customDumping: "é" as Character) == #""é""#)
  }

  @Test func multiLineStringPrintsLiteralBlockAtCurrentIndent() {
    struct Note {
      var body: String
      var code: String
    }

    let note = Note(body: "Dear Blob,\n\nHello!\n", code: #"print("""")"# + "\n" + #"\n"#)
    #expect(
      String(customDumping: note) == ##"""
        Note(
          body: """
          Dear Blob,

          Hello!

          """,
          code: #"""
          print("""")
          \n
          """#
        )
        """##
    )
  }

  @Test func dateUUIDAndURLPrintCanonicalText() throws {
    #expect(String(customDumping: Date(timeIntervalSince1970: 1_234_567_890)) == "Date(2009-02-13T23:31:30Z)")
    #expect(String(customDumping: Date(timeIntervalSince1970: 0.25)) == "Date(1970-01-01T00:00:00.250Z)")
    let uuid = try #require(UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF"))
    #expect(String(customDumping: uuid) == "UUID(DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF)")
    let url = try #require(URL(string: "https://example.com/a?b=c"))
    #expect(String(customDumping: url) == "URL(https://example.com/a?b=c)")
  }

  @Test func foundationValuesPrintWithoutStorageDetails() throws {
    #expect(String(customDumping: Data([0x01, 0xAB, 0xFF])) == "Data(3 bytes: 01abff)")
    #expect(String(customDumping: Data()) == "Data(0 bytes)")
    #expect(String(customDumping: try #require(Decimal(string: "-12.50"))) == "-12.5")
    #expect(String(customDumping: try #require(TimeZone(identifier: "Europe/Paris"))) == "TimeZone(Europe/Paris)")
  }

  @Test func scalarsPrintTheirDescription() {
    #expect(String(customDumping: 42) == "42")
    #expect(String(customDumping: UInt8(7)) == "7")
    #expect(String(customDumping: 0.1) == "0.1")
    #expect(String(customDumping: true) == "true")
    #expect(String(customDumping: Duration.milliseconds(1500)) == "1.5 seconds")
    #expect(String(customDumping: Duration.seconds(-2)) == "-2.0 seconds")
    #expect(String(customDumping: Duration.nanoseconds(1)) == "0.000000001 seconds")
  }

  @Test func descriptionPrintsOnlyForValuesWithoutChildren() {
    struct Token: CustomStringConvertible {
      var description: String { "<token>" }
    }
    struct Point: CustomStringConvertible {
      var x = 1
      var y = 2
      var description: String { "(1, 2)" }
    }
    enum Mode: CustomStringConvertible {
      case fast
      var description: String { "FAST" }
    }

    #expect(String(customDumping: Token()) == "<token>")
    #expect(String(customDumping: Mode.fast) == "FAST")
    #expect(
      String(customDumping: Point()) == """
        Point(
          x: 1,
          y: 2
        )
        """
    )
  }
}
