import Testing
@testable import ValueStore

/// Random sequences of changes to a shared collection — through the root, through an element's
/// projection, through a projection of a projection; removals and re-insertions — checked against a
/// model: an element's readers hear a change exactly when its value changed, a field's exactly when
/// the field did, the collection's on every change (a write, as a field's in-place write).
@Suite(.timeLimit(.minutes(1)))
struct SharedRandomTests {
  struct Item: Identifiable, Equatable, Sendable {
    let id: Int
    var count = 0
    var title = "a"
  }

  enum Step: CustomStringConvertible {
    case rootCount(Int, Int), rootTitle(Int, String), itemCount(Int, Int), nestedCount(Int, Int)
    case remove(Int), insert(Int), touch(Int)
    var description: String {
      switch self {
      case let .rootCount(id, by): "rows[id: \(id)].count += \(by)"
      case let .rootTitle(id, title): "rows[id: \(id)].title = \(title)"
      case let .itemCount(id, value): "item(\(id)).count = \(value)"
      case let .nestedCount(id, value): "count(\(id)) = \(value)"
      case let .remove(id): "remove \(id)"
      case let .insert(id): "insert \(id)"
      case let .touch(id): "item(\(id)) written unchanged"
      }
    }
  }

  static let ids = 0..<4

  @Test(arguments: 0..<200)
  func projectionsHearExactlyTheirChanges(seed: Int) {
    var random = RelRandom(seed: RelRandom.sequenceSeed(base: 0x5A4E, index: seed))
    let rows = Shared(value: IdentifiedArray(uniqueElements: Self.ids.map { Item(id: $0) }))
    let items = Self.ids.map { Shared(rows[id: $0])! }
    let counts = items.map { $0.count }
    var model = Dictionary(uniqueKeysWithValues: Self.ids.map { ($0, Item(id: $0)) })
    var last = model  // what a projection of a removed element reads

    let fired = LockIsolated<Set<String>>([])
    func arm(_ name: String, _ read: @escaping () -> Void) {
      withTracking { read() } onChange: { _ in fired.withValue { _ = $0.insert(name) } }
    }
    arm("rows") { _ = rows.wrappedValue }
    for id in Self.ids {
      arm("item\(id)") { _ = items[id].wrappedValue }
      arm("count\(id)") { _ = counts[id].wrappedValue }
    }

    var steps: [Step] = []
    for _ in 0..<30 {
      let id = random.int(0...Self.ids.count - 1)
      let step: Step
      switch random.int(0...6) {
      case 0: step = .rootCount(id, random.int(0...1))
      case 1: step = .rootTitle(id, random.pick(["a", "b"]))
      case 2: step = .itemCount(id, random.int(0...2))
      case 3: step = .nestedCount(id, random.int(0...2))
      case 4: step = .remove(id)
      case 5: step = .insert(id)
      default: step = .touch(id)
      }
      steps.append(step)
      let before = Self.ids.map { model[$0] ?? last[$0]! }
      switch step {
      case let .rootCount(id, by):
        rows.withLock { $0[id: id]?.count += by }
        model[id]?.count += by
      case let .rootTitle(id, title):
        rows.withLock { $0[id: id]?.title = title }
        model[id]?.title = title
      case let .itemCount(id, value):
        items[id].withLock { $0.count = value }
        model[id]?.count = value
      case let .nestedCount(id, value):
        counts[id].withLock { $0 = value }
        model[id]?.count = value
      case let .remove(id):
        rows.withLock { _ = $0.remove(id: id) }
        model[id] = nil
      case let .insert(id):
        rows.withLock { if $0[id: id] == nil { $0.append(Item(id: id, count: 5)) } }
        if model[id] == nil { model[id] = Item(id: id, count: 5) }
      case let .touch(id):
        items[id].withLock { $0 = $0 }
      }
      for (id, item) in model { last[id] = item }
      let after = Self.ids.map { model[$0] ?? last[$0]! }

      var expected: Set<String> = ["rows"]
      for id in Self.ids {
        if before[id] != after[id] { expected.insert("item\(id)") }
        if before[id].count != after[id].count { expected.insert("count\(id)") }
      }
      let heard = fired.withValue { heard in defer { heard = [] }; return heard }
      #expect(heard == expected, "seed \(seed), after \(steps)")
      guard heard == expected else { return }
      #expect(Self.ids.allSatisfy { items[$0].wrappedValue == after[$0] }, "seed \(seed), after \(steps)")
      for name in heard {
        if name == "rows" { arm(name) { _ = rows.wrappedValue }; continue }
        let id = Int(String(name.last!))!
        if name.hasPrefix("item") { arm(name) { _ = items[id].wrappedValue } }
        else { arm(name) { _ = counts[id].wrappedValue } }
      }
    }
  }
}
