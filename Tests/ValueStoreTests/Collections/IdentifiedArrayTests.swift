import Foundation
import Testing

@testable import ValueStore

@Suite("IdentifiedArray")
struct IdentifiedArrayTests {
  // MARK: Initialization and lookup

  @Test func emptyInitializers() throws {
    let todos = IdentifiedArrayOf<Todo>()
    let people = IdentifiedArray<String, Person>(id: \.email)
    #expect(todos.isEmpty && todos.ids.isEmpty && todos.startIndex == 0 && todos.endIndex == 0)
    #expect(people.isEmpty)
    var reserved = IdentifiedArrayOf<Todo>()
    reserved.reserveCapacity(100)
    #expect(reserved._elements.capacity >= 100 && reserved.isEmpty)
    try todos._checkInvariants()
    try people._checkInvariants()
  }

  @Test func uniqueElementsKeepOrderAndIndexIDs() throws {
    let array = todos(3, 1, 2)
    #expect(Array(array.ids) == [3, 1, 2])
    #expect(array.map(\.title) == ["t3", "t1", "t2"])
    #expect(Array(array.elements) == Array(array))
    #expect(array.withContiguousStorageIfAvailable { Array($0) } == Array(array))
    #expect(array.index(id: 1) == 1)
    #expect(array.index(id: 9) == nil)
    #expect(array.contains(id: 2))
    #expect(!array.contains(id: 9))
    #expect(array[id: 2]?.title == "t2")
    #expect(array[id: 9] == nil)
    #expect(array[2].id == 2)
    try array._checkInvariants()
  }

  @Test func keyPathIdentifiedElements() throws {
    var people = IdentifiedArray(
      uniqueElements: [Person(email: "a@x", name: "Ann"), Person(email: "b@x", name: "Bob")],
      id: \.email)
    people[id: "b@x"]?.name = "Bobby"
    #expect(people.map(\.name) == ["Ann", "Bobby"])
    #expect(Array(people.ids) == ["a@x", "b@x"])
    try people._checkInvariants()
  }

