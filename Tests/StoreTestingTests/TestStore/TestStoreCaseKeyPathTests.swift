import StoreTesting
import Testing
import ValueStore

/// `send`/`receive(\.nested.case)` and `send`/`receive(\.nested.case, payload)`: TCA's spelling,
/// without a macro.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct TestStoreCaseKeyPathTests {
  struct Feature: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable { var log: [String] = [] }
      var _$fields = Observed(Fields())
    }
    enum Child: Sendable { case loaded(Int), timerUpdated }
    enum Action: Sendable {
      case start
      case child(Child)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start: return .merge(.send(.child(.timerUpdated)), .send(.child(.loaded(42))))
      case .child(.timerUpdated): state.log.append("tick")
      case let .child(.loaded(value)): state.log.append("\(value)")
      }
      return .none
    }
  }

  @Test func receivesNestedCasesByName() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.start)
    await store.receive(\.child.timerUpdated) { $0.log = ["tick"] }
    await store.receive(\.child.loaded, 42) { $0.log = ["tick", "42"] }
  }

  @Test func aDifferentCaseFailsNamingThePath() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.start)
    await withKnownIssue {
      await store.receive(\.child.loaded) { $0.log = ["tick"] }
    } matching: { issue in
      "\(issue)".contains("\\.child.loaded")
    }
    await store.receive(\.child.loaded, 42) { $0.log = ["tick", "42"] }
  }

  @Test func aDifferentPayloadFails() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    store.exhaustivity = .off
    await store.send(.start)
    await store.receive(\.child.timerUpdated)
    await withKnownIssue {
      await store.receive(\.child.loaded, 41, timeout: .milliseconds(100))
    }
  }

  /// A list of rows in a stack, each with a presented editor: `\.path[id: 0].rows[id: 2].editor.title`
  /// goes through a stack element, an identified element and a presentation unnamed.
  struct Editor: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable { var title = "" }
      var _$fields = Observed(Fields())
    }
    enum Action: Sendable { case title(String), clear }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .title(title): state.title = title
      case .clear: state.title = ""
      }
      return .none
    }
  }
  struct Row: Reducer {
    struct State: ObservableState, Equatable, Identifiable {
      let id: Int
      struct Fields: Equatable { var editor: Editor.State? = Editor.State() }
      var _$fields = Observed(Fields())
    }
    enum Action: Sendable { case editor(PresentationAction<Editor.Action>) }
    var body: some Reducer<State, Action> {
      EmptyReducer().ifLet(\.editor, action: Action.editor) { Editor() }
    }
  }
  struct List: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable { var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 2)] }
      var _$fields = Observed(Fields())
    }
    enum Action: Sendable { case rows(IdentifiedAction<Int, Row.Action>) }
    var body: some Reducer<State, Action> {
      EmptyReducer().forEach(\.rows, action: Action.rows) { Row() }
    }
  }
  struct App: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable { var path = StackState<List.State>([List.State()]) }
      var _$fields = Observed(Fields())
    }
    enum Action: Sendable { case path(StackAction<List.State, List.Action>) }
    var body: some Reducer<State, Action> {
      EmptyReducer().forEach(\.path, action: Action.path) { List() }
    }
  }

  @Test func sendsNestedCasesByName() async {
    let store = TestStore(initialState: App.State()) { App() }
    await store.send(\.path[id: 0].rows[id: 2].editor.title, "Milk") {
      $0.path[id: 0]?.rows[id: 2]?.editor?.title = "Milk"
    }
    await store.send(\.path[id: 0].rows[id: 2].editor.clear) {
      $0.path[id: 0]?.rows[id: 2]?.editor?.title = ""
    }
    await store.send(\.path[id: 0].rows[id: 2].editor.dismiss) {
      $0.path[id: 0]?.rows[id: 2]?.editor = nil
    }
  }

  @Test func aPathThatNamesNoActionFailsAndSendsNothing() async {
    let store = TestStore(initialState: App.State()) { App() }
    await withKnownIssue {
      await store.send(\.path[id: 0].rows[id: 2].editor.title, 42)
    } matching: { issue in
      "\(issue)".contains("\\.path[id: 0].rows[id: 2].editor.title names no action to send: the case carries String, not Int")
    }
    await withKnownIssue {
      await store.send(\.path[id: 0].rows[id: 2].editr.clear)
    } matching: { issue in
      "\(issue)".contains("TestStoreCaseKeyPathTests.Row.Action has no case .editr")
    }
  }

  struct Form: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable { var title = ""; var selection: Int? = 1 }
      var _$fields = Observed(Fields())
    }
    enum Action: Sendable, BindableAction {
      case binding(BindingAction<State>)
      case autofill
      case select(Int?)
    }
    var body: some Reducer<State, Action> {
      BindingReducer()
      Reduce { state, action in
        switch action {
        case .autofill: return .send(.binding(.set(\.title, "auto")))
        case let .select(selection):
          state.selection = selection
          return selection == nil ? .none : .send(.select(nil))
        case .binding: return .none
        }
      }
    }
  }

  /// A binding is sent and received by its field, as in TCA: `\.binding.title`.
  @Test func aBindingIsSentAndReceivedByItsField() async {
    let store = TestStore(initialState: Form.State()) { Form() }
    await store.send(\.binding.title, "Blob") { $0.title = "Blob" }
    await store.send(.autofill)
    await store.receive(\.binding.title, "auto") { $0.title = "auto" }
  }

  /// `nil` for a case carrying an optional, sent and received.
  @Test func nilIsSentAndReceived() async {
    let store = TestStore(initialState: Form.State()) { Form() }
    await store.send(\.select, nil) { $0.selection = nil }
    await store.send(\.select, 2) { $0.selection = 2 }
    await store.receive(\.select, nil) { $0.selection = nil }
  }
}

