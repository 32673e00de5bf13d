import Foundation
import StoreTesting
import Testing
import ValueStore

/// `\.binding.field` for fields that are not plain writable values: `let` fields, fields beside
/// `_$fields`, computed properties, child states, collections, non-Equatable fields.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathBindingAdversarialTests {
  struct NotEquatable: Sendable { var value = 0 }

  struct Child: ObservableState, Equatable {
    struct Fields: Equatable { var name = "" }
    var _$fields = Observed(Fields())
  }
  struct Row: ObservableState, Equatable, Identifiable {
    struct Fields: Equatable, Identifiable { let id: Int; var title = "" }
    var _$fields: Observed<Fields>
  }
  enum Mode: Equatable, Sendable { case view, edit(draft: String) }

  struct State: ObservableState, Equatable {
    struct Fields: Equatable, Identifiable {
      let id: Int
      var title = ""
      var child = Child()
      var optionalChild: Child?
      var rows: IdentifiedArrayOf<Row> = []
      var mode = Mode.view
      var optionalMode: Mode?
      var numbers: [Int] = []
      var set: Set<String> = []
      var dictionary: [String: Int] = [:]
      var date = Date(timeIntervalSince1970: 0)
      var notEquatable = NotEquatable()
      static func == (lhs: Fields, rhs: Fields) -> Bool {
        lhs.id == rhs.id && lhs.title == rhs.title && lhs.child == rhs.child && lhs.optionalChild == rhs.optionalChild
          && lhs.rows == rhs.rows && lhs.mode == rhs.mode && lhs.optionalMode == rhs.optionalMode
          && lhs.numbers == rhs.numbers && lhs.set == rhs.set && lhs.dictionary == rhs.dictionary
          && lhs.date == rhs.date && lhs.notEquatable.value == rhs.notEquatable.value
      }
    }
    var _$fields: Observed<Fields>
    var cache: [Int] = []
    var computedTitle: String {
      get { self.title }
      set { self.title = newValue }
    }
  }

  enum Action: BindableAction, Sendable {
    case binding(BindingAction<State>)
  }

  struct Feature: Reducer {
    var body: some Reducer<State, Action> { BindingReducer() }
  }

  func makeStore() -> TestStore<State, Action> {
    TestStore(initialState: State(_$fields: Observed(.init(id: 1)))) { Feature() }
  }

  @Test func collectionsChildrenAndEnums() async {
    let store = makeStore()
    await store.send(\.binding.child, Child(.init(name: "c"))) { $0.child = Child(.init(name: "c")) }
    await store.send(\.binding.optionalChild, Child(.init(name: "o"))) { $0.optionalChild = Child(.init(name: "o")) }
    await store.send(\.binding.optionalChild, Child?.none) { $0.optionalChild = nil }
    await store.send(\.binding.rows, [Row(_$fields: Observed(.init(id: 1)))] as IdentifiedArrayOf<Row>) {
      $0.rows = [Row(_$fields: Observed(.init(id: 1)))]
    }
    await store.send(\.binding.mode, Mode.edit(draft: "d")) { $0.mode = .edit(draft: "d") }
    await store.send(\.binding.optionalMode, Mode.view) { $0.optionalMode = .view }
    await store.send(\.binding.numbers, [3, 2, 1]) { $0.numbers = [3, 2, 1] }
    await store.send(\.binding.set, Set(["a"])) { $0.set = ["a"] }
    await store.send(\.binding.dictionary, ["k": 1]) { $0.dictionary = ["k": 1] }
    await store.send(\.binding.date, Date(timeIntervalSince1970: 9)) { $0.date = Date(timeIntervalSince1970: 9) }
  }

  @Test func letFieldIsNotBindable() async {
    let store = makeStore()
    // A `let` field is refused, and the message says why.
    await withKnownIssue {
      await store.send(\.binding.id, 2)
    } matching: {
      "\($0)".contains("CaseKeyPathBindingAdversarialTests.State.id is a constant: a binding cannot set it")
    }
    #expect(store.state._$fields == Observed(State.Fields(id: 1)))
  }

  @Test func nonEquatableFieldIsRefusedClearly() async {
    let store = makeStore()
    // A non-Equatable field is refused, and the message says why.
    await withKnownIssue {
      await store.send(\.binding.notEquatable, NotEquatable(value: 3)) { $0.notEquatable.value = 3 }
    } matching: {
      "\($0)".contains("CaseKeyPathBindingAdversarialTests.State.notEquatable is not Equatable: a binding cannot set it")
    }
    #expect(store.state.notEquatable.value == 0)
  }

  @Test func propertiesBesideTheFields() async {
    let store = makeStore()
    await withKnownIssue("a stored property beside `_$fields` is not a field") {
      await store.send(\.binding.cache, [1])
    } matching: { "\($0)".contains("cache") }
    await withKnownIssue(isIntermittent: true) {  // a computed property of the state
      await store.send(\.binding.computedTitle, "t") { $0.title = "t" }
    }
    #expect(store.state.cache.isEmpty)
  }

  @Test func bindingIsEqualToTheHandWrittenOne() async {
    let store = makeStore()
    await store.send(\.binding.mode, Mode.edit(draft: "x")) { $0.mode = .edit(draft: "x") }
    // Built by name and by hand, the actions compare equal (receive and `case .binding(\.mode)`).
    let log = LockIsolated<[Action]>([])
    let recording = TestStore(initialState: State(_$fields: Observed(.init(id: 1)))) {
      BindingReducer<State, Action, Action>()
      Reduce<State, Action> { _, action in
        log.withValue { $0.append(action) }
        return .none
      }
    }
    await recording.send(\.binding.title, "x") { $0.title = "x" }
    guard case let .binding(built)? = log.value.first else { Issue.record("nothing sent"); return }
    #expect(built == .set(\State.title, "x"))
    #expect(built.keyPath == \State.title)
    var matched = false
    if case .binding(\.title) = log.value[0] { matched = true }
    #expect(matched)
  }
}

