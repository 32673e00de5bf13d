import Testing
@testable import ValueStore

/// An enum with observable payloads is observed by identity whether or not it conforms to
/// `ObservationIdentifiable` (a destination or path enum as TCA users write it): every scenario runs
/// on `Mode` (hand-written conformance) and `PlainMode` (none), and must behave the same, in every
/// place an enum lives — a field, an optional field, a stack, an identified array, an enum payload.
@Suite struct ReflectedEnumTests {
  /// `Mode` without a conformance.
  enum PlainMode: Equatable, Sendable, ModeShape {
    case idle
    case editing(Child)
    case note(String)
    case other(Child)

    var payload: Child? {
      switch self {
      case let .editing(child), let .other(child): child
      case .idle, .note: nil
      }
    }
    mutating func modifyPayload(_ body: (inout Child) -> Void) {
      switch self {
      case var .editing(child):
        body(&child)
        self = .editing(child)
      case var .other(child):
        body(&child)
        self = .other(child)
      case .idle, .note: break
      }
    }
    var moved: Self { payload.map(Self.other) ?? self }
  }

  struct Holder<M: ModeShape>: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var mode = M.idle
      var maybe: M?
      var child = Child()
      var stack = StackState<M>()
    }
    var _$fields = Observed(Fields())
  }

  /// A write to a location holding a mode, and who must hear it.
  struct Scenario {
    let name: String
    let initial: (Child) -> Any
    let write: (inout Any) -> Void
    /// Readers of the location (the field, the element) hear it.
    let location: Bool
    /// Readers of the payload's `count` hear it.
    let payloadCount: Bool
  }

  static func scenarios<M: ModeShape>(_: M.Type) -> [(String, M, (inout M) -> Void, Bool, Bool)] {
    [
      ("unchanged case", .idle, { $0 = .idle }, false, false),
      ("case change", .idle, { $0 = .editing(Child()) }, true, false),
      ("to a payload-less case", .editing(Child()), { $0 = .idle }, true, true),
      ("new payload", .editing(Child()), { $0 = .editing(Child()) }, true, true),
      ("payload in place", .editing(Child()), { $0.modifyPayload { $0.count += 1 } }, false, true),
      ("payload title in place", .editing(Child()), { $0.modifyPayload { $0.title = "t" } }, false, false),
      ("payload moved to another case", .editing(Child()), { $0 = $0.moved }, true, true),
      ("plain payload changed", .note("a"), { $0 = .note("b") }, true, false),
      ("plain payload rewritten equal", .note("a"), { $0 = .note("a") }, false, false),
    ]
  }

  static let shapes: [any ModeShape.Type] = [Mode.self, PlainMode.self]

  @Test(arguments: 0..<2) func aField(shape: Int) {
    func run<M: ModeShape>(_: M.Type) {
      for (name, initial, write, location, payloadCount) in Self.scenarios(M.self) {
        for inPlace in [false, true] {
          var state = Holder<M>()
          state.mode = initial
          let root = ObservedRoot(state)
          let field = tracking { root.mode }
          let count = tracking { root.read { $0.mode.payload?.count } }
          root.mutate {
            if inPlace {
              write(&$0.mode)
            } else {
              var mode = $0.mode
              write(&mode)
              $0.mode = mode
            }
          }
          let label = "\(M.self): \(name), in place: \(inPlace)"
          #expect(field.count == (location ? 1 : 0), "\(label): field")
          #expect(count.count == (location || payloadCount ? 1 : 0), "\(label): payload count")
        }
      }
    }
    _openExistential(Self.shapes[shape], do: run)
  }

  @Test(arguments: 0..<2) func anOptionalField(shape: Int) {
    func run<M: ModeShape>(_: M.Type) {
      for (name, initial, write, location, payloadCount) in Self.scenarios(M.self) {
        var state = Holder<M>()
        state.maybe = initial
        let root = ObservedRoot(state)
        let field = tracking { root.maybe }
        let count = tracking { root.read { $0.maybe?.payload?.count } }
        root.mutate { $0.maybe!.modify(write) }
        #expect(field.count == (location ? 1 : 0), "\(M.self): \(name): field")
        #expect(count.count == (location || payloadCount ? 1 : 0), "\(M.self): \(name): payload count")
      }
      for (from, to) in [(M?.none, M?.some(.idle)), (.some(.idle), nil), (nil, .some(.editing(Child()))), (.some(.editing(Child())), nil)] {
        var state = Holder<M>()
        state.maybe = from
        let root = ObservedRoot(state)
        let field = tracking { root.maybe }
        root.mutate { $0.maybe = to }
        #expect(field.count == 1, "\(M.self): \(String(describing: from)) → \(String(describing: to))")
      }
    }
    _openExistential(Self.shapes[shape], do: run)
  }

  @Test(arguments: 0..<2) func aStackElement(shape: Int) {
    func run<M: ModeShape>(_: M.Type) {
      for (name, initial, write, location, payloadCount) in Self.scenarios(M.self) {
        var state = Holder<M>()
        state.stack = [initial, initial.copyWithNewPayload]
        let root = ObservedRoot(state)
        let element = tracking { root.read { $0.stack[id: 0] } }
        let count = tracking { root.read { $0.stack[id: 0]?.payload?.count } }
        let otherCount = tracking { root.read { $0.stack[id: 1]?.payload?.count } }
        let other = tracking { root.read { $0.stack[id: 1] } }
        let structure = tracking { root.read { $0.stack.count } }
        root.mutate { $0.stack[id: 0]!.modify(write) }
        let label = "\(M.self): \(name)"
        #expect(element.count == (location ? 1 : 0), "\(label): element")
        #expect(count.count == (location || payloadCount ? 1 : 0), "\(label): payload count")
        #expect(other.count == 0, "\(label): the other element")
        #expect(otherCount.count == 0, "\(label): the other element's payload")
        #expect(structure.count == 0, "\(label): the structure")
      }
    }
    _openExistential(Self.shapes[shape], do: run)
  }

  @Test(arguments: 0..<2) func aPayloadAssignedFromAnotherFieldIsItsOwn(shape: Int) {
    func run<M: ModeShape>(_: M.Type) {
      let root = ObservedRoot(Holder<M>())
      root.mutate { $0.mode = .editing($0.child) }
      let childCount = tracking { root.child.count }
      root.mutate { $0.mode.modifyPayload { $0.count += 1 } }
      #expect(childCount.count == 0, "\(M.self): the field the payload came from")
      root.mutate { $0.stack.append(.editing($0.child)) }
      let again = tracking { root.child.count }
      root.mutate { $0.stack[id: 0]!.modifyPayload { $0.count += 1 } }
      #expect(again.count == 0, "\(M.self): appended to a stack")
    }
    _openExistential(Self.shapes[shape], do: run)
  }

  // MARK: Shapes of enums

  indirect enum Tree: Equatable, Sendable {
    case leaf(Child)
    case node(Tree)
  }

  enum Either<Left, Right> {
    case left(Left)
    case right(Right)
  }

  enum Nested: Equatable, Sendable {
    case inner(PlainMode)
    case none
  }

  enum OptionalPayload: Equatable, Sendable {
    case some(Child?)
    case none
  }

  struct Shapes: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var tree = Tree.leaf(Child())
      var either = Either<Child, Int>.left(Child())
      var nested = Nested.inner(.editing(Child()))
      var optionalPayload = OptionalPayload.some(Child())
    }
    var _$fields = Observed(Fields())
  }

  @Test func anIndirectCaseIsAPlainPayload() {
    // A payload in a shared heap box cannot be mutated in place: the enum is observed whole.
    let root = ObservedRoot(Shapes())
    let field = tracking { root.tree }
    root.mutate {
      if case var .leaf(child) = $0.tree {
        child.count += 1
        $0.tree = .leaf(child)
      }
    }
    #expect(field.count == 1)
    #expect(root.read { if case let .leaf(child) = $0.tree { child.count } else { -1 } } == 1)
  }

  @Test func aGenericEnum() {
    let root = ObservedRoot(Shapes())
    let field = tracking { root.either }
    let count = tracking { root.read { s -> Int? in if case let .left(child) = s.either { child.count } else { nil } } }
    let title = tracking { root.read { s -> String? in if case let .left(child) = s.either { child.title } else { nil } } }
    root.mutate { $0.either.modify(\.count) { $0 += 1 } }
    #expect(field.count == 0)
    #expect(count.count == 1)
    #expect(title.count == 0)
    let again = tracking { root.either }
    root.mutate { $0.either = .right(1) }
    #expect(again.count == 1)
  }

  @Test func anEnumInsideAnEnum() {
    let root = ObservedRoot(Shapes())
    let field = tracking { root.nested }
    let count = tracking { root.read { s -> Int? in if case let .inner(mode) = s.nested { mode.payload?.count } else { nil } } }
    let title = tracking { root.read { s -> String? in if case let .inner(mode) = s.nested { mode.payload?.title } else { nil } } }
    root.mutate {
      if case var .inner(mode) = $0.nested {
        mode.modifyPayload { $0.count += 1 }
        $0.nested = .inner(mode)
      }
    }
    #expect(field.count == 0)
    #expect(count.count == 1)
    #expect(title.count == 0)
    let again = tracking { root.nested }
    root.mutate { $0.nested = .inner(.idle) }
    #expect(again.count == 1)
  }

  @Test func anOptionalPayload() {
    let root = ObservedRoot(Shapes())
    let field = tracking { root.optionalPayload }
    let count = tracking { root.read { s -> Int? in if case let .some(child) = s.optionalPayload { child?.count } else { nil } } }
    root.mutate {
      if case var .some(child) = $0.optionalPayload {
        child?.count += 1
        $0.optionalPayload = .some(child)
      }
    }
    #expect(field.count == 0)
    #expect(count.count == 1)
    let again = tracking { root.optionalPayload }
    root.mutate { $0.optionalPayload = .some(nil) }
    #expect(again.count == 1)
  }

  @Test func whatIsObservedByReflection() {
    #expect(ObservationKind.of(PlainMode.self) != nil)
    #expect(ObservationKind.of(PlainMode?.self) != nil)
    #expect(ObservationKind.of(Nested.self) != nil)
    #expect(ObservationKind.of(StackElement<PlainMode>.self) != nil)
    #expect(ObservationKind.of(Either<Child, Int>.self) != nil)
    // Plain: no observable payload, or only an indirect one.
    #expect(ObservationKind.of(Tree.self) == nil)
    #expect(ObservationKind.of(Either<Int, String>.self) == nil)
    #expect(ObservationKind.of(String?.self) == nil)
    #expect(ObservationKind.of(StackElement<Int>.self) == nil)
  }
}

