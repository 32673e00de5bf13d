import Testing

@testable import ValueStore

/// `ChunkedArray`, the element storage of `IdentifiedArray`, against `Array` as its model: every
/// mutation kind, at every position, with copies (snapshots) kept alive across the mutations —
/// each copy must still equal the model's copy taken with it.
@Suite("ChunkedArray")
struct ChunkedArrayTests {
  /// A non-trivial element (a `String` is retained when copied), so a copy that shares or loses
  /// storage it should not shows.
  struct Item: Hashable {
    var value: Int
    var text: String
    init(_ value: Int) {
      self.value = value
      text = "item \(value)"
    }
  }

  @Test(arguments: [0x5A01, 0x5A02] as [UInt64])
  func everyMutationWithSnapshotsAliveMatchesArray(seed: UInt64) throws {
    var random = RelRandom(seed: seed)
    var array = ChunkedArray<Item>()
    var model: [Item] = []
    var snapshots: [(ChunkedArray<Item>, [Item])] = []
    var next = 0
    func item() -> Item {
      next += 1
      return Item(next)
    }
    for step in 0..<1_500 {
      let size = ChunkedArray<Item>.chunkSize
      let operation = model.isEmpty ? 0 : random.int(0...11)
      switch operation {
      case 0 where model.count > 6 * size, 1 where model.count > 6 * size:
        // Kept to a few chunks: a run removed from the middle.
        let lower = random.int(0...model.count - 1)
        let upper = min(model.count, lower + random.int(1...2 * size))
        array.removeSubrange(lower..<upper)
        model.removeSubrange(lower..<upper)
      case 0, 1:
        // Appends in runs, so arrays grow past several chunks.
        for _ in 0..<random.int(1...size + 3) {
          let new = item()
          array.append(new)
          model.append(new)
        }
      case 2:
        let offset = random.int(0...model.count)
        let new = item()
        array.insert(new, at: offset)
        model.insert(new, at: offset)
      case 3:
        let offset = random.int(0...model.count - 1)
        #expect(array.remove(at: offset) == model.remove(at: offset))
      case 4:
        #expect(array.removeLast() == model.removeLast())
      case 5:
        let offset = random.int(0...model.count - 1)
        let new = item()
        array[offset] = new
        model[offset] = new
      case 6:
        let offset = random.int(0...model.count - 1)
        array[offset].text += "!"
        model[offset].text += "!"
      case 7:
        // The in-place accessor's move: taken out, changed, put back.
        let offset = random.int(0...model.count - 1)
        var taken = array._take(at: offset)
        taken.value += 1_000_000
        array._restore(taken, at: offset)
        model[offset].value += 1_000_000
      case 8:
        let offset = random.int(0...model.count - 1)
        #expect(array._take(at: offset) == model[offset])
        array._restoreRemoved(at: offset)
        model.remove(at: offset)
      case 9:
        let (i, j) = (random.int(0...model.count - 1), random.int(0...model.count - 1))
        array.swapAt(i, j)
        model.swapAt(i, j)
      case 10:
        let lower = random.int(0...model.count)
        let upper = random.int(lower...min(model.count, lower + size + 2))
        let new = (0..<random.int(0...size + 2)).map { _ in item() }
        array.replaceSubrange(lower..<upper, with: new)
        model.replaceSubrange(lower..<upper, with: new)
      default:
        if random.chance(10) {
          array.removeAll(keepingCapacity: random.chance(50))
          model.removeAll()
        } else {
          snapshots.append((array, model))
          if snapshots.count > 6 { snapshots.removeFirst(random.int(1...3)) }
        }
      }
      try array._checkInvariants()
      #expect(Array(array) == model, "seed \(seed), step \(step), operation \(operation)")
      #expect(array.count == model.count && array.indices == model.indices)
      // The snapshots every 16 steps (each one is compared many times over its life).
      for (snapshot, expected) in snapshots where step % 16 == 0 {
        try snapshot._checkInvariants()
        #expect(Array(snapshot) == expected, "a snapshot changed: seed \(seed), step \(step), operation \(operation)")
      }
      if Array(array) != model { return }
    }
  }

  @Test func writingOneElementWithASnapshotAliveCopiesOneChunk() {
    var array = ChunkedArray((0..<1_000).map(Item.init))
    let snapshot = array
    array[500].text = "changed"
    array.append(Item(1_000))
    let shared = zip(array._chunkAddresses, snapshot._chunkAddresses).filter { $0 == $1 }.count
    // The written chunk and the last, if appended to, are copies; the others are shared.
    let lastIsFull = 1_000 % ChunkedArray<Item>.chunkSize == 0
    #expect(shared == snapshot._chunkCount - (lastIsFull ? 1 : 2))
    #expect(snapshot[500].text == "item 500" && snapshot.count == 1_000)
  }