  @Test func arrayLiteral() throws {
    let array: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "a"), Todo(id: 2, title: "b")]
    #expect(Array(array.ids) == [1, 2])
    try array._checkInvariants()
  }

  @Test func invariantCheckDetectsCorruption() {
    var array = todos(1, 2)
    array._ids[0] = 5
    #expect(throws: (any Error).self) { try array._checkInvariants() }
  }

  // MARK: subscript(id:)

  @Test func setByIDReplacesInPlaceAppendsOrRemoves() throws {
    var array = todos(1, 2, 3)
    array[id: 2] = Todo(id: 2, title: "new")
    #expect(array.map(\.title) == ["t1", "new", "t3"])
    array[id: 4] = Todo(id: 4, title: "t4")
    #expect(Array(array.ids) == [1, 2, 3, 4])
    array[id: 1] = nil
    #expect(Array(array.ids) == [2, 3, 4])
    array[id: 9] = nil
    #expect(Array(array.ids) == [2, 3, 4])
    try array._checkInvariants()
  }

  @Test func modifyByIDMutatesPresentElementOnly() throws {
    var array = todos(1, 2, 3)
    array[id: 2]?.isDone = true
    array[id: 9]?.isDone = true
    #expect(array.map(\.isDone) == [false, true, false])
    #expect(Array(array.ids) == [1, 2, 3])
    try array._checkInvariants()
  }

  @Test(arguments: 0..<4)
  func modifyByIDToNilRemovesAndKeepsOrder(offset: Int) throws {
    var array = todos(10, 11, 12, 13)
    setToNil(&array[id: 10 + offset])
    #expect(Array(array.ids) == [10, 11, 12, 13].filter { $0 != 10 + offset })
    try array._checkInvariants()
  }

  @Test(arguments: 0..<4)
  func modifyInPlaceAtEveryOffsetKeepsOrder(offset: Int) throws {
    var array = todos(10, 11, 12, 13)
    array[id: 10 + offset]?.title = "by id"
    array[offset].isDone = true
    #expect(Array(array.ids) == [10, 11, 12, 13])
    #expect(array[offset] == Todo(id: 10 + offset, title: "by id", isDone: true))
    try array._checkInvariants()
  }

  @Test func modifyAbsentIDWithValueAppends() throws {
    var array = todos(1)
    assign(&array[id: 2], Todo(id: 2, title: "t2"))
    #expect(Array(array.ids) == [1, 2])
    try array._checkInvariants()
  }

  // MARK: Index subscript

  @Test func indexSubscriptGetSetModify() throws {
    var array = todos(1, 2, 3)
    array[1] = Todo(id: 2, title: "replaced")
    array[2].isDone.toggle()
    #expect(array.map(\.title) == ["t1", "replaced", "t3"])
    #expect(array.map(\.isDone) == [false, false, true])
    try array._checkInvariants()
  }

  @Test func sliceWritesKeepIDs() throws {
    var array = todos(1, 2, 3)
    array[1...][2].title = "via slice"
    array[0..<2] = array[0..<2]
    #expect(array.map(\.title) == ["t1", "t2", "via slice"])
    try array._checkInvariants()
  }

  /// Upstream's rule: the element set lands at the position; an element whose id was elsewhere
  /// comes from there (the one at the position takes its place), a new id removes the element
  /// at the position. (It trapped before issue 32.)
  @Test func settingAtIndexWithOtherIDMovesOrReplaces() throws {
    var array = todos(1, 2, 3)
    array[0] = Todo(id: 3, title: "three")
    #expect(Array(array.ids) == [3, 2, 1])
    #expect(array.map(\.title) == ["three", "t2", "t1"])
    try array._checkInvariants()
    array[1] = Todo(id: 9, title: "nine")
    #expect(Array(array.ids) == [3, 9, 1])
    #expect(array.index(id: 9) == 1 && !array.contains(id: 2))
    try array._checkInvariants()
    array[2] = Todo(id: 1, title: "one")
    #expect(array.map(\.title) == ["three", "nine", "one"])
    try array._checkInvariants()
  }

  @Test func sliceAlgorithmsWriteBackByPosition() throws {
    var array = todos(1, 2, 3, 4)
    array[0..<2].reverse()
    array[2...].sort { $0.id > $1.id }
    #expect(Array(array.ids) == [2, 1, 4, 3])
    try array._checkInvariants()
  }

  /// `append` and `insert` keep a present id's element whether called for their result, in a
  /// closure that returns `Void`, or through `RangeReplaceableCollection` (whose own versions
  /// would replace it).
  @Test func appendAndInsertMeanTheSameInEveryContext() throws {
    func appendGenerically<C: RangeReplaceableCollection>(_ collection: inout C, _ element: C.Element) {
      collection.append(element)
    }
    func insertGenerically<C: RangeReplaceableCollection>(_ collection: inout C, _ element: C.Element) {
      collection.insert(element, at: collection.startIndex)
    }
    let ways: [(String, (inout IdentifiedArrayOf<Todo>, Todo) -> Void)] = [
      ("statement", { array, todo in
        array.append(todo)
        array.insert(todo, at: 0)
      }),
      ("Void closure", { $0.append($1) }),
      ("Void closure, insert", { $0.insert($1, at: 0) }),
      ("generic", { appendGenerically(&$0, $1) }),
      ("generic, insert", { insertGenerically(&$0, $1) }),
    ]
    for (name, write) in ways {
      var array = todos(1, 2)
      write(&array, Todo(id: 1, title: "other"))
      #expect(array.map(\.title) == ["t1", "t2"], "\(name)")
      write(&array, Todo(id: 3, title: "t3"))
      #expect(Set(array.ids) == [1, 2, 3], "\(name)")
      try array._checkInvariants()
    }
  }

  // MARK: Updates

  @Test func updateOrAppendAndUpdateOrInsertKeepAPresentElementsPlace() throws {
    var array = todos(1, 2, 3)
    #expect(array.updateOrAppend(Todo(id: 2, title: "two"))?.title == "t2")
    #expect(array.updateOrInsert(Todo(id: 3, title: "three"), at: 0) == (Todo(id: 3, title: "t3"), 2))
    #expect(array.updateOrInsert(Todo(id: 0, title: "zero"), at: 1) == (nil, 1))
    #expect(array.updateOrAppend(Todo(id: 4, title: "four")) == nil)
    #expect(Array(array.ids) == [1, 0, 2, 3, 4])
    #expect(array.map(\.title) == ["t1", "zero", "two", "three", "four"])
    try array._checkInvariants()
  }

  // MARK: Range replacement

  @Test(arguments: [
    // (range, new ids, expected ids)
    (1..<3, [7, 8], [1, 7, 8, 4]),
    (0..<0, [9], [9, 1, 2, 3, 4]),
    (4..<4, [9], [1, 2, 3, 4, 9]),
    (0..<4, [], []),
    (0..<1, [9, 4], [9, 2, 3, 4]),  // 4 is outside the range: replaced where it is
    (0..<2, [2, 9], [2, 9, 3, 4]),  // 2 is inside: stored again in the block
    (1..<1, [5, 6, 5], [1, 6, 5, 2, 3, 4]),  // a repeated id lands where its last occurrence would
  ])
  func replaceSubrangeFollowsUpstream(range: Range<Int>, newIDs: [Int], expected: [Int]) throws {
    var array = todos(1, 2, 3, 4)
    array.replaceSubrange(range, with: newIDs.enumerated().map { Todo(id: $1, title: "new\($0)") })
    #expect(Array(array.ids) == expected)
    // Every new id holds the value of its first occurrence in the new elements.
    for id in Set(newIDs) {
      #expect(array[id: id]?.title == "new\(newIDs.firstIndex(of: id)!)")
    }
    try array._checkInvariants()
  }

  @Test func replaceSubrangeWithTheSameElementsChangesNothing() throws {
    var array = todos(1, 2, 3)
    let structure = tracking { _ = array.count }
    array.replaceSubrange(0..<2, with: Array(array[0..<2]))
    #expect(Array(array.ids) == [1, 2, 3])
    #expect(structure.count == 0)
    try array._checkInvariants()
  }

  // MARK: Removal of ends and ranges

  @Test func removeFirstLastPopLastAndSubranges() throws {
    var array = todos(1, 2, 3, 4, 5, 6, 7, 8)
    #expect(array.removeFirst().id == 1)
    #expect(array.removeLast().id == 8)
    #expect(array.popLast()?.id == 7)
    array.removeFirst(1)
    array.removeLast(1)
    #expect(Array(array.ids) == [3, 4, 5])
    array.removeSubrange(1...)
    #expect(Array(array.ids) == [3])
    array.removeSubrange(0..<0)
    array.removeFirst(0)
    #expect(array.popLast()?.id == 3)
    #expect(array.popLast() == nil)
    try array._checkInvariants()
    var more = todos(1, 2, 3, 4)
    more.removeSubrange(1..<3)
    #expect(Array(more.ids) == [1, 4])
    #expect(more.index(id: 4) == 1)
    try more._checkInvariants()
  }

  @Test func sortedReturnsAnIdentifiedArrayAndLeavesTheOriginal() throws {
    let array = todos(3, 1, 2)
    let sorted: IdentifiedArrayOf<Todo> = array.sorted { $0.id < $1.id }
    #expect(Array(sorted.ids) == [1, 2, 3])
    #expect(Array(array.ids) == [3, 1, 2])
    let plain: [Todo] = array.sorted { $0.id < $1.id }
    #expect(plain.map(\.id) == [1, 2, 3])
    #expect(Array(IdentifiedArray(uniqueElements: [2, 3, 1], id: \Int.self).sorted()) == [1, 2, 3])
    try sorted._checkInvariants()
  }

  // MARK: In-place mutation

  @Test func mutationByIDOrIndexDoesNotCopyStorage() throws {
    var array = IdentifiedArrayOf(uniqueElements: (0..<100_000).map { Counter(id: $0) })
    let elementsBase = array._elements._storageAddresses
    let historyBase = array[id: 50_000]?.history.withUnsafeBufferPointer { $0.baseAddress }

    array[id: 50_000]?.value += 1
    array[id: 50_000]?.history[0] += 1
    array[50_000].value += 1
    array[99_999].value += 1

    #expect(array._elements._storageAddresses == elementsBase)
    #expect(array[id: 50_000]?.history.withUnsafeBufferPointer { $0.baseAddress } == historyBase)
    #expect(array[id: 50_000]?.value == 2)
    #expect(array[id: 50_000]?.history == [1])
    #expect(array[99_999].value == 1)
  }

  @Test func mutationOfSharedStorageCopiesAndLeavesOriginal() throws {
    var array = todos(1, 2)
    let copy = array
    array[id: 1]?.title = "changed"
    array.append(Todo(id: 3, title: "t3"))
    #expect(copy.map(\.title) == ["t1", "t2"])
    #expect(array.map(\.title) == ["changed", "t2", "t3"])
    try copy._checkInvariants()
    try array._checkInvariants()
  }

  // MARK: Insertion

  @Test func appendReturnsInsertedAndIndex() throws {
    var array = todos(1, 2)
    let appended = array.append(Todo(id: 3, title: "t3"))
    let duplicate = array.append(Todo(id: 1, title: "other"))
    #expect(appended == (true, 2))
    #expect(duplicate == (false, 0))
    #expect(array.map(\.title) == ["t1", "t2", "t3"])
    try array._checkInvariants()
  }

  @Test func insertAtStartMiddleEndAndDuplicate() throws {
    var array = todos(2, 4)
    #expect(array.insert(Todo(id: 1, title: "t1"), at: 0) == (true, 0))
    #expect(array.insert(Todo(id: 3, title: "t3"), at: 2) == (true, 2))
    #expect(array.insert(Todo(id: 5, title: "t5"), at: 4) == (true, 4))
    #expect(array.insert(Todo(id: 4, title: "other"), at: 0) == (false, 3))
    #expect(Array(array.ids) == [1, 2, 3, 4, 5])
    #expect(array[id: 4]?.title == "t4")
    try array._checkInvariants()
  }

  // MARK: Removal

  @Test func removeByIDAndOffset() throws {
    var array = todos(1, 2, 3, 4, 5)
    #expect(array.remove(id: 3)?.title == "t3")
    #expect(array.remove(id: 3) == nil)
    #expect(array.remove(at: 0).id == 1)
    #expect(array.remove(at: array.count - 1).id == 5)
    #expect(Array(array.ids) == [2, 4])
    #expect(array.index(id: 4) == 1)
    try array._checkInvariants()
  }

  @Test func removeAllEmptiesAndCanKeepCapacity() throws {
    var array = todos(1, 2, 3)
    array.removeAll(keepingCapacity: true)
    #expect(array.isEmpty && !array.contains(id: 1))
    #expect(array._elements.capacity >= 3)
    try array._checkInvariants()
    array.append(Todo(id: 1, title: "again"))
    array.removeAll()
    #expect(array.isEmpty)
    try array._checkInvariants()
  }

  @Test(arguments: [
    ([Int](), [1, 2, 3, 4, 5, 6]),
    ([1, 2, 3, 4, 5, 6], []),
    ([1], [2, 3, 4, 5, 6]),
    ([6], [1, 2, 3, 4, 5]),
    ([2, 4, 6], [1, 3, 5]),
    ([2, 3, 5], [1, 4, 6]),
  ])
  func removeAllWhereKeepsOrder(removed: [Int], kept: [Int]) throws {
    var array = todos(1, 2, 3, 4, 5, 6)
    array.removeAll { removed.contains($0.id) }
    #expect(Array(array.ids) == kept)
    try array._checkInvariants()
  }

  @Test(arguments: [
    [Int](), [0], [5], [0, 5], [1, 2, 3], [0, 1, 2, 3, 4, 5], [1, 3, 5],
  ])
  func removeAtOffsetsKeepsTheOthersInOrder(offsets: [Int]) throws {
    var array = todos(1, 2, 3, 4, 5, 6)
    let expected = [1, 2, 3, 4, 5, 6].enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
    let structure = tracking { _ = array.count }
    array.remove(atOffsets: IndexSet(offsets))
    #expect(Array(array.ids) == expected)
    #expect(structure.count == (offsets.isEmpty ? 0 : 1), "one structure change")
    try array._checkInvariants()
  }

  @Test func throwingRemoveAllWhereLeavesArrayUnchanged() throws {
    struct Stop: Error {}
    var array = todos(1, 2, 3)
    #expect(throws: Stop.self) {
      try array.removeAll { todo in
        if todo.id == 3 { throw Stop() }
        return true
      }
    }
    #expect(Array(array.ids) == [1, 2, 3])
    try array._checkInvariants()
  }

  // MARK: Reordering

  @Test func moveMatchesKnownArrayResults() throws {
    let cases: [(source: IndexSet, destination: Int, expected: [Int])] = [
      ([0], 2, [1, 0, 2, 3]),
      ([3], 0, [3, 0, 1, 2]),
      ([1], 4, [0, 2, 3, 1]),
      ([1, 3], 0, [1, 3, 0, 2]),
      ([0, 2], 4, [1, 3, 0, 2]),
      ([1, 2], 2, [0, 1, 2, 3]),
      ([], 1, [0, 1, 2, 3]),
    ]
    for (source, destination, expected) in cases {
      var array = todos(0, 1, 2, 3)
      array.move(fromOffsets: source, toOffset: destination)
      #expect(Array(array.ids) == expected, "move \(Array(source)) to \(destination)")
      try array._checkInvariants()
    }
  }

  @Test(arguments: 0...5)
  func moveAgreesWithReferenceForEverySourceAndDestination(count: Int) throws {
    let original = Array(0..<count)
    for mask in 0..<(1 << count) {
      let source = IndexSet(original.filter { mask & (1 << $0) != 0 })
      for destination in 0...count {
        var array = IdentifiedArray(uniqueElements: original, id: \.self)
        let expected = referenceMove(original, fromOffsets: source, toOffset: destination)
        let changed = array._move(fromOffsets: source, toOffset: destination)
        #expect(Array(array) == expected, "move \(Array(source)) to \(destination)")
        #expect(changed == (expected != original))
        try array._checkInvariants()
      }
    }
  }

  @Test func sortByIsStableAndReportsChange() throws {
    var array = IdentifiedArrayOf(uniqueElements: [
      Todo(id: 1, title: "b"), Todo(id: 2, title: "a"), Todo(id: 3, title: "b"),
      Todo(id: 4, title: "a"), Todo(id: 5, title: "c"),
    ])
    #expect(array._sort { $0.title < $1.title })
    #expect(Array(array.ids) == [2, 4, 1, 3, 5])
    try array._checkInvariants()

    #expect(!array._sort { $0.title < $1.title })
    array.sort { $0.title > $1.title }
    #expect(Array(array.ids) == [5, 1, 3, 2, 4])
    try array._checkInvariants()
  }

  @Test func sortComparableElements() throws {
    var array = IdentifiedArray(uniqueElements: [3, 1, 4, 2], id: \.self)
    array.sort()
    #expect(Array(array) == [1, 2, 3, 4])
    #expect(array.index(id: 4) == 3)
    try array._checkInvariants()
  }

  @Test func throwingSortLeavesArrayUnchanged() throws {
    struct Stop: Error {}
    var array = todos(3, 1, 2)
    #expect(throws: Stop.self) {
      try array.sort { lhs, rhs in
        if lhs.id == 2 || rhs.id == 2 { throw Stop() }
        return lhs.id < rhs.id
      }
    }
    #expect(Array(array.ids) == [3, 1, 2])
    try array._checkInvariants()
  }

  @Test func swapAtAndSwapBasedAlgorithmsKeepIDs() throws {
    var array = todos(1, 2, 3, 4, 5)
    array.swapAt(0, 4)
    array.swapAt(2, 2)
    #expect(Array(array.ids) == [5, 2, 3, 4, 1])
    array.reverse()
    #expect(Array(array.ids) == [1, 4, 3, 2, 5])
    let pivot = array.partition { $0.id.isMultiple(of: 2) }
    #expect(Set(array.ids[..<pivot]) == [1, 3, 5])
    try array._checkInvariants()
  }

  @Test func filterReturnsIdentifiedArray() throws {
    let array = todos(1, 2, 3, 4)
    var even = array.filter { $0.id.isMultiple(of: 2) }
    #expect(Array(even.ids) == [2, 4])
    even[id: 2]?.title = "changed"
    #expect(array[id: 2]?.title == "t2")
    try even._checkInvariants()
  }

  // MARK: Value conformances

  @Test func equatableAndHashable() {
    let array = todos(1, 2)
    #expect(array == todos(1, 2))
    #expect(array != todos(2, 1))
    #expect(array != todos(1))
    #expect(array.hashValue == todos(1, 2).hashValue)
    #expect(Set([array, todos(1, 2), todos(2, 1)]).count == 2)
  }

  @Test func codableRoundTripEncodesAsArray() throws {
    var array = todos(2, 1)
    array[id: 1]?.isDone = true
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(array)
    #expect(data == (try encoder.encode(Array(array))))
    let decoded = try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: data)
    #expect(decoded == array)
    try decoded._checkInvariants()
  }

  @Test func decodingRejectsDuplicateIDs() throws {
    let json = Data(#"[{"id":1,"title":"a","isDone":false},{"id":1,"title":"b","isDone":true}]"#.utf8)
    do {
      _ = try JSONDecoder().decode(IdentifiedArrayOf<Todo>.self, from: json)
      Issue.record("decoding a duplicate id succeeded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription == "IdentifiedArray: duplicate id 1")
    }
  }

  @Test func sendableWhenElementsAre() {
    func requireSendable(_: some Sendable) {}
    requireSendable(todos(1))
  }

  // MARK: Description and reflection

  @Test func mirrorChildrenAreTheElementsUnlabelledAndADumpAddressesThemByID() {
    let mirror = Mirror(reflecting: todos(7, 3))
    #expect(mirror.displayStyle == .collection)
    #expect(mirror.children.map(\.label) == [nil, nil])
    #expect(mirror.children.map { ($0.value as? Todo)?.id } == [7, 3])
    #expect(String(customDumping: todos(7, 3)).contains("[id: 7]: "))
  }

  @Test func descriptionLooksLikeArray() {
    let array = IdentifiedArray(uniqueElements: ["x", "y"], id: \.self)
    #expect(array.description == #"["x", "y"]"#)
  }

  // MARK: Traps

  #if os(macOS) || os(Linux) || os(Windows)
    private static func standardError(_ result: ExitTest.Result?) -> String {
      String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func duplicateIDsTrapNamingTheID() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = IdentifiedArray(uniqueElements: [1, 3, 3], id: \.self)
      }
      #expect(Self.standardError(result).contains("IdentifiedArray: duplicate id 3"))
    }

    @Test func settingByIDWithOtherIDTraps() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var array = IdentifiedArray(uniqueElements: [1, 2], id: \.self)
        array[id: 1] = 5
      }
      #expect(
        Self.standardError(result).contains("IdentifiedArray: element id 5 does not match subscript id 1"))
    }

    @Test(.timeLimit(.minutes(1))) func updateAtWithOtherIDTraps() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var array = IdentifiedArray(uniqueElements: [1, 2], id: \.self)
        array.update(9, at: 1)
      }
      #expect(
        Self.standardError(result).contains("IdentifiedArray: element id changed from 2 to 9 at index 1"))
    }

    @Test(.timeLimit(.minutes(1))) func uniquingWithAnotherIDTraps() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = IdentifiedArray([1, 2, 1], id: \Int.self) { _, _ in 5 }
      }
      #expect(
        Self.standardError(result).contains("IdentifiedArray: element id changed from 1 to 5 at index 0"))
    }

    @Test(.timeLimit(.minutes(1))) func uncheckedUniqueElementsStillTrapOnADuplicate() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = IdentifiedArray(uncheckedUniqueElements: [1, 3, 3], id: \Int.self)
      }
      #expect(Self.standardError(result).contains("IdentifiedArray: duplicate id 3"))
    }

    @Test(.timeLimit(.minutes(1))) func removingFromAnEmptyArrayTraps() async {
      let first = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var array = IdentifiedArray<Int, Int>(id: \.self)
        array.removeFirst()
      }
      #expect(Self.standardError(first).contains("IdentifiedArray: removeFirst() on an empty array"))
      let last = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var array = IdentifiedArray<Int, Int>(id: \.self)
        array.removeLast()
      }
      #expect(Self.standardError(last).contains("IdentifiedArray: removeLast() on an empty array"))
      let many = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var array = IdentifiedArray(uniqueElements: [1], id: \Int.self)
        array.removeLast(2)
      }
      #expect(Self.standardError(many).contains("IdentifiedArray: cannot remove 2 elements of 1"))
    }

    @Test func changingIDInPlaceAtIndexTraps() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var array = IdentifiedArray(uniqueElements: [1, 2], id: \.self)
        array[0] += 10
      }
      #expect(
        Self.standardError(result).contains("IdentifiedArray: element id changed from 1 to 11 at index 0"))
    }

    @Test func changingIDInPlaceByIDTraps() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var array = IdentifiedArray(uniqueElements: [1, 2], id: \.self)
        array[id: 2]! += 1
      }
      #expect(
        Self.standardError(result).contains("IdentifiedArray: element id changed from 2 to 3 at index 1"))
    }
  #endif
}

