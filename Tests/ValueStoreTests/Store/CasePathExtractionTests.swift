import Testing
@testable import ValueStore

/// Extraction without reflection, checked against reflection for every shape of enum and payload:
/// for each case path and each value of each case, `extract` must answer what `Mirror` answers.
@Suite(.timeLimit(.minutes(1))) struct CasePathExtractionTests {
  protocol Shape: Sendable {}
  struct Square: Shape, Equatable {}
  class Animal: @unchecked Sendable {}
  final class Dog: Animal, @unchecked Sendable {}

  enum Action: Sendable {
    case int(Int), otherInt(Int), string(String), child(Child), none, also
    case optional(Int?), shape(any Shape), any(Sendable), animal(Animal), nested(Nested)
    case pair((Int, String)), labeled(id: Int, name: String), array([Int]), empty(Void)
  }
  enum Nested: Sendable, Equatable { case leaf(Int), node(String), nothing }
  indirect enum Tree: Sendable { case leaf(Int), node(Tree), label(String), empty }
  enum Generic<T: Sendable>: Sendable { case value(T), other(T), nothing }
  enum Multi: Sendable { case a(UInt8), b(Bool), c(Int64), d }

  /// Compares the fast path with reflection on every value, and with the expected answer.
  static func check<Root, Value>(
    _ path: CasePath<Root, Value>, _ embed: @escaping @Sendable (Value) -> Root, in values: [Root],
    matches: [Bool], reflectionAgrees: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for (value, expected) in zip(values, matches) {
      let fast = path.extract(from: value)
      let reflected = CasePath<Root, Value>.reflect(value, embed)
      #expect((fast != nil) == expected, "\(value)", sourceLocation: sourceLocation)
      if reflectionAgrees { #expect((reflected != nil) == expected, "\(value)", sourceLocation: sourceLocation) }
      if let fast, let reflected { #expect("\(fast)" == "\(reflected)", sourceLocation: sourceLocation) }
    }
  }

  @Test func everyCaseShapeExtractsExactlyItsOwnValues() {
    let dog = Dog()
    let values: [Action] = [
      .int(7), .otherInt(7), .string("a long string that is not stored inline"), .child(Child(count: 4)),
      .none, .also, .optional(nil), .optional(3), .shape(Square()), .any(5), .animal(dog), .nested(.leaf(2)),
      .pair((1, "x")), .labeled(id: 1, name: "n"), .array([1, 2]), .empty(()),
    ]
    func matches(_ index: Int...) -> [Bool] { values.indices.map { index.contains($0) } }
    Self.check(CasePath(Action.int), Action.int, in: values, matches: matches(0))
    Self.check(CasePath(Action.otherInt), Action.otherInt, in: values, matches: matches(1))
    Self.check(CasePath(Action.string), Action.string, in: values, matches: matches(2))
    Self.check(CasePath(Action.child), Action.child, in: values, matches: matches(3))
    Self.check(CasePath(Action.optional), Action.optional, in: values, matches: matches(6, 7))
    Self.check(CasePath(Action.shape), Action.shape, in: values, matches: matches(8))
    Self.check(CasePath(Action.any), Action.any, in: values, matches: matches(9))
    Self.check(CasePath(Action.animal), Action.animal, in: values, matches: matches(10))
    Self.check(CasePath(Action.nested), Action.nested, in: values, matches: matches(11))
    Self.check(CasePath(Action.pair), Action.pair, in: values, matches: matches(12))
    Self.check(CasePath(Action.array), Action.array, in: values, matches: matches(14))
    #expect(CasePath(Action.child).extract(from: .child(Child(count: 4)))?.count == 4)
    #expect(CasePath(Action.animal).extract(from: .animal(dog)) === dog)
    #expect(CasePath(Action.string).extract(from: values[2]) == "a long string that is not stored inline")
  }

  @Test func indirectGenericAndMultiPayloadEnums() {
    let trees: [Tree] = [.leaf(1), .node(.leaf(2)), .label("x"), .empty]
    Self.check(CasePath(Tree.leaf), Tree.leaf, in: trees, matches: [true, false, false, false])
    Self.check(CasePath(Tree.label), Tree.label, in: trees, matches: [false, false, true, false])
    Self.check(CasePath(Tree.node), Tree.node, in: trees, matches: [false, true, false, false])
    #expect(CasePath(Tree.label).extract(from: .label("x")) == "x")
    if case .leaf(2)? = CasePath(Tree.node).extract(from: .node(.leaf(2))) {} else { Issue.record("indirect payload") }

    let generic: [Generic<String>] = [.value("a"), .other("b"), .nothing]
    Self.check(CasePath(Generic<String>.value), Generic<String>.value, in: generic, matches: [true, false, false])
    Self.check(CasePath(Generic<String>.other), Generic<String>.other, in: generic, matches: [false, true, false])
    let children: [Generic<Child>] = [.value(Child(count: 1)), .other(Child(count: 2)), .nothing]
    Self.check(CasePath(Generic<Child>.other), Generic<Child>.other, in: children, matches: [false, true, false])
    #expect(CasePath(Generic<Child>.other).extract(from: children[1])?.count == 2)

    let multi: [Multi] = [.a(200), .b(true), .c(-5), .d]
    Self.check(CasePath(Multi.a), Multi.a, in: multi, matches: [true, false, false, false])
    Self.check(CasePath(Multi.b), Multi.b, in: multi, matches: [false, true, false, false])
    Self.check(CasePath(Multi.c), Multi.c, in: multi, matches: [false, false, true, false])
    #expect(CasePath(Multi.a).extract(from: .a(200)) == 200)
    #expect(CasePath(Multi.c).extract(from: .c(-5)) == -5)
    // Extracting leaves the value intact (the payload is projected in a copy).
    let value = Multi.b(true)
    _ = CasePath(Multi.b).extract(from: value)
    if case .b(true) = value {} else { Issue.record("value changed") }
  }

  /// A payload the compiler knows is empty (a one-case enum, `Void`) makes no payload case for the
  /// runtime: such cases are numbered after the others (a child feature's one-action enum).
  @Test func emptyPayloadsAreNumberedWithTheCasesWithout() {
    enum One: Sendable { case increment }
    enum Parent: Sendable { case child(One), other(One), rows(Int), show, nothing(Void) }
    let values: [Parent] = [.child(.increment), .other(.increment), .rows(1), .show, .nothing(())]
    Self.check(CasePath(Parent.child), Parent.child, in: values, matches: [true, false, false, false, false])
    Self.check(CasePath(Parent.other), Parent.other, in: values, matches: [false, true, false, false, false])
    Self.check(CasePath(Parent.rows), Parent.rows, in: values, matches: [false, false, true, false, false])
    // A generic payload instantiated with an empty type is a payload case nonetheless: the
    // layout is not reproduced, and reflection answers.
    let generic: [Generic<One>] = [.value(.increment), .other(.increment), .nothing]
    Self.check(CasePath(Generic<One>.other), Generic<One>.other, in: generic, matches: [false, true, false])
  }

  /// Reflection never saw an optional as an enum (its display style is `.optional`).
  @Test func optionalsAreEnumsToo() {
    let values: [Int?] = [1, nil]
    Self.check(CasePath(Optional<Int>.some), Optional<Int>.some, in: values, matches: [true, false], reflectionAgrees: false)
    #expect(CasePath(Optional<Int>.some).extract(from: 1) == 1)
  }
}

/// Payload shapes found by a user's probe (helper run, issue 15): labels, functions, misuse.
@Suite(.timeLimit(.minutes(1))) struct CasePathShapeTests {
  enum Labeled: Sendable, Equatable { case q(x: Int), r(y: String), pair(x: Int, y: String), n }
  enum Collide: Sendable, Equatable { case a(Int), b(x: Int), n }
  enum Functions: Sendable { case run(@Sendable () -> Void), map(@Sendable (Int) -> Int), n }
  enum Generic<T: Sendable>: Sendable { case value(T), n }
  enum Plain: Sendable, Equatable, CasePathable { case idle, busy, note(String) }

  @Test func aLabeledPayloadIsItsUnlabeledType() {
    #expect(CasePath(Labeled.q).extract(from: .q(x: 5)) == 5)
    #expect(CasePath(Labeled.q).extract(from: .r(y: "s")) == nil)
    #expect(CasePath(Labeled.r).extract(from: .r(y: "s")) == "s")
    let pair = CasePath(Labeled.pair).extract(from: .pair(x: 1, y: "a"))
    #expect(pair?.0 == 1 && pair?.1 == "a")
    var value = Labeled.q(x: 1)
    CasePath(Labeled.q).modify(&value) { $0 += 1 }
    #expect(value == .q(x: 2))
    #expect("\(CasePath(Labeled.q))" == "CasePathShapeTests.Labeled.q")
  }

  @Test func labeledAndUnlabeledCasesOfOneTypeAreTwoCases() {
    #expect(CasePath(Collide.a).extract(from: .a(1)) == 1)
    #expect(CasePath(Collide.a).extract(from: .b(x: 2)) == nil)
    #expect(CasePath(Collide.b).extract(from: .a(1)) == nil)
    #expect(CasePath(Collide.b).extract(from: .b(x: 2)) == 2)
    var value = Collide.a(1)
    #expect(CasePath(Collide.b).modify(&value) { $0 += 10 } == nil)
    #expect(value == .a(1))
  }

  @Test func functionPayloadsReadableAsGenericValuesAreExtracted() {
    final class Counter: @unchecked Sendable { var count = 0 }
    let counter = Counter()
    CasePath(Functions.run).extract(from: .run({ counter.count += 1 }))?()
    #expect(counter.count == 1)
    #expect(CasePath(Functions.map).extract(from: .n) == nil)  // another case: no need to read it
    #expect(CasePath(Generic<@Sendable (Int) -> Int>.value).extract(from: .value({ $0 * 2 }))?(21) == 42)
    let increment: (@Sendable (Int) -> Int)? = { $0 + 1 }
    #expect(CasePath(Optional<@Sendable (Int) -> Int>.some).extract(from: increment)?(1) == 2)
  }

  @Test func aFunctionPayloadOfANonGenericEnumStopsWithAMessage() async {
    await #expect(processExitsWith: .failure) {
      _ = CasePath(Functions.map).extract(from: .map({ $0 * 2 }))
    }
  }

  @Test func payloadLessCasesAreComparedByCase() {
    #expect(Plain.idle.is(.idle))
    #expect(!Plain.idle.is(.busy))
    #expect(Plain.note("a").is(Plain.note))
  }
}
