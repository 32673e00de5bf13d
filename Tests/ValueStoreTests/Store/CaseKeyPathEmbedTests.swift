import Foundation
import Testing
@_spi(Testing) @testable import ValueStore

/// A case key path builds the action it names (`send(\.path[id: 0].detail.titleChanged, "x")`):
/// every layout an enum the runtime can give — no payloads, one payload case with and without
/// spare values, several payload cases of plain values or references, generic, optional, tuple
/// and existential payloads — nested through presentations, stacks and identified elements. Each
/// row is built by name, compared with the value written by hand, and read back by the same path.
struct CaseKeyPathEmbedTests {
  final class Box: Equatable, Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
    static func == (lhs: Box, rhs: Box) -> Bool { lhs.number == rhs.number }
  }
  struct Failure: Error, Equatable {}
  struct Form: Equatable, Sendable { var title = ""; var count = 0 }

  enum Only: Equatable, Sendable { case first, second, third }
  enum Leaf: Equatable, Sendable {
    case tapped
    case renamed(String)
    case counted(Int)
    case toggled(Bool?)
    case loaded(value: Int)
    case moved(from: Int, to: Int)
    case boxed(Box)
    case response(Result<Int, Failure>)
    case form(Form)
    case closed
  }
  enum References: Equatable, Sendable { case first(Box), second(Box), neither }
  enum Single: Equatable, Sendable { case child(Leaf), nothing }
  enum Generic<T: Equatable & Sendable>: Equatable, Sendable { case value(T), empty }
  indirect enum Tree: Equatable, Sendable { case leaf(Int), node(Tree) }
  struct Empty: Error, Equatable {}
  enum Loadable<T: Equatable & Sendable>: Equatable, Sendable { case loaded(T), failed(Empty), loading }
  enum Zeros: Equatable, Sendable { case empty(Empty), full(Int) }
  enum One: Equatable, Sendable { case only }
  enum Types: Sendable { case thin(Int.Type), existential(any Sendable.Type), nothing }
  enum Numbers: Equatable, Sendable { case real(Double), byte(UInt8), optional(Int?) }
  enum Computed: Sendable { case compute(@Sendable (Int) -> Int), other }

  enum Action: Equatable, Sendable {
    case leaf(Leaf)
    case only(Only)
    case references(References)
    case single(Single)
    case generic(Generic<String>)
    case alert(PresentationAction<Only>)
    case destination(PresentationAction<Leaf>)
    case rows(IdentifiedAction<Int, Leaf>)
    case named(IdentifiedAction<UUID, Single>)
    case path(StackAction<Form, Leaf>)
    case tree(Tree)
    case tapped
    case loadInt(Loadable<Int>)
    case loadEmpty(Loadable<Empty>)
    case zeros(Zeros)
    case one(One)
    case optional(Leaf?)
    case numbers(Numbers)
    case bytes(IdentifiedAction<UInt8, Leaf>)
  }

  static let uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

  /// (path, payload, the action written by hand)
  static var rows: [(CaseKeyPath<Action>, (any Sendable)?, Action, SourceLocation)] {
  [
    (\.tapped, nil, .tapped, #_sourceLocation),
    (\.only.second, nil, .only(.second), #_sourceLocation),
    (\.only.third, nil, .only(.third), #_sourceLocation),
    (\.leaf.tapped, nil, .leaf(.tapped), #_sourceLocation),
    (\.leaf.closed, nil, .leaf(.closed), #_sourceLocation),
    (\.leaf.renamed, "Blob", .leaf(.renamed("Blob")), #_sourceLocation),
    (\.leaf.counted, 42, .leaf(.counted(42)), #_sourceLocation),
    (\.leaf.toggled, true, .leaf(.toggled(true)), #_sourceLocation),
    (\.leaf.toggled, Bool?.none as any Sendable, .leaf(.toggled(nil)), #_sourceLocation),
    (\.leaf.loaded, 7, .leaf(.loaded(value: 7)), #_sourceLocation),
    (\.leaf.moved, (1, 2), .leaf(.moved(from: 1, to: 2)), #_sourceLocation),
    (\.leaf.boxed, Box(3), .leaf(.boxed(Box(3))), #_sourceLocation),
    (\.leaf.response.success, 5, .leaf(.response(.success(5))), #_sourceLocation),
    (\.leaf.response.failure, Failure(), .leaf(.response(.failure(Failure()))), #_sourceLocation),
    (\.leaf.form, Form(title: "x", count: 2), .leaf(.form(Form(title: "x", count: 2))), #_sourceLocation),
    (\.references.second, Box(4), .references(.second(Box(4))), #_sourceLocation),
    (\.references.neither, nil, .references(.neither), #_sourceLocation),
    (\.single.child.renamed, "a", .single(.child(.renamed("a"))), #_sourceLocation),
    (\.single.nothing, nil, .single(.nothing), #_sourceLocation),
    (\.generic.value, "g", .generic(.value("g")), #_sourceLocation),
    (\.generic.empty, nil, .generic(.empty), #_sourceLocation),
    (\.alert.second, nil, .alert(.presented(.second)), #_sourceLocation),
    (\.alert.presented.first, nil, .alert(.presented(.first)), #_sourceLocation),
    (\.alert.dismiss, nil, .alert(.dismiss), #_sourceLocation),
    (\.destination.renamed, "d", .destination(.presented(.renamed("d"))), #_sourceLocation),
    (\.rows[id: 3].counted, 9, .rows(.element(id: 3, action: .counted(9))), #_sourceLocation),
    (\.named[id: uuid].child.moved, (3, 4), .named(.element(id: uuid, action: .child(.moved(from: 3, to: 4)))), #_sourceLocation),
    (\.path[id: 0].tapped, nil, .path(.element(id: 0, action: .tapped)), #_sourceLocation),
    (\.path[id: 2].response.success, 1, .path(.element(id: 2, action: .response(.success(1)))), #_sourceLocation),
    (\.path.popFrom, StackElementID(integerLiteral: 1), .path(.popFrom(id: 1)), #_sourceLocation),
    // Payloads of empty types: left out of the layout, or not (a generic parameter's).
    (\.loadInt.loaded, 3, .loadInt(.loaded(3)), #_sourceLocation),
    (\.loadInt.failed, Empty(), .loadInt(.failed(Empty())), #_sourceLocation),
    (\.loadInt.loading, nil, .loadInt(.loading), #_sourceLocation),
    (\.loadEmpty.loaded, Empty(), .loadEmpty(.loaded(Empty())), #_sourceLocation),
    (\.loadEmpty.failed, Empty(), .loadEmpty(.failed(Empty())), #_sourceLocation),
    (\.loadEmpty.loading, nil, .loadEmpty(.loading), #_sourceLocation),
    (\.zeros.empty, Empty(), .zeros(.empty(Empty())), #_sourceLocation),
    (\.zeros.full, 2, .zeros(.full(2)), #_sourceLocation),
    (\.one.only, nil, .one(.only), #_sourceLocation),
    // An optional payload is stepped through, as a presentation is.
    (\.optional.renamed, "o", .optional(.renamed("o")), #_sourceLocation),
    (\.optional.some.tapped, nil, .optional(.tapped), #_sourceLocation),
    (\.optional.none, nil, .optional(nil), #_sourceLocation),
    // An integer is taken as the integer literal it would be written as.
    (\.numbers.real, 2, .numbers(.real(2)), #_sourceLocation),
    (\.numbers.byte, 7, .numbers(.byte(7)), #_sourceLocation),
    (\.numbers.optional, 4, .numbers(.optional(4)), #_sourceLocation),
    (\.numbers.optional, _NilPayload(), .numbers(.optional(nil)), #_sourceLocation),
    (\.path.popFrom, 1, .path(.popFrom(id: 1)), #_sourceLocation),
    (\.bytes[id: 9].tapped, nil, .bytes(.element(id: 9, action: .tapped)), #_sourceLocation),
    // A tuple is taken element by element, each as a payload is.
    (\.path.push, (0, Form(title: "p")), .path(.push(id: 0, state: Form(title: "p"))), #_sourceLocation),
    (\.numbers.real, 2 as Int8, .numbers(.real(2)), #_sourceLocation),
  ]
  }

  @Test func everyShapeIsBuiltAsWrittenByHand() throws {
    for (path, payload, expected, location) in Self.rows {
      let built = try _embed(path, payload)
      #expect(built == expected, "\(_describe(path))", sourceLocation: location)
      #expect(path.extract(from: built) != nil, "\(_describe(path)) reads back", sourceLocation: location)
    }
  }

  @Test func builtValuesOwnTheirPayloads() throws {
    weak var weakBox: Box?
    do {
      let box = Box(1)
      weakBox = box
      var built: Action? = try _embed(\Cases<Action>.references.first, box)
      #expect(built == .references(.first(Box(1))))
      built = nil
      _ = built
    }
    #expect(weakBox == nil)
    let strings = try (0..<1_000).map { try _embed(\Cases<Action>.leaf.renamed, String(repeating: "x", count: $0)) }
    #expect(strings.last == .leaf(.renamed(String(repeating: "x", count: 999))))
  }

  static var failures: [(CaseKeyPath<Action>, (any Sendable)?, String)] {
  [
    (\.leaf.renamed, 1, "the case carries String, not Int"),
    (\.leaf.renamed, nil, "the case carries String, but no value was given"),
    (\.leaf.tapped, "x", "CaseKeyPathEmbedTests.Leaf.tapped has no payload"),
    (\.leaf.renamd, "x", "CaseKeyPathEmbedTests.Leaf has no case .renamd"),
    (\.tapped.more, nil, "CaseKeyPathEmbedTests.Action.tapped has no payload to name .more in"),
    (\.leaf.renamed.more, "x", "String is not an enum: it has no case .more"),
    (\.only[id: 1], nil, "CaseKeyPathEmbedTests.Only has no element(id:action:) case for [id: 1]"),
    (\.rows[id: "one"].tapped, nil, "the case carries Int, not String"),
    (\.tree.node, Tree.leaf(1), "CaseKeyPathEmbedTests.Tree.node is an indirect case: it cannot be built by name"),
    (\.numbers.byte, 300, "the case carries UInt8, not Int"),
    (\.leaf.moved, (1, "x"), "the case carries (from: Int, to: Int), not (Int, String)"),
  ]
  }

  @Test func aPathThatNamesNoValueSaysWhy() {
    for (path, payload, reason) in Self.failures {
      #expect(Comment(rawValue: _describe(path))) {
        _ = try _embed(path, payload)
      } throws: { error in
        "\(error)".contains(reason)
      }
    }
  }

  struct Settings: ObservableState, Equatable {
    struct Fields: Equatable { var title = ""; var count = 0; var limit: Int? }
    var _$fields = Observed(Fields())
  }
  enum SettingsAction: Equatable, Sendable { case binding(BindingAction<Settings>), save }
  enum Screen: Equatable, Sendable { case settings(PresentationAction<SettingsAction>) }

  /// `\.binding.title` names the binding action that sets `title`, with the key path a reducer's
  /// `case .binding(\.title):` matches.
  @Test func aBindingIsNamedByItsField() throws {
    let built: SettingsAction = try _embed(\.binding.title, "Blob")
    #expect(built == .binding(.set(\.title, "Blob")))
    guard case let .binding(action) = built else { Issue.record("not a binding"); return }
    #expect(action.keyPath == \Settings.title)
    var matched = false
    if case .binding(\.title) = built { matched = true }
    #expect(matched)
    var settings = Settings()
    action.apply(to: &settings)
    #expect(settings.title == "Blob")

    let limit: Screen = try _embed(\.settings.binding.limit, 3)
    #expect(limit == .settings(.presented(.binding(.set(\.limit, 3)))))
    let none: Screen = try _embed(\.settings.binding.limit, Int?.none as any Sendable)
    #expect(none == .settings(.presented(.binding(.set(\.limit, nil)))))
  }

  @Test func aBindingToNoSuchFieldOrOfAnotherTypeSaysWhy() {
    #expect { _ = try _embed(\Cases<SettingsAction>.binding.titel, "x") } throws: {
      "\($0)".contains("Settings has no field titel")
    }
    #expect { _ = try _embed(\Cases<SettingsAction>.binding.count, "x") } throws: {
      "\($0)".contains("Settings.count is Int, not String")
    }
  }

  /// A case carrying a value's metatype is stored in no bytes: the enum's other cases are named
  /// and built all the same; one carrying a function is refused, saying why.
  @Test func thinPayloadsLeaveTheOtherCasesReachable() throws {
    guard case .nothing = try _embed(\Cases<Types>.nothing, nil) else { Issue.record("not .nothing"); return }
    #expect((\Cases<Types>.nothing).extract(from: Types.nothing) != nil)
    #expect { _ = try _embed(\Cases<Computed>.compute, nil) } throws: {
      "\($0)".contains("CaseKeyPathEmbedTests.Computed.compute carries a function or a metatype: it cannot be built by name")
    }
    guard case .other = try _embed(\Cases<Computed>.other, nil) else { Issue.record("not .other"); return }
  }

  /// `\.binding.title` reads the value of the binding action that sets `title`, and nothing else.
  @Test func aBindingIsReadByItsField() throws {
    let built: SettingsAction = try _embed(\.binding.limit, 3)
    #expect((\Cases<SettingsAction>.binding.limit).extract(from: built) as? Int? == 3)
    #expect((\Cases<SettingsAction>.binding.title).extract(from: built) == nil)
    guard case let .binding(action) = built else { Issue.record("not a binding"); return }
    #expect(type(of: action.value) == Int?.self)
    #expect("\(action)".hasSuffix(", Optional(3))"))
  }

  @Test func aBindingOfAConstantOrANonEquatableFieldSaysWhy() {
    #expect { _ = try _embed(\Cases<ConstantAction>.binding.id, 3) } throws: {
      "\($0)".contains("Constant.id is a constant: a binding cannot set it")
    }
    #expect { _ = try _embed(\Cases<ConstantAction>.binding.opaque, Opaque()) } throws: {
      "\($0)".contains("Constant.opaque is not Equatable: a binding cannot set it")
    }
  }

  struct Opaque: Sendable {}
  struct Constant: ObservableState {
    struct Fields { let id = 0; var opaque = Opaque() }
    var _$fields = Observed(Fields())
  }
  enum ConstantAction: Sendable { case binding(BindingAction<Constant>) }
}
