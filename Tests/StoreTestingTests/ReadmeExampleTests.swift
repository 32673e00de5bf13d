import StoreTesting
import Testing
import ValueStore

// The README's quick start and the DocC articles' examples, verbatim, so they keep compiling and
// doing what the documentation says. Each block names the page it mirrors; change both together.
// The quick start's two files (`Sources/QuickStart/Counter.swift` and
// `Tests/QuickStartTests/CounterTests.swift`) are one file here: everything after their imports
// is verbatim (`@testable import QuickStart` is left out, the types being in this module).
// The articles (Sources/ValueStore/ValueStore.docc, Sources/StoreTesting/StoreTesting.docc) use
// the README's `Counter` and `CounterFeature` too.

// README.md, "Quick start", `Sources/QuickStart/Counter.swift` (also GettingStarted.md,
// DeclaringState.md), verbatim from here to the end of `run()`.

struct Counter: ObservableState, Equatable {
  struct Fields: Equatable { var count = 0; var fact: String? }
  var _$fields = Observed(Fields())
  var isEven: Bool { self.count.isMultiple(of: 2) }   // tracked through `count` only
}

struct CounterFeature: Reducer {
  enum Action: Equatable, Sendable { case increment, factButtonTapped, factResponse(String) }
  let fact: @Sendable (Int) async throws -> String

  func reduce(into state: inout Counter, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .factButtonTapped:
      return .run { [count = state.count] send in
        await send(.factResponse(try await fact(count)))
      }
      .cancellable(id: "fact", cancelInFlight: true)
    case let .factResponse(fact):
      state.fact = fact
      return .none
    }
  }
}

@MainActor func run() {
  let store = Store(initialState: Counter(), reducer: CounterFeature(fact: { "\($0) is a number" }))
  let token = store.observe { print(store.count) }   // prints 0, then 1: re-runs only when `count` changes
  store.send(.increment)
  withExtendedLifetime(token) {}  // keeps observing until here (`_ = token` does not, in an optimized build)
}

// README.md, "Quick start", `Tests/QuickStartTests/CounterTests.swift`, verbatim from here to the
// end of the function. (StoreTesting.md and Testing.md show it too, with the failure below.)

@MainActor @Test func counterFetchesAFact() async {
  let store = TestStore(initialState: Counter()) {
    CounterFeature(fact: { "\($0) is a good number." })  // the test's stand-in for the API
  }
  await store.send(.increment) { $0.count = 1 }  // the state after the action, exactly
  await store.send(.factButtonTapped)
  await store.receive(.factResponse("1 is a good number.")) {  // what the effect sent back
    $0.fact = "1 is a good number."
  }
}

/// Keeps the failure the README describes (a wrong `$0.count = 2` fails with a diff) and
/// Testing.md shows in full true.
@MainActor @Test func counterFailureShownInTheReadme() async {
  let issues = await recordIssues {
    let store = TestStore(initialState: Counter()) { CounterFeature(fact: { "\($0)" }) }
    await store.send(.increment) { $0.count = 2 }
  }

  #expect(
    issues.map(\.message) == [
      """
      State change does not match expectation:

          Counter(
        −   count: 2,
        +   count: 1,
            fact: nil
          )

      (Expected: −, Actual: +)
      """
    ])
}

/// The README's `run()`: prints 0, then 1 (what it prints is checked by `storeExample`).
@MainActor @Test func quickStartRun() {
  run()
}

/// ObservationContract.md's `ObservedRoot` example: what its comments say it prints.
@MainActor @Test func observableStateExample() {
  let printed = Log<String>()
  let model = ObservedRoot(Counter())
  let token = observe { printed.append("count: \(model.count)") }
  model.mutate { $0.fact = "…" }
  let snapshot = model.currentValue
  model.mutate { $0.count += 1 }
  #expect(printed.values == ["count: 0", "count: 1"])
  #expect(snapshot.count == 0)
  withExtendedLifetime(token) {}  // `_ = token` does not keep it alive in an optimized build
}

/// The README's `run()` (and GettingStarted.md's store), with what it prints recorded.
@MainActor @Test func storeExample() async {
  let printed = Log<String>()
  let store = Store(initialState: Counter(), reducer: CounterFeature(fact: { "\($0) is a number" }))
  let token = store.observe { printed.append("\(store.count)") }
  store.send(.increment)
  await store.send(.factButtonTapped).finish()
  #expect(printed.values == ["0", "1"])
  #expect(store.fact == "1 is a number")
  withExtendedLifetime(token) {}  // `_ = token` does not keep it alive in an optimized build
}

