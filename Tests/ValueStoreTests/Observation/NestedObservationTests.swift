import Foundation
import Observation
import Testing
@testable import ValueStore

/// `withObservationTracking` closures nested in one another, over a holder, side by side with the
/// same shape over Apple's `@Observable`: every closure is called exactly as often as its
/// `@Observable` twin. Generated shapes: an outer closure reads some fields, runs an inner one
/// (itself perhaps holding a third), reads more, perhaps writes a field before it ends; then a
/// few writes on the same thread.
@Suite(.timeLimit(.minutes(1))) struct NestedObservationTests {
  enum Field: CaseIterable, CustomStringConvertible {
    case count, name, childCount
    var description: String {
      switch self {
      case .count: "count"
      case .name: "name"
      case .childCount: "child.count"
      }
    }
  }

  /// The closures of one shape, outermost first, each with what it reads before and after the
  /// one nested in it; `writeInside` is written by the outermost after its nested closure.
  struct Shape: CustomStringConvertible {
    var levels: [(before: [Field], after: [Field])]
    var writeInside: Field?
    var writes: [Field]

    var description: String {
      let closures = levels.map { "[\($0.before) … \($0.after)]" }.joined(separator: " ⊃ ")
      return "\(closures), write inside: \(writeInside.map(\.description) ?? "none"), then \(writes)"
    }

    static func random(_ random: inout RelRandom) -> Shape {
      func fields() -> [Field] { Field.allCases.filter { _ in random.int(0...2) == 0 } }
      let levels = (0..<random.int(2...3)).map { _ in (fields(), fields()) }
      let writeInside = random.int(0...2) == 0 ? random.pick(Field.allCases) : nil
      let writes = (0..<random.int(1...4)).map { _ in random.pick(Field.allCases) }
      return Shape(levels: levels, writeInside: writeInside, writes: writes)
    }
  }

  /// Runs `shape` over reads and writes of one model; returns each closure's calls.
  static func run(_ shape: Shape, read: @escaping (Field) -> Void, write: @escaping (Field) -> Void) -> [Int] {
    let counters = shape.levels.map { _ in FireCounter() }
    func level(_ index: Int) {
      guard index < shape.levels.count else { return }
      withObservationTracking {
        shape.levels[index].before.forEach(read)
        level(index + 1)
        shape.levels[index].after.forEach(read)
        if index == 0, let field = shape.writeInside { write(field) }
      } onChange: { counters[index].tick() }
    }
    level(0)
    shape.writes.forEach(write)
    return counters.map(\.count)
  }

  /// Two closures, one nested in the other, each told of the first change of what it read —
  /// whichever of their keys changes first.
  @Test(arguments: [false, true])
  func nestedClosuresAreEachToldOnce(outerKeyFirst: Bool) {
    let root = ObservedRoot(BridgeState())
    let (outer, inner) = (FireCounter(), FireCounter())
    withObservationTracking {
      _ = root.count
      withObservationTracking { _ = root.name } onChange: { inner.tick() }
    } onChange: {
      outer.tick()
    }
    if outerKeyFirst { root.mutate { $0.count += 1 } }
    root.mutate { $0.name += "x" }
    root.mutate { $0.count += 1 }
    #expect(inner.count == 1)
    #expect(outer.count == 1)
  }

  /// Runs `count` shapes made from `seed` over a subject made for each (its reads and writes),
  /// and over an `@Observable` twin; stops at the first that differs.
  static func compare(
    seed: UInt64, count: Int,
    subject: () -> (read: (Field) -> Void, write: (Field) -> Void)
  ) {
    var random = RelRandom(seed: seed)
    for index in 0..<count {
      let shape = Shape.random(&random)
      let model = NestedModel()
      let expected = run(shape, read: model.read, write: model.write)
      let (read, write) = subject()
      let actual = run(shape, read: read, write: write)
      #expect(actual == expected, "shape \(index): \(shape)")
      if actual != expected { return }
    }
  }

  /// A field of `BridgeState` changed in place.
  static func edit(_ state: inout BridgeState, _ field: Field) {
    switch field {
    case .count: state.count += 1
    case .name: state.name += "x"
    case .childCount: state.child.count += 1
    }
  }

  @Test func everyNestedClosureIsCalledAsItsObservableTwinIs() {
    Self.compare(seed: 0x4E57, count: 3_000) {
      let root = ObservedRoot(BridgeState())
      return (
        { field in
          switch field {
          case .count: _ = root.count
          case .name: _ = root.name
          case .childCount: _ = root.child.count
          }
        },
        { field in root.mutate { Self.edit(&$0, field) } }
      )
    }
  }

  /// The same, while Observation hashes the key paths of records waiting for reuse before every
  /// read and write (as the tables of a registration it kept do when they grow: B46).
  @Test func everyNestedClosureIsCalledAsItsTwinIsWhileKeptKeyPathsAreHashed() {
    Self.compare(seed: 0x4E59, count: 1_000) {
      let root = ObservedRoot(BridgeState())
      let recorder = ThreadContext.current.appleRecorder
      func hashPooled() { for keyPath in recorder.pooledKeyPaths { _ = Set([keyPath]) } }
      return (
        { field in
          hashPooled()
          switch field {
          case .count: _ = root.count
          case .name: _ = root.name
          case .childCount: _ = root.child.count
          }
        },
        { field in
          hashPooled()
          root.mutate { Self.edit(&$0, field) }
        }
      )
    }
  }

  @MainActor @Test func everyNestedClosureOverAStoreIsCalledAsItsObservableTwinIs() {
    Self.compare(seed: 0x4E58, count: 1_000) {
      let store = Store(initialState: BridgeState(), reducer: BridgeFeature())
      return (
        { field in
          switch field {
          case .count: _ = store.count
          case .name: _ = store.name
          case .childCount: _ = store.child.count
          }
        },
        { field in store.send(.edit { Self.edit(&$0, field) }) }
      )
    }
  }
}

@Observable final class NestedModel: @unchecked Sendable {
  @Observable final class Child: @unchecked Sendable { var count = 0 }
  var count = 0
  var name = ""
  let child = Child()

  func read(_ field: NestedObservationTests.Field) {
    switch field {
    case .count: _ = count
    case .name: _ = name
    case .childCount: _ = child.count
    }
  }

  /// Writes without reading the field (a read inside an Observation closure would be recorded;
  /// a holder's mutation records none).
  @ObservationIgnored private var written = 0
  func write(_ field: NestedObservationTests.Field) {
    written += 1
    switch field {
    case .count: count = written
    case .name: name = "\(written)"
    case .childCount: child.count = written
    }
  }
}
