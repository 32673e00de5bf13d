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