// CompositionAndCasePaths.md's composition example, verbatim (`Todo`, `TodoFeature`, `TodosFeature`).

struct Todo: ObservableState, Equatable, Identifiable {
  struct Fields: Equatable, Identifiable { let id: Int; var title = ""; var isDone = false }
  var _$fields: Observed<Fields>
}

struct TodoFeature: Reducer {
  enum Action: Equatable, Sendable { case toggle, rename(String) }
  func reduce(into state: inout Todo, action: Action) -> Effect<Action> {
    switch action {
    case .toggle: state.isDone.toggle()
    case let .rename(title): state.title = title
    }
    return .none
  }
}

struct TodosFeature: Reducer {
  struct State: ObservableState, Equatable {
    struct Fields: Equatable {
      var counter = Counter()
      var todos: IdentifiedArrayOf<Todo> = []
      var editing: Todo?
    }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable {
    case counter(CounterFeature.Action)
    case todos(IdentifiedAction<Int, TodoFeature.Action>)
    case editing(TodoFeature.Action)
    case add(String)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: Action.counter) {
      CounterFeature(fact: { "\($0) is a number" })
    }
    Reduce { state, action in
      if case let .add(title) = action {
        state.todos.append(Todo(.init(id: state.todos.count, title: title)))
      }
      return .none
    }
    .forEach(\.todos, action: Action.todos) { TodoFeature() }
    .ifLet(\.editing, action: Action.editing) { TodoFeature() }
  }
}

@MainActor @Test func compositionExample() async {
  let store = TestStore(initialState: TodosFeature.State()) { TodosFeature() }
  await store.send(.add("Milk")) { $0.todos.append(Todo(.init(id: 0, title: "Milk"))) }
  await store.send(.todos(.element(id: 0, action: .toggle))) { $0.todos[id: 0]?.isDone = true }
  await store.send(.counter(.increment)) { $0.counter.count = 1 }
  // No todo being edited: ignored with a runtime warning in an app, a failure in a test (as TCA).
  await withKnownIssue { await store.send(.editing(.toggle)) }
}

// CompositionAndCasePaths.md, "Case paths" and "Case key paths", verbatim from here to the end
// of `appReceivesByCase` (`rename`, `Screen`, `ScreenFeature`, `App`, `AppFeature`).

let rename = CasePath(TodosFeature.Action.todos)[id: 0].appending(TodoFeature.Action.rename)

enum Screen: Equatable, CasePathable { case counter(Counter), about(String) }

struct ScreenFeature: Reducer {
  enum Action: Equatable, Sendable { case counter(CounterFeature.Action), showAbout }
  var body: some Reducer<Screen, Action> {
    Reduce { state, action in
      if case .showAbout = action { state = .about("ValueStore") }
      return .none
    }
    .ifCaseLet(Screen.counter, action: Action.counter) {  // runs while the screen is a counter
      CounterFeature(fact: { "\($0) is a number" })
    }
  }
}

struct App: ObservableState, Equatable {
  struct Fields: Equatable { var screen = Screen.counter(Counter()) }
  var _$fields = Observed(Fields())
}

struct AppFeature: Reducer {
  enum Action: Equatable, Sendable { case screen(ScreenFeature.Action) }
  var body: some Reducer<App, Action> {
    Scope(state: \.screen, action: Action.screen) { ScreenFeature() }
  }
}

@MainActor @Test func appReceivesByCase() async {
  let store = TestStore(initialState: App()) { AppFeature() }
  await store.send(\.screen.counter.increment) {           // a nested case, by name
    $0.screen.modify(Screen.counter) { $0.count = 1 }   // edits the case in place
  }
  await store.send(\.screen.counter.factButtonTapped)
  // By case: any payload, or this payload (only it must be Equatable, not the action).
  await store.receive(\.screen.counter.factResponse, "1 is a number") {
    $0.screen.modify(Screen.counter) { $0.fact = "1 is a number" }
  }
}

@Test func renameExample() {
  #expect(rename.embed("Eggs") == .todos(.element(id: 0, action: .rename("Eggs"))))
  #expect(rename.extract(from: .todos(.element(id: 0, action: .rename("Eggs")))) == "Eggs")
}