  /// Pages hold chunkSize² elements (1,024; 4 under `VALUESTORE_INTERNAL_CHECKS`): each mutation
  /// at the offsets around page and chunk boundaries, with a snapshot alive.
  @Test func mutationsAtPageBoundariesMatchArray() throws {
    let size = ChunkedArray<Item>.chunkSize
    let page = size * size
    var array = ChunkedArray((0..<(2 * page + 3)).map(Item.init))
    var model = Array(array)
    let snapshot = (array, model)
    var next = 1_000_000
    for offset in [page - 1, page, page + 1, 2 * page - 1, 2 * page, size - 1, size] {
      next += 1
      array.insert(Item(next), at: offset)
      model.insert(Item(next), at: offset)
      #expect(array.remove(at: offset + 1) == model.remove(at: offset + 1))
      _ = array._take(at: offset)
      array._restoreRemoved(at: offset)
      model.remove(at: offset)
      array.swapAt(offset, array.count - 1)
      model.swapAt(offset, model.count - 1)
      array.replaceSubrange(offset..<offset + 2, with: [Item(next), Item(next + 1), Item(next + 2)])
      model.replaceSubrange(offset..<offset + 2, with: [Item(next), Item(next + 1), Item(next + 2)])
      try array._checkInvariants()
      #expect(Array(array) == model, "at \(offset)")
    }
    while array.count > page - 2 {
      #expect(array.removeLast() == model.removeLast())
      if array.count % size < 2 { try array._checkInvariants() }
    }
    #expect(Array(array) == model && Array(snapshot.0) == snapshot.1)
  }

  @Test func equalityAndHashingAreArrays() {
    let items = (0..<300).map(Item.init)
    var array = ChunkedArray(items)
    let copy = array
    #expect(array == copy && array == ChunkedArray(items))
    #expect(array.hashValue == items.hashValue)
    array[299].value = -1
    #expect(array != copy)
    #expect(ChunkedArray(items.dropLast()) != copy)
    #expect(ChunkedArray<Item>() == ChunkedArray<Item>())
  }

  @Test func iterationAndContiguousStorageSeeEveryElementInOrder() {
    for count in [0, 1, ChunkedArray<Item>.chunkSize, ChunkedArray<Item>.chunkSize + 1, 1_000] {
      let items = (0..<count).map(Item.init)
      let array = ChunkedArray(items)
      #expect(Array(array) == items)
      #expect(array.withUnsafeBufferPointer { Array($0) } == items)
      #expect(array.reversed() == items.reversed())
    }
  }
}

/// An `IdentifiedArray` spanning many chunks, each mutation kind made with snapshots alive: the
/// snapshots keep their elements, ids and index, and observers hear each change as before.
@Suite("IdentifiedArray with snapshots alive")
struct IdentifiedArraySnapshotTests {
  typealias Rows = IdentifiedArrayOf<Row>

  static let mutations: [(name: String, apply: @Sendable (inout Rows) -> Void)] = [
    ("element write by id", { $0[id: 150]?.count += 1 }),
    ("element write by offset", { $0[70].title = "x" }),
    ("element replaced", { $0[id: 3] = Row(id: 3, count: 9) }),
    ("append", { $0.append(Row(id: 1_000)) }),
    ("insert", { $0.insert(Row(id: 1_001), at: 65) }),
    ("remove by id", { $0.remove(id: 64) }),
    ("remove through the subscript", { $0[id: 130] = nil }),
    ("remove in place (`_modify` yields nil)", { rows in
      func clear(_ row: inout Row?) { row = nil }
      clear(&rows[id: 131])
    }),
    ("remove at offset", { $0.remove(at: 0) }),
    ("removeLast", { $0.removeLast() }),
    ("removeAll(where:)", { $0.removeAll { $0.id % 3 == 0 } }),
    ("move", { $0.move(fromOffsets: [1, 100], toOffset: 150) }),
    ("swapAt", { $0.swapAt(2, 190) }),
    ("sort", { $0.sort { $0.id > $1.id } }),
    ("replaceSubrange", { $0.replaceSubrange(60..<70, with: [Row(id: 2_000), Row(id: 2_001)]) }),
    ("removeSubrange", { $0.removeSubrange(10..<140) }),
  ]

  @Test(arguments: 0..<mutations.count)
  func aSnapshotKeepsItsElements(index: Int) throws {
    let mutation = Self.mutations[index]
    var rows = Rows(uniqueElements: (1...200).map { Row(id: $0) })
    let snapshot = rows
    let expected = (1...200).map { Row(id: $0) }
    mutation.apply(&rows)
    try rows._checkInvariants()
    try snapshot._checkInvariants()
    #expect(snapshot.map(\.id) == Array(1...200), "\(mutation.name)")
    #expect(snapshot.elementsEqual(expected) { $0.id == $1.id && $0.count == $1.count && $0.title == $1.title })
    #expect(rows != snapshot, "\(mutation.name)")
    // The same mutation on a fresh array, with no snapshot alive, gives the same array.
    var fresh = Rows(uniqueElements: expected)
    mutation.apply(&fresh)
    #expect(fresh.map(\.id) == rows.map(\.id) && fresh.map(\.count) == rows.map(\.count), "\(mutation.name)")
  }

  @Test func anObserverOfOneRowHearsItsWriteWithASnapshotAlive() {
    let root = ObservedRoot(ListState(rows: 200))
    let row = tracking { root.rows[id: 150]?.count }
    let structure = tracking { root.rows.count }
    let snapshot = root.currentValue
    root.mutate { $0.rows[id: 10]?.count += 1 }
    #expect(row.count == 0 && structure.count == 0)
    root.mutate { $0.rows[id: 150]?.count += 1 }
    #expect(row.count == 1 && structure.count == 0)
    root.mutate { $0.rows.append(Row(id: 1_000)) }
    #expect(row.count == 1 && structure.count == 1)
    #expect(snapshot.rows[id: 150]?.count == 0 && root.currentValue.rows[id: 150]?.count == 1)
  }
}
