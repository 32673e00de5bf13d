import Foundation
import Testing

@testable import ValueStore

/// The cases of swift-identified-collections' `IdentifiedArrayTests.swift`, one test each, named
/// after the upstream case: the facts it checks, written against this library (issue 32). Its
/// arrays of `Int` (made `Identifiable` retroactively there) are arrays of `Number` here, which
/// prints and is written as its id.
@Suite("IdentifiedArray, as swift-identified-collections specifies it")
struct IdentifiedArrayUpstreamTests {
  @Test func testIds() throws {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(array.ids == [1, 2, 3])
    try array._checkInvariants()
  }

  @Test func testElements() {
    let array: IdentifiedArrayOf<User> = [User(id: 1, name: "Blob"), User(id: 2, name: "Blob, Jr.")]
    #expect(Array(array.elements) == array.map { $0 })
  }

  @Test func testSubscriptId() throws {
    var array: IdentifiedArrayOf<User> = [
      User(id: 1, name: "Blob"), User(id: 2, name: "Blob, Jr."), User(id: 3, name: "Blob, Sr."),
    ]
    #expect(array[id: 2] == User(id: 2, name: "Blob, Jr."))
    array[id: 1]?.name += ", Esq."
    array[id: 2]?.name.removeLast(5)
    array[id: 3] = nil
    #expect(array[id: 3] == nil)
    array[id: 4] = User(id: 4, name: "Blob, Sr.")
    #expect(array == [User(id: 1, name: "Blob, Esq."), User(id: 2, name: "Blob"), User(id: 4, name: "Blob, Sr.")])
    try array._checkInvariants()
  }