/// What the scenarios need of a mode enum.
protocol ModeShape: Equatable, Sendable {
  static var idle: Self { get }
  static func editing(_ child: Child) -> Self
  static func note(_ text: String) -> Self
  var payload: Child? { get }
  mutating func modifyPayload(_ body: (inout Child) -> Void)
  /// The same payload in another case (the same case for `Mode`, which has one).
  var moved: Self { get }
}

extension ModeShape {
  /// The same case, another payload.
  var copyWithNewPayload: Self { payload == nil ? self : .editing(Child()) }

  mutating func modify(_ body: (inout Self) -> Void) { body(&self) }
}

extension Mode: ModeShape {
  mutating func modifyPayload(_ body: (inout Child) -> Void) { modifyEditing(body) }
  var moved: Self { payload.map { .editing(Child(.init(count: $0.count + 1))) } ?? self }
}

extension ReflectedEnumTests.Either: Equatable where Left: Equatable, Right: Equatable {}
extension ReflectedEnumTests.Either: Sendable where Left: Sendable, Right: Sendable {}
extension ReflectedEnumTests.Either {
  mutating func modify(_ keyPath: WritableKeyPath<Left, Int>, _ body: (inout Int) -> Void) {
    if case var .left(left) = self {
      body(&left[keyPath: keyPath])
      self = .left(left)
    }
  }
}

