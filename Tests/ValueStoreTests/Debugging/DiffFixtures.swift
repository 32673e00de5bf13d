@testable import ValueStore

/// An element of ``DiffDoc``: observable, `Equatable`, with a nested plain array.
struct DiffItem: ObservableState, Identifiable, Equatable {
  struct Fields: Identifiable, Equatable {
    let id: Int
    var count = 0
    var title = ""
    var tags: [Int] = []
  }
  var _$fields: Observed<Fields>

  init(id: Int, count: Int = 0, title: String = "", tags: [Int] = []) {
    _$fields = Observed(Fields(id: id, count: count, title: title, tags: tags))
  }

  /// An equal item that shares no storage with this one.
  var rebuilt: DiffItem { DiffItem(id: id, count: self.count, title: self.title, tags: Array(self.tags)) }
}

/// Not `Equatable`: a diff compares such elements by their dumps.
struct DiffPoint {
  var x: Int
  var label: String
}

/// A state with every kind of collection a diff pairs — an identified array of observable
/// elements, a plain array of `Equatable` values, one of non-`Equatable` values — for randomized
/// comparisons of equality and diffs against dumps.
struct DiffDoc: ObservableState, Equatable {
  struct Fields: Equatable {
    var name = ""
    var items: IdentifiedArrayOf<DiffItem> = []
    var numbers: [Int] = []
    var child: DiffItem?
    var points: [DiffPoint] = []

    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.name == rhs.name && lhs.items == rhs.items && lhs.numbers == rhs.numbers && lhs.child == rhs.child
        && String(customDumping: lhs.points) == String(customDumping: rhs.points)
    }
  }
  var _$fields: Observed<Fields>

  init(_ fields: Fields) { _$fields = Observed(fields) }

  /// An equal state that shares no storage with this one.
  var rebuilt: DiffDoc {
    DiffDoc(
      Fields(
        name: self.name, items: IdentifiedArray(uniqueElements: self.items.map(\.rebuilt)),
        numbers: Array(self.numbers), child: self.child?.rebuilt, points: Array(self.points)))
  }
}

/// Random ``DiffDoc``s and changes to them. Small domains, so that equal elements, equal runs and
/// equal values without shared storage are common.
struct DiffDocGenerator {
  var random: RelRandom
  private var nextID = 1_000

  init(seed: UInt64) { random = RelRandom(seed: seed) }

  mutating func doc() -> DiffDoc {
    let ids = Array(0..<random.int(0...40))
    return DiffDoc(
      DiffDoc.Fields(
        name: title(),
        items: IdentifiedArray(uniqueElements: ids.map { item(id: $0) }),
        numbers: (0..<random.int(0...40)).map { _ in random.int(0...2) },
        child: random.chance(50) ? item(id: 0) : nil,
        points: (0..<random.int(0...30)).map { _ in point() }))
  }

  /// One change, anywhere in `doc`.
  mutating func change(_ doc: inout DiffDoc) {
    switch random.int(0...9) {
    case 0: doc.name = title()
    case 1, 2, 3:
      guard !doc.items.isEmpty else { return doc.items.append(item(id: newID())) }
      let offset = random.int(0...doc.items.count - 1)
      switch random.int(0...2) {
      case 0: doc.items[offset].count = random.int(0...2)
      case 1: doc.items[offset].title = title()
      default: doc.items[offset].tags.append(random.int(0...2))
      }
    case 4: doc.items.insert(item(id: newID()), at: random.int(0...doc.items.count))
    case 5:
      guard !doc.items.isEmpty else { return }
      doc.items.remove(at: random.int(0...doc.items.count - 1))
    case 6:
      guard doc.items.count > 1 else { return }
      doc.items.swapAt(random.int(0...doc.items.count - 1), random.int(0...doc.items.count - 1))
    case 7:
      guard !doc.numbers.isEmpty, random.chance(70) else { return doc.numbers.insert(random.int(0...2), at: random.int(0...doc.numbers.count)) }
      let offset = random.int(0...doc.numbers.count - 1)
      if random.chance(50) { doc.numbers[offset] = random.int(0...2) } else { doc.numbers.remove(at: offset) }
    case 8:
      if doc.child == nil || random.chance(30) {
        doc.child = random.chance(50) ? item(id: 0) : nil
      } else {
        doc.child?.count += 1
      }
    default:
      guard !doc.points.isEmpty, random.chance(70) else { return doc.points.insert(point(), at: random.int(0...doc.points.count)) }
      let offset = random.int(0...doc.points.count - 1)
      if random.chance(50) { doc.points[offset].x = random.int(0...2) } else { doc.points.remove(at: offset) }
    }
  }

  /// Two states as tests compare them: a copy of one changed (sharing the storage it did not
  /// change), both changed from a common state, or an equal state rebuilt and changed.
  mutating func pair() -> (DiffDoc, DiffDoc) {
    let first = doc()
    var second = random.chance(30) ? first.rebuilt : first
    var changedFirst = first
    for _ in 0..<random.int(0...3) { change(&second) }
    if random.chance(30) { change(&changedFirst) }
    return (changedFirst, second)
  }

  private mutating func item(id: Int) -> DiffItem {
    DiffItem(id: id, count: random.int(0...2), title: title(), tags: (0..<random.int(0...3)).map { _ in random.int(0...2) })
  }

  private mutating func point() -> DiffPoint { DiffPoint(x: random.int(0...2), label: random.pick(["p", "q"])) }

  private mutating func title() -> String { random.pick(["", "a", "two\nlines"]) }

  private mutating func newID() -> Int {
    nextID += 1
    return nextID
  }
}
