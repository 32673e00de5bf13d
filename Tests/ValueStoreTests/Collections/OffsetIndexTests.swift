import Foundation
import Testing

@testable import ValueStore

/// `OffsetIndex`, the id → offset table of `IdentifiedArray`, through the mutations of the array
/// that move ids, against an `Array` of ids as the model, with snapshots alive: after each step
/// the table's invariants hold, every id is found at its offset and absent ids are not found.
/// Ids whose hashes collide in a few values make long probe runs that wrap around the table, so
/// removal's backward shift and the offset shifts meet every cluster shape. (Where the runs start
/// depends on the process's hash seed: to replay a failure, run with
/// `SWIFT_DETERMINISTIC_HASHING=1`.)
@Suite("OffsetIndex")
struct OffsetIndexTests {
  /// An id with a chosen number of distinct hashes (`buckets`): every id with the same
  /// `value % buckets` hashes alike.
  struct Key: Hashable, CustomStringConvertible {
    let value: Int
    let buckets: Int
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value % buckets) }
    var description: String { "\(value)" }
  }

  struct Entry: Identifiable {
    let id: Key
    var payload: Int
  }

  typealias Entries = IdentifiedArray<Key, Entry>

  @Test(arguments: [(0x0F01, 5), (0x0F02, 64), (0x0F03, Int.max)] as [(UInt64, Int)])
  func everyMutationKeepsEveryIDAtItsOffset(seed: UInt64, buckets: Int) throws {
    var random = RelRandom(seed: seed)
    var array = Entries()
    var model: [Int] = []
    var snapshots: [(Entries, [Int])] = []
    var next = 0
    func key(_ value: Int) -> Key { Key(value: value, buckets: buckets) }
    func newValue() -> Int {
      next += 1
      return next
    }
    func anyValue() -> Int { model.isEmpty || random.chance(50) ? newValue() : random.pick(model) }
    for step in 0..<1_200 {
      let operation = model.isEmpty ? 0 : random.int(0...18)
      switch operation {
      case 0, 1:
        for _ in 0..<random.int(1...12) {
          let value = anyValue()
          let result = array.append(Entry(id: key(value), payload: step))
          #expect(result.inserted == !model.contains(value))
          if result.inserted { model.append(value) }
        }
      case 2:
        let value = anyValue()
        let offset = random.int(0...model.count)
        let result = array.insert(Entry(id: key(value), payload: step), at: offset)
        if result.inserted { model.insert(value, at: offset) }
        #expect(result.index == model.firstIndex(of: value))
      case 3:
        let value = random.pick(model)
        #expect(array.remove(id: key(value))?.id.value == value)
        model.removeAll { $0 == value }
      case 4:
        let offset = random.int(0...model.count - 1)
        #expect(array.remove(at: offset).id.value == model.remove(at: offset))
      case 5:
        #expect(array.removeLast().id.value == model.removeLast())
      case 6:
        let (i, j) = (random.int(0...model.count - 1), random.int(0...model.count - 1))
        array.swapAt(i, j)
        model.swapAt(i, j)
      case 7:
        let offsets = IndexSet((0..<random.int(1...3)).map { _ in random.int(0...model.count - 1) })
        let destination = random.int(0...model.count)
        array.move(fromOffsets: offsets, toOffset: destination)
        let moved = offsets.map { model[$0] }
        let before = model[..<destination].enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
        let after = model[destination...].enumerated().filter { !offsets.contains($0.offset + destination) }.map(\.element)
        model = before + moved + after
      case 8:
        let lower = random.int(0...model.count - 1)
        let upper = min(model.count, lower + random.int(1...8))
        array.removeSubrange(lower..<upper)
        model.removeSubrange(lower..<upper)
      case 9:
        // An element with a new id set at an offset takes it; the old one leaves.
        let offset = random.int(0...model.count - 1)
        let value = newValue()
        array[offset] = Entry(id: key(value), payload: step)
        model[offset] = value
      case 10:
        array.removeAll { $0.id.value % 5 == step % 5 }
        model.removeAll { $0 % 5 == step % 5 }
      case 11:
        array.sort { $0.id.value > $1.id.value }
        model.sort(by: >)
      case 13:
        // An element with an id present elsewhere set at an offset: the two change places.
        let (offset, other) = (random.int(0...model.count - 1), random.int(0...model.count - 1))
        array[offset] = Entry(id: key(model[other]), payload: step)
        model.swapAt(offset, other)
      case 14:
        let lower = random.int(0...model.count)
        let upper = random.int(lower...min(model.count, lower + 6))
        let new = (0..<random.int(0...6)).map { _ in newValue() }
        array.replaceSubrange(lower..<upper, with: new.map { Entry(id: key($0), payload: step) })
        model.replaceSubrange(lower..<upper, with: new)
      case 15:
        let offsets = IndexSet((0..<random.int(1...4)).map { _ in random.int(0...model.count - 1) })
        array.remove(atOffsets: offsets)
        model = model.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
      case 16:
        let k = random.int(0...min(model.count, 5))
        if random.chance(50) {
          array.removeLast(k)
          model.removeLast(k)
        } else {
          array.removeFirst(k)
          model.removeFirst(k)
        }
      case 17:
        array.reverse()
        model.reverse()
      case 12:
        if random.chance(5) {
          let keep = random.chance(50)
          array.removeAll(keepingCapacity: keep)
          model.removeAll()
        } else {
          array.reserveCapacity(model.count + random.int(0...40))
        }
      default:
        snapshots.append((array, model))
        if snapshots.count > 5 { snapshots.removeFirst(random.int(1...3)) }
      }
      try check(array, model, buckets: buckets, "seed \(seed), step \(step), operation \(operation)")
      for (snapshot, expected) in snapshots where step % 8 == 0 {
        try check(snapshot, expected, buckets: buckets, "a snapshot, seed \(seed), step \(step)")
      }
      if array.ids.map(\.value) != model { return }
    }
  }

  func check(_ array: Entries, _ model: [Int], buckets: Int, _ context: String) throws {
    try array._checkInvariants()
    #expect(array.ids.map(\.value) == model, "\(context)")
    for (offset, value) in model.enumerated() {
      #expect(array.index(id: Key(value: value, buckets: buckets)) == offset, "\(context)")
    }
    #expect(array.index(id: Key(value: -1, buckets: buckets)) == nil, "\(context)")
  }

  /// Appending to an index a snapshot shares copies the path to one slot: every other chunk of
  /// slots stays shared.
  @Test func appendingWithASnapshotAliveSharesTheOtherSlots() {
    func entry(_ value: Int) -> Entry { Entry(id: Key(value: value, buckets: .max), payload: 0) }
    var rows = Entries(uniqueElements: (1...1_000).map(entry))
    let snapshot = rows
    rows.append(entry(1_001))
    let before = Set(snapshot._index._slots._storageAddresses)
    let after = rows._index._slots._storageAddresses
    let copied = after.filter { !before.contains($0) }
    // The list of chunks and the chunk the new id lands in.
    #expect(copied.count <= 2, "copied \(copied.count) of \(after.count) buffers")
    let new = Key(value: 1_001, buckets: .max)
    #expect(snapshot._offset(of: new) == nil && rows._offset(of: new) == 1_000)
  }
}