/// The binding action built from `\.binding.title` against the hand-written `.set(\.title, …)`:
/// same value type, same description.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathBindingValueAdversarialTests {
  struct Form: ObservableState, Equatable {
    struct Fields: Equatable { var title = ""; var limit: Int? }
    var _$fields = Observed(Fields())
  }
  enum Action: BindableAction, Sendable, Equatable { case binding(BindingAction<Form>) }

  @Test func builtAndHandWrittenBindingsLookAlike() async {
    let log = LockIsolated<[Action]>([])
    let store = TestStore(initialState: Form()) {
      Reduce<Form, Action> { _, action in
        log.withValue { $0.append(action) }
        return .none
      }
    }
    store.exhaustivity = .off
    await store.send(\.binding.title, "New")
    await store.send(.binding(.set(\.title, "New")))
    await store.send(\.binding.limit, 3)
    await store.send(.binding(.set(\.limit, 3)))
    let actions = log.value
    guard actions.count == 4, case let .binding(built) = actions[0], case let .binding(byHand) = actions[1],
      case let .binding(builtLimit) = actions[2], case let .binding(byHandLimit) = actions[3]
    else { Issue.record("\(actions)"); return }
    #expect(built == byHand)
    #expect(builtLimit == byHandLimit)
    #expect(built.value as? String == "New")
    #expect(builtLimit.value as? Int == 3)
    // The value is stored with the field's type, so it prints like the hand-written one (the key
    // path prints as a computed component either way: see `bindingDescriptionNamesTheField`).
    #expect("\(type(of: built.value))" == "\(type(of: byHand.value))")
    #expect("\(type(of: built.value))" == "String")
    #expect("\(built)".hasSuffix(", New)"), "\(built)")
    #expect(valuePart("\(built)") == valuePart("\(byHand)"))
    #expect("\(type(of: builtLimit.value))" == "\(type(of: byHandLimit.value))")
    #expect("\(type(of: builtLimit.value))" == "Optional<Int>")
    #expect("\(builtLimit)".hasSuffix(", Optional(3))"), "\(builtLimit)")
    #expect(valuePart("\(builtLimit)") == valuePart("\(byHandLimit)"))
  }

  /// A binding's description after its key path (whose computed component differs): the value.
  func valuePart(_ description: String) -> Substring {
    guard let comma = description.range(of: ", ") else { return description[...] }
    return description[comma.upperBound...]
  }

  @Test func bindingDescriptionNamesTheField() {
    let action = BindingAction<Form>.set(\.title, "New")
    withKnownIssue("ROUGH: a field's key path prints as \\Form.<computed 0x…>, not \\Form.title") {
      #expect("\(action)".contains("title"), "\(action)")
    }
  }
}

/// Receiving binding actions by field name.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathBindingReceiveAdversarialTests {
  struct Form: ObservableState, Equatable {
    struct Fields: Equatable { var title = ""; var count = 0 }
    var _$fields = Observed(Fields())
  }
  enum Action: BindableAction, Sendable, Equatable { case binding(BindingAction<Form>), autofill }

  func makeStore() -> TestStore<Form, Action> {
    TestStore(initialState: Form()) {
      BindingReducer()
      Reduce<Form, Action> { _, action in
        if case .autofill = action { return .send(.binding(.set(\.title, "auto"))) }
        return .none
      }
    }
  }

  /// `send(\.binding.title, "x")` builds the binding, and the same path matches it on receive,
  /// with or without the value (TCA: `receive(\.binding.title, "auto")`).
  @Test func receiveABindingByItsField() async {
    let store = makeStore()
    await store.send(.autofill)
    await store.receive(\.binding.title, "auto") { $0.title = "auto" }
    await store.send(.autofill)
    await store.receive(\.binding.title)
    await store.send(.autofill)
    await store.receive(\.binding) // any binding: matches
  }

  @Test func receiveABindingOfAnotherField() async {
    let store = makeStore()
    await store.send(.autofill)
    await withKnownIssue {
      await store.receive(\.binding.count) { $0.title = "auto" }
    }
  }

  @Test func receiveABindingWithAnotherValue() async {
    let store = makeStore()
    await store.send(.autofill)
    await withKnownIssue {
      await store.receive(\.binding.title, "manual") { $0.title = "auto" }
    }
  }
}
