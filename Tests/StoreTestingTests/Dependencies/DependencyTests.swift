import Foundation
import StoreTesting
import Testing
@_spi(Testing) import ValueStore

/// A dependency with a live value only (unimplemented in tests), one with a test value, and a
/// feature reading them in its reducer and in its effects.
struct Greeter: Sendable { var greet: @Sendable (String) -> String }

enum GreeterKey: DependencyKey {
  static let liveValue = Greeter { "Hello, \($0) (live)" }
}

enum NumberKey: DependencyKey {
  static let liveValue = 1
  static let testValue = 42
}

extension DependencyValues {
  var greeter: Greeter {
    get { self[GreeterKey.self] }
    set { self[GreeterKey.self] = newValue }
  }
  var number: Int {
    get { self[NumberKey.self] }
    set { self[NumberKey.self] = newValue }
  }
}

struct Greeting: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable { var text = ""; var number = 0; var id: UUID? }
  var _$fields = Observed(Fields())
}

/// Reads the date: unimplemented in a test that does not override it.
struct DateFeature: Reducer {
  enum Action: Equatable, Sendable { case stamp }
  @Dependency(\.date) var date
  func reduce(into state: inout Greeting, action: Action) -> Effect<Action> {
    state.number = Int(date.now.timeIntervalSince1970)
    return .none
  }
}

struct GreetingFeature: Reducer {
  enum Action: Equatable, Sendable { case greet(String), greetLater(String), greeted(String), readNumber, makeID }
  @Dependency(\.greeter) var greeter
  @Dependency(\.number) var number
  @Dependency(\.uuid) var uuid
  /// The gate each delayed greeting waits on, by name.
  var gates: [String: Gate] = [:]

  func reduce(into state: inout Greeting, action: Action) -> Effect<Action> {
    switch action {
    case let .greet(name):
      state.text = greeter.greet(name)
    case let .greetLater(name):
      return .run { [gate = gates[name]] send in
        await gate?.wait()
        await send(.greeted(greeter.greet(name)))  // read when the effect runs
      }
    case let .greeted(text):
      state.text = text
    case .readNumber:
      state.number = number
    case .makeID:
      state.id = uuid()
    }
    return .none
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct DependencyTests {
  @Test func anOverriddenDependencyIsUsedByTheReducer() async {
    let store = TestStore(initialState: Greeting()) { GreetingFeature() } withDependencies: {
      $0.greeter = Greeter { "Hi, \($0)" }
    }
    await store.send(.greet("Blob")) { $0.text = "Hi, Blob" }
  }

  @Test func aKeysTestValueIsUsedInTests() async {
    let store = TestStore(initialState: Greeting()) { GreetingFeature() }
    await store.send(.readNumber) { $0.number = 42 }
  }

  @Test func anUnimplementedDependencyFailsTheTestNamingIt() async {
    let issues = await recordIssues {
      let store = TestStore(initialState: Greeting()) { GreetingFeature() }
      await store.send(.greet("Blob")) { $0.text = "Hello, Blob (live)" }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.contains("Unimplemented dependency: GreeterKey") == true)
  }

  @Test func anEffectKeepsTheValuesOfTheActionThatStartedIt() async {
    let gate = Gate()
    let store = TestStore(initialState: Greeting()) { GreetingFeature(gates: ["Blob": gate]) } withDependencies: {
      $0.greeter = Greeter { "First, \($0)" }
    }
    await store.send(.greetLater("Blob"))
    store.dependencies.greeter = Greeter { "Second, \($0)" }  // changed while the effect waits
    await store.send(.greet("Blob")) { $0.text = "Second, Blob" }
    gate.open()
    await store.receive(.greeted("First, Blob")) { $0.text = "First, Blob" }
  }

  @Test func concurrentEffectsSeeTheirOwnValues() async {
    let (first, second) = (Gate(), Gate())
    let store = Store(initialState: Greeting()) { GreetingFeature(gates: ["x": first, "y": second]) } withDependencies: {
      $0.greeter = Greeter { "A \($0)" }
    }
    let a = store.send(.greetLater("x"))
    store.dependencies.greeter = Greeter { "B \($0)" }
    let b = store.send(.greetLater("y"))
    #expect(a.isInFlight && b.isInFlight)  // both running at once
    second.open()
    await b.finish()
    #expect(store.text == "B y")
    first.open()
    await a.finish()
    #expect(store.text == "A x")
  }

  struct Pair: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var left = Greeting(); var right = Greeting() }
    var _$fields = Observed(Fields())
  }
  enum PairAction: Equatable, Sendable { case left(GreetingFeature.Action), right(GreetingFeature.Action) }

