/// A place's registrations (see ``Subscribers``), in order, indexed by key once there are many: a
/// change must find its field's readers without scanning the others' (10,000 row stores reading
/// `rows` must not slow a change of `total`). Small tables are scanned (faster than hashing); from
/// `indexThreshold` on, positions are indexed by key, kept on append and rebuilt on the lookup after
/// a removal (rare and batched). Requires the registry lock.
struct RegistrationTable: Sequence {
  private(set) var all: [Registration] = []
  /// Positions by key and the (observer, key) pairs present; meaningful only while `isIndexed`.
  private(set) var positions: [FieldKey: [Int]] = [:]
  private(set) var pairs: Set<Pair> = []
  private(set) var isIndexed = false

  struct Pair: Hashable {
    let observer: ObjectIdentifier
    let key: FieldKey
  }

  static let indexThreshold = 16

  var isEmpty: Bool { all.isEmpty }
  var count: Int { all.count }
  func makeIterator() -> IndexingIterator<[Registration]> { all.makeIterator() }

  mutating func append(_ registration: Registration) {
    all.append(registration)
    if isIndexed {
      positions[registration.key, default: []].append(all.count - 1)
      pairs.insert(Pair(observer: ObjectIdentifier(registration.observer), key: registration.key))
    }
  }

  mutating func removeAll(where shouldBeRemoved: (Registration) -> Bool) {
    all.removeAll(where: shouldBeRemoved)
    dropIndex()
  }

  mutating func contains(_ observer: Observer, key: FieldKey) -> Bool {
    guard index() else { return all.contains { $0.observer === observer && $0.key == key } }
    return pairs.contains(Pair(observer: ObjectIdentifier(observer), key: key))
  }

  /// The active observers whose key matches one of `changes` (see `Array.matching`).
  mutating func matching(_ changes: [Change]) -> [Delivery] {
    guard index(), !changes.contains(where: { $0.key == .any }) else { return all.matching(changes) }
    // Each matched position with the first change it matches, as the scan would find it.
    var matched: [(position: Int, change: Int)] = []
    if let any = positions[.any] { matched += any.map { ($0, 0) } }
    for (index, change) in changes.enumerated() {
      if let keyed = positions[change.key] { matched += keyed.map { ($0, index) } }
    }
    matched.sort { ($0.position, $0.change) < ($1.position, $1.change) }
    var result: [Delivery] = []
    var previous = -1
    for (position, change) in matched where position != previous {
      previous = position
      let registration = all[position]
      guard registration.observer.isActive else { continue }
      result.append(Delivery(observer: registration.observer, keyPath: registration.keyPath ?? changes[change].keyPath))
    }
    return result
  }

  /// Makes the index if the table is large enough to use it; whether it is.
  private mutating func index() -> Bool {
    guard all.count >= Self.indexThreshold else { return false }
    if !isIndexed {
      positions = [:]
      pairs = []
      for (position, registration) in all.enumerated() {
        positions[registration.key, default: []].append(position)
        pairs.insert(Pair(observer: ObjectIdentifier(registration.observer), key: registration.key))
      }
      isIndexed = true
    }
    return true
  }

  private mutating func dropIndex() {
    guard isIndexed else { return }
    isIndexed = false
    positions = [:]
    pairs = []
  }
}