  @Test func testContainsElement() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(array.contains(2))
    #expect(!array.contains(4))
    // By id, as upstream: the other properties are not compared.
    let users: IdentifiedArrayOf<User> = [User(id: 1, name: "Blob")]
    #expect(users.contains(User(id: 1, name: "Someone else")))
  }

  @Test func testIndexId() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(array.index(id: 2) == 1)
  }

  @Test func testRemoveElement() throws {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(array.remove(2) == 2)
    #expect(array == [1, 3])
    #expect(array.remove(2) == nil)
    try array._checkInvariants()
    var users: IdentifiedArrayOf<User> = [User(id: 1, name: "Blob")]
    #expect(users.remove(User(id: 1, name: "Someone else")) == User(id: 1, name: "Blob"))
    #expect(users.isEmpty)
  }

  @Test func testRemoveId() throws {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(array.remove(id: 2) == 2)
    #expect(array == [1, 3])
    try array._checkInvariants()
  }

  @Test func testCodable() throws {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(try JSONDecoder().decode(IdentifiedArrayOf<Number>.self, from: JSONEncoder().encode(array)) == array)
    #expect(try JSONDecoder().decode(IdentifiedArrayOf<Number>.self, from: Data("[1,2,3]".utf8)) == array)
    // Upstream's message is "Duplicate element at offset 1"; this library names the id.
    let error = #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(IdentifiedArrayOf<Number>.self, from: Data("[1,1,1]".utf8))
    }
    guard case let .dataCorrupted(context)? = error else {
      Issue.record("not dataCorrupted: \(String(describing: error))")
      return
    }
    #expect(context.debugDescription == "IdentifiedArray: duplicate id 1")
  }

  @Test func testCustomDebugStringConvertible() {
    let array = IdentifiedArray(uniqueElements: [1, 2, 3], id: \Int.self)
    #expect(array.debugDescription == "IdentifiedArray<Int>([1, 2, 3])")
    let numbers: IdentifiedArrayOf<Number> = [1, 2]
    #expect(String(reflecting: numbers) == "IdentifiedArray<Number>([1, 2])")
    #expect(IdentifiedArrayOf<Number>().debugDescription == "IdentifiedArray<Number>([])")
  }

  @Test func testCustomReflectable() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    let mirror = Mirror(reflecting: array)
    #expect(mirror.displayStyle == .collection)
    #expect(mirror.superclassMirror == nil)
    #expect(mirror.children.map { $0.value as? Number } == [1, 2, 3])
    #expect(mirror.children.allSatisfy { $0.label == nil })
  }

  @Test func testCustomStringConvertible() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(array.description == "[1, 2, 3]")
  }

  @Test func testHashable() {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(Set([array]) == Set([array, array]))
  }

  @Test func testInitUncheckedUniqueElements() throws {
    let array = IdentifiedArrayOf<Number>(uncheckedUniqueElements: [1, 2, 3])
    #expect(array == [1, 2, 3])
    try array._checkInvariants()
    let byKeyPath = IdentifiedArray(uncheckedUniqueElements: [3, 1], id: \Int.self)
    #expect(Array(byKeyPath.ids) == [3, 1])
    try byKeyPath._checkInvariants()
  }

  @Test func testInitUniqueElementsSelf() throws {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    let made = IdentifiedArrayOf<Number>(uniqueElements: array)
    #expect(made == [1, 2, 3])
    try made._checkInvariants()
  }

  @Test func testInitUniqueElementsSubSequence() throws {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    let made = IdentifiedArrayOf<Number>(uniqueElements: array[...])
    #expect(made == [1, 2, 3])
    try made._checkInvariants()
  }

  @Test func testInitUniqueElements() throws {
    let array = IdentifiedArrayOf<Number>(uniqueElements: [1, 2, 3])
    #expect(array == [1, 2, 3])
    try array._checkInvariants()
  }

  @Test func testSelfInit() throws {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    let made = IdentifiedArray(array)
    #expect(made == [1, 2, 3])
    try made._checkInvariants()
  }

  @Test func testSubsequenceInit() throws {
    let array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(IdentifiedArray(array[...]) == [1, 2, 3])
    let tail = IdentifiedArray(array[1...])
    #expect(tail == [2, 3])
    #expect(tail.index(id: 3) == 1)
    try tail._checkInvariants()
    // A key-path array's slice keeps its key path.
    let people = IdentifiedArray(uniqueElements: [5, 6, 7], id: \Int.self)
    var rest = IdentifiedArray(people[1..<3])
    rest.append(5)
    #expect(Array(rest) == [6, 7, 5])
    try rest._checkInvariants()
  }

  @Test func testInitIDUniquingElements() throws {
    let models = [Model(id: 1, data: "A"), Model(id: 2, data: "B"), Model(id: 1, data: "AAAA")]
    let first = IdentifiedArray(models, id: \.id) { lhs, _ in lhs }
    #expect(first == IdentifiedArray(uniqueElements: [Model(id: 1, data: "A"), Model(id: 2, data: "B")], id: \.id))
    let later = IdentifiedArray(models, id: \.id) { _, rhs in rhs }
    #expect(later == IdentifiedArray(uniqueElements: [Model(id: 1, data: "AAAA"), Model(id: 2, data: "B")], id: \.id))
    try first._checkInvariants()
    try later._checkInvariants()
  }

  @Test func testInitUniquingElements() throws {
    let models = [Model(id: 1, data: "A"), Model(id: 2, data: "B"), Model(id: 1, data: "AAAA")]
    let first = IdentifiedArrayOf<Model>(models) { lhs, _ in lhs }
    #expect(first == [Model(id: 1, data: "A"), Model(id: 2, data: "B")])
    let later = IdentifiedArrayOf<Model>(models) { _, rhs in rhs }
    #expect(later == [Model(id: 1, data: "AAAA"), Model(id: 2, data: "B")])
    let joined = IdentifiedArrayOf<Model>(models + [Model(id: 1, data: "!")]) { Model(id: $0.id, data: $0.data + $1.data) }
    #expect(joined == [Model(id: 1, data: "AAAAA!"), Model(id: 2, data: "B")])
    try first._checkInvariants()
    try later._checkInvariants()
    try joined._checkInvariants()
  }

  @Test func testAppend() throws {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(array.append(4) == (true, 3))
    #expect(array == [1, 2, 3, 4])
    #expect(array.append(2) == (false, 1))
    #expect(array == [1, 2, 3, 4])
    try array._checkInvariants()
  }

  @Test func testAppendContentsOf() throws {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    array.append(contentsOf: [1, 4, 3, 5])
    #expect(array == [1, 2, 3, 4, 5])
    try array._checkInvariants()
    // A present id keeps its element, as `append(_:)` does; a repeated new id is appended once.
    var users: IdentifiedArrayOf<User> = [User(id: 1, name: "Blob")]
    users.append(contentsOf: [User(id: 1, name: "x"), User(id: 2, name: "y"), User(id: 2, name: "z")])
    #expect(users == [User(id: 1, name: "Blob"), User(id: 2, name: "y")])
    try users._checkInvariants()
  }

  @Test func testInsert() throws {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(array.insert(0, at: 0) == (true, 0))
    #expect(array == [0, 1, 2, 3])
    #expect(array.insert(2, at: 0) == (false, 2))
    #expect(array == [0, 1, 2, 3])
    // A present id does not look at the offset, as upstream.
    #expect(array.insert(3, at: 99) == (false, 3))
    try array._checkInvariants()
  }

  @Test func testUpdateAt() throws {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(array.update(2, at: 1) == 2)
    var users: IdentifiedArrayOf<User> = [User(id: 1, name: "Blob"), User(id: 2, name: "Blob, Jr.")]
    #expect(users.update(User(id: 2, name: "Junior"), at: 1) == User(id: 2, name: "Blob, Jr."))
    #expect(users == [User(id: 1, name: "Blob"), User(id: 2, name: "Junior")])
    try users._checkInvariants()
  }

  @Test func testUpdateOrAppend() throws {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    #expect(array.updateOrAppend(4) == nil)
    #expect(array == [1, 2, 3, 4])
    #expect(array.updateOrAppend(2) == 2)
    var users: IdentifiedArrayOf<User> = [User(id: 1, name: "Blob"), User(id: 2, name: "Blob, Jr.")]
    #expect(users.updateOrAppend(User(id: 1, name: "Blob, Esq.")) == User(id: 1, name: "Blob"))
    #expect(users == [User(id: 1, name: "Blob, Esq."), User(id: 2, name: "Blob, Jr.")])
    try array._checkInvariants()
    try users._checkInvariants()
  }

  @Test func testUpdateOrInsert() throws {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    var result = array.updateOrInsert(0, at: 0)
    #expect(result.originalMember == nil && result.index == 0)
    #expect(array == [0, 1, 2, 3])
    result = array.updateOrInsert(2, at: 0)
    #expect(result.originalMember == 2 && result.index == 2)
    #expect(array == [0, 1, 2, 3])
    var users: IdentifiedArrayOf<User> = [User(id: 1, name: "Blob")]
    #expect(users.updateOrInsert(User(id: 1, name: "Blob, Esq."), at: 1) == (User(id: 1, name: "Blob"), 0))
    #expect(users == [User(id: 1, name: "Blob, Esq.")])
    try array._checkInvariants()
    try users._checkInvariants()
  }

  @Test func testPartition() throws {
    var array: IdentifiedArrayOf<Number> = [1, 2]
    #expect(array.partition { $0.id == 1 } == 1)
    #expect(array == [2, 1])
    for id in array.ids { #expect(array[id: id]?.id == id) }
    try array._checkInvariants()
  }

  @Test(arguments: [(0, [1, 3, 2]), (1, [1, 3, 2]), (2, [2, 1, 3])])
  func testMoveFromOffsetsToOffset(destination: Int, expected: [Number]) throws {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    array.move(fromOffsets: [0, 2], toOffset: destination)
    #expect(Array(array) == expected)
    try array._checkInvariants()
  }

  @Test func testRemoveAtOffsets() throws {
    var array: IdentifiedArrayOf<Number> = [1, 2, 3]
    array.remove(atOffsets: [0, 2])
    #expect(array == [2])
    try array._checkInvariants()
  }

  @Test func testEquatable() {
    struct Foo: Identifiable, Equatable {
      var id = "id"
      var value = "value"
    }
    var arrays: [IdentifiedArray<String, Foo>] = [
      IdentifiedArray<String, Foo>(),
      IdentifiedArray<String, Foo>(uncheckedUniqueElements: [], id: \.id),
      IdentifiedArray<String, Foo>(uniqueElements: [], id: \.id),
      IdentifiedArray<String, Foo>(uncheckedUniqueElements: []),
      IdentifiedArray<String, Foo>(uniqueElements: []),
    ]
    // However they were made, arrays with the same elements are equal.
    #expect(arrays.allSatisfy { $0 == arrays[0] })
    for index in arrays.indices { arrays[index].append(Foo()) }
    #expect(arrays.allSatisfy { $0 == arrays[0] })
    for index in arrays.indices { arrays[index].append(Foo(id: "id2", value: "\(index)")) }
    for lhs in arrays.indices {
      for rhs in arrays.indices where rhs != lhs { #expect(arrays[lhs] != arrays[rhs]) }
    }
  }

  @Test func testIdentifiedArraySubscript() throws {
    struct Item: Identifiable, Equatable { let id: Int }
    var items: IdentifiedArrayOf<Item> = [Item(id: 1), Item(id: 2), Item(id: 3)]
    items[1] = Item(id: 4)
    #expect(items.count == 3)
    #expect(items.map(\.id) == [1, 4, 3])
    try items._checkInvariants()
  }

  @Test func testIdentifiedArrayComparatorSort() throws {
    struct Item: Identifiable { let id: Int }
    var items: IdentifiedArrayOf<Item> = [Item(id: 3), Item(id: 2), Item(id: 1)]
    items.sort(using: KeyPathComparator(\.id))
    #expect(items.map(\.id) == [1, 2, 3])
    try items._checkInvariants()
  }
}

// MARK: - Fixtures

/// An `Identifiable` number, written and printed as its id (upstream makes `Int` itself
/// `Identifiable`, which a test target should not do to a standard type).
struct Number: Identifiable, Hashable, Comparable, Codable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible, CustomDebugStringConvertible
{
  var id: Int
  init(integerLiteral value: Int) { id = value }
  init(from decoder: any Decoder) throws { id = try decoder.singleValueContainer().decode(Int.self) }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(id)
  }
  static func < (lhs: Self, rhs: Self) -> Bool { lhs.id < rhs.id }
  var description: String { "\(id)" }
  var debugDescription: String { "\(id)" }
}

extension IdentifiedArrayUpstreamTests {
  struct User: Identifiable, Equatable {
    let id: Int
    var name: String
  }

  struct Model: Identifiable, Equatable {
    let id: Int
    let data: String
  }
}