/// Every change between two different values of a field notifies its readers, and a rewrite of
/// the same value notifies nobody — enumerated over all the values of types whose identities are
/// built from cases and payloads (where two different values once shared an identity).
@Suite struct ValueTransitionTests {
  enum Inner: Equatable, Sendable { case z(Child), x, y }
  /// Enough payload-less cases for the runtime's numbering to reach `inner`'s combinations.
  enum Outer: Equatable, Sendable, CaseIterableWithPayloads {
    case inner(Inner), a(Child)
    case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19
    case c20, c21, c22, c23, c24, c25, c26, c27, c28, c29, c30, c31, c32, c33, c34, c35, c36, c37, c38
    case c39, c40, c41, c42, c43, c44, c45, c46, c47, c48, c49, c50, c51, c52, c53, c54, c55, c56, c57
    case c58, c59, c60, c61, c62, c63, c64, c65, c66, c67, c68, c69, c70

    static var values: [Outer] {
      [.inner(.x), .inner(.y), .inner(.z(Child())), .a(Child()), .c0, .c1, .c2, .c5, .c29, .c30, .c31, .c32, .c59, .c60, .c61, .c62, .c70]
    }
  }
  enum Pair: Equatable, Sendable { case p0(Inner), p1(Inner), p30(Inner), p31(Inner) }