// MARK: - Fixtures

extension IdentifiedArrayTests {
  struct Todo: Identifiable, Hashable, Codable, Sendable {
    let id: Int
    var title: String
    var isDone = false
  }

  struct Counter: Identifiable, Sendable {
    var id: Int
    var value = 0
    // Made at run time: a literal's storage can be a constant in an optimized build, which the
    // first write copies.
    var history: [Int] = Array(repeating: 0, count: 1)
  }

  struct Person: Hashable, Sendable {
    var email: String
    var name: String
  }

  /// Todos with the given ids, titled "t<id>".
  func todos(_ ids: Int...) -> IdentifiedArrayOf<Todo> {
    IdentifiedArrayOf(uniqueElements: ids.map { Todo(id: $0, title: "t\($0)") })
  }

  func setToNil<Value>(_ value: inout Value?) {
    value = nil
  }

  func assign<Value>(_ value: inout Value?, _ newValue: Value) {
    value = newValue
  }

  /// `move(fromOffsets:toOffset:)` as specified by SwiftUI, written independently: take the moved
  /// elements out, then insert them where `destination` lands among the remaining ones.
  func referenceMove<T>(_ array: [T], fromOffsets source: IndexSet, toOffset destination: Int) -> [T] {
    var remaining = array.indices.filter { !source.contains($0) }.map { array[$0] }
    remaining.insert(
      contentsOf: source.map { array[$0] },
      at: destination - source.count(in: 0..<destination))
    return remaining
  }
}