  @Test func aChildsOverrideDoesNotLeakToItsSibling() async {
    let gate = Gate()
    let store = TestStore(initialState: Pair()) {
      Scope(state: \.left, action: PairAction.left) {
        GreetingFeature(gates: ["c": gate]).dependency(\.greeter, Greeter { "Left \($0)" })
      }
      Scope(state: \.right, action: PairAction.right) { GreetingFeature() }
    } withDependencies: {
      $0.greeter = Greeter { "Right \($0)" }
    }
    await store.send(.left(.greet("a"))) { $0.left.text = "Left a" }
    await store.send(.right(.greet("b"))) { $0.right.text = "Right b" }
    await store.send(.left(.greetLater("c")))  // the override goes with the child's effect
    gate.open()
    await store.receive(.left(.greeted("Left c"))) { $0.left.text = "Left c" }
  }

  @Test func withDependenciesScopesPlainCode() {
    let id = withDependencies { $0.uuid = .incrementing } operation: {
      @Dependency(\.uuid) var uuid
      _ = uuid()
      return uuid()
    }
    #expect(id == UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
    @Dependency(\.number) var number
    #expect(number == 42)  // outside: the default in a test, the test value
  }

  @Test func builtInGenerators() async {
    let epoch = Date(timeIntervalSince1970: 0)
    withDependencies {
      $0.date = .constant(epoch)
      $0.uuid = .constant(UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")!)
    } operation: {
      @Dependency(\.date) var date
      @Dependency(\.uuid) var uuid
      #expect(date.now == epoch)
      #expect(uuid().uuidString == "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")
    }
    let store = TestStore(initialState: Greeting()) { GreetingFeature() } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.makeID) { $0.id = UUID(uuidString: "00000000-0000-0000-0000-000000000000") }
    await store.send(.makeID) { $0.id = UUID(1) }
    #expect(UUID(10).uuidString == "00000000-0000-0000-0000-00000000000A")
    withDependencies {
      $0.date.now = epoch  // TCA's spelling
    } operation: {
      @Dependency(\.date) var date
      #expect(date.now == epoch)
    }
  }

  /// Changing a dependency in place (`$0.date.now = d`) overrides it: the unimplemented value it
  /// starts from is not a use, and a test that never reads the date does not fail. A use names
  /// the property.
  @Test func changingADependencyInPlaceIsNotAUseOfIt() async {
    let store = TestStore(initialState: Greeting()) { GreetingFeature() } withDependencies: {
      $0.uuid = .incrementing
      $0.date.now = Date(timeIntervalSince1970: 0)
    }
    await store.send(.makeID) { $0.id = UUID(0) }
    let issues = await recordIssues {
      let store = TestStore(initialState: Greeting()) { DateFeature() }
      store.exhaustivity = .off
      await store.send(.stamp)
    }
    #expect(issues.first?.message.contains("Unimplemented dependency: \\.date") == true, "\(issues)")
  }

  // On one serial executor, so that the timer is asleep again before the advance goes on (see
  // TestClockTests): a sleep until the instant the advance ended at would wait for the next one.
  @Test func aTimerKeepsItsDeadlinesWhenATestClockJumps() async {
    let clock = TestClock()
    let executor = SerialTaskExecutor()
    let ticks = Task(executorPreference: executor) {
      var count = 0
      for await _ in clock.timer(interval: .seconds(1)) {
        count += 1
        if count == 3 { break }
      }
      return count
    }
    await withTaskExecutorPreference(executor) {
      await clock.waitForSleepers(1)
      await clock.advance(by: .seconds(3))  // one jump past three deadlines: three ticks
    }
    #expect(await ticks.value == 3)
  }

  @Test func anImmediateClockDoesNotWait() async throws {
    let clock = ImmediateClock()
    let start = clock.now
    try await clock.sleep(for: .seconds(3600))
    #expect(start.duration(to: clock.now) == .seconds(3600))
  }

  // MARK: - Dismiss

  struct Sheet: Reducer {
    enum Action: Equatable, Sendable { case saveTapped }
    @Dependency(\.dismiss) var dismiss
    func reduce(into state: inout Greeting, action: Action) -> Effect<Action> {
      .run { _ in await dismiss() }
    }
  }
  struct Host: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var sheet: Greeting? = Greeting() }
    var _$fields = Observed(Fields())
  }
  enum HostAction: Equatable, Sendable { case sheet(PresentationAction<Sheet.Action>) }

  @Test func theDismissDependencyDismissesThePresentedFeature() async {
    let store = TestStore(initialState: Host()) {
      EmptyReducer<Host, HostAction>().ifLet(\.sheet, action: HostAction.sheet) { Sheet() }
    }
    await store.send(.sheet(.presented(.saveTapped)))
    await store.receive(.sheet(.dismiss)) { $0.sheet = nil }
  }
}