  struct Holder: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var outer = Outer.c0
      var pair = Pair.p0(.x)
      var twice: Child?? = nil
      var strings = StackState<String>()
      var plain: IdentifiedArrayOf<Plain> = [Plain(id: 1, text: "a")]
    }
    var _$fields = Observed(Fields())
  }
  struct Plain: Identifiable, Equatable, Sendable {
    let id: Int
    var text: String
  }

  /// For every ordered pair of `values`: the field's readers hear a change to a different value,
  /// and nothing of an equal one — unless it holds observable state (`hasState`): an equal value
  /// from elsewhere is another value, and may notify (Design §3, B6).
  func checkTransitions<V: Equatable>(
    _ values: [V], _ field: WritableKeyPath<Holder.Fields, V>, hasState: (V) -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for from in values {
      for to in values {
        var state = Holder()
        state._$fields._value[keyPath: field] = from
        let root = ObservedRoot(state)
        let readers = tracking { root.read { $0[dynamicMember: field] } }
        root.mutate { $0[dynamicMember: field] = to }
        if from != to {
          #expect(readers.count == 1, "\(from) → \(to): lost", sourceLocation: sourceLocation)
        } else if !hasState(to) {
          #expect(readers.count == 0, "\(from) → \(to): spurious", sourceLocation: sourceLocation)
        }
      }
    }
  }

  @Test func anEnumNestedInAnEnum() {
    checkTransitions(Outer.values, \.outer) { "\($0)".contains("Child") }
    let child = Child()
    checkTransitions(
      [.p0(.x), .p0(.y), .p1(.x), .p30(.y), .p31(.x), .p0(.z(child)), .p31(.z(child)), .p30(.z(child))], \.pair
    ) { "\($0)".contains("Child") }
  }

  @Test func anOptionalOfAnOptional() {
    checkTransitions([nil, .some(nil), .some(.some(Child()))], \.twice) { $0 != nil && $0! != nil }
  }

  @Test func plainElementsRewrittenEqualAreNoChange() {
    var state = Holder()
    state.strings = ["a", "b"]
    let root = ObservedRoot(state)
    let first = tracking { root.read { $0.strings[id: 0] } }
    root.mutate { $0.strings[id: 0] = "a" }
    root.mutate { $0.plain[id: 1] = Plain(id: 1, text: "a") }
    #expect(first.count == 0)
    let plain = tracking { root.read { $0.plain[id: 1] } }
    root.mutate { $0.strings[id: 0] = "c" }
    root.mutate { $0.plain[id: 1] = Plain(id: 1, text: "b") }
    #expect(first.count == 1)
    #expect(plain.count == 1)
  }
}

/// Marks an enum whose interesting values a test lists.
protocol CaseIterableWithPayloads { static var values: [Self] { get } }