// Navigation.md's example, verbatim from here to the end of the test (`Editor`, `Notes`).

struct Editor: Reducer {
  struct State: ObservableState, Equatable {
    struct Fields: Equatable { var text = "" }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable {
    case setText(String), saveTapped, delegate(Delegate)
    enum Delegate: Equatable, Sendable { case save(String) }
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .setText(text): state.text = text
    case .saveTapped: return .merge(.send(.delegate(.save(state.text))), .dismiss)
    case .delegate: break
    }
    return .none
  }
}

struct Notes: Reducer {
  struct State: ObservableState, Equatable {
    struct Fields: Equatable {
      var notes: [String] = []
      var editor: Editor.State?                  // presented (a sheet) while non-nil
      var path = StackState<Editor.State>()      // a navigation stack of editors
    }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable {
    case newTapped
    case editor(PresentationAction<Editor.Action>)
    case path(StackAction<Editor.State, Editor.Action>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .newTapped: state.editor = Editor.State()
      case let .editor(.presented(.delegate(.save(text)))): state.notes.append(text)
      default: break
      }
      return .none
    }
    .ifLet(\.editor, action: Action.editor) { Editor() }
    .forEach(\.path, action: Action.path) { Editor() }
  }
}

@MainActor @Test func notesPresentsAnEditorThatDismissesItself() async {
  let store = TestStore(initialState: Notes.State()) { Notes() }
  await store.send(.newTapped) { $0.editor = Editor.State() }
  await store.send(.editor(.presented(.setText("Milk")))) { $0.editor?.text = "Milk" }
  await store.send(.editor(.presented(.saveTapped)))
  await store.receive(.editor(.presented(.delegate(.save("Milk"))))) { $0.notes = ["Milk"] }
  await store.receive(.editor(.dismiss)) { $0.editor = nil }  // and its effects are cancelled
}

// Dependencies.md's example (`FactClient`, `FactFeature`), verbatim from here to the end of
// `FactFeature`; the test after it is Testing.md's, verbatim.

struct FactClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String = unimplemented("FactClient.fetch")
  var favorite: @Sendable () -> Int = unimplemented("FactClient.favorite", placeholder: 0)
}

extension FactClient: DependencyKey {
  static let liveValue = FactClient(
    fetch: { n in "\(n) is a number (from the network)." },
    favorite: { 42 }
  )
  static let testValue = FactClient()  // every endpoint unimplemented: a test overrides what it uses
}

extension DependencyValues {
  var factClient: FactClient {
    get { self[FactClient.self] }
    set { self[FactClient.self] = newValue }
  }
}

struct FactFeature: Reducer {
  struct State: ObservableState, Equatable {
    struct Fields: Equatable { var count = 0; var fact: String?; var elapsed = 0 }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable { case factTapped, factResponse(String), startTimer, tick }
  @Dependency(\.factClient) var factClient
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .factTapped:
      return .run { [count = state.count] send in
        await send(.factResponse(try await factClient.fetch(count)))
      }
    case let .factResponse(fact):
      state.fact = fact
    case .startTimer:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
      .cancellable(id: "timer")
    case .tick:
      state.elapsed += 1
      if state.elapsed == 2 { return .cancel(id: "timer") }
    }
    return .none
  }
}

@MainActor @Test func factFeatureWithDependencies() async {
  let clock = TestClock()
  let store = TestStore(initialState: FactFeature.State()) { FactFeature() } withDependencies: {
    $0.factClient.fetch = { "\($0) is a good number." }  // one endpoint; the others fail if used
    $0.continuousClock = clock
  }
  await store.send(.factTapped)
  await store.receive(.factResponse("0 is a good number.")) { $0.fact = "0 is a good number." }
  await store.send(.startTimer)
  await clock.advance(by: .seconds(2))   // one jump, two ticks: the timer keeps its deadlines
  await store.receive(.tick) { $0.elapsed = 1 }
  await store.receive(.tick) { $0.elapsed = 2 }
}

/// DeclaringState.md's "Making a state" (and the README's "Declaring state").
@MainActor @Test func declaringStateExample() {
  let counter = Counter(.init(count: 3))
  #expect(counter.count == 3 && counter.fact == nil)
}
