import StoreTesting
import Testing
import ValueStore

/// Details of navigation stacks TCA's `StackReducerTests` (and `PresentationReducerTests`, for
/// the case subscript's twin) specify.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct StackDetailsTests {
  enum Element: Equatable, Sendable, CasePathable {
    case int(Int)
    case text(String)
  }

  struct Screen: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var path = StackState<Int>()
      var elements = StackState<Element>()
    }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable {
    case path(StackAction<Int, Never>)
    case elements(StackAction<Element, Never>)
    case buttonTapped, response
  }

  struct Feature: Reducer {
    var body: some Reducer<Screen, Action> {
      Reduce<Screen, Action> { state, action in
        switch action {
        case .buttonTapped:
          state.path.append(1)
          return .send(.response)
        case .response:
          state.path.append(2)
          return .none
        case .path, .elements:
          return .none
        }
      }
      .forEach(\.path, action: Action.path) { EmptyReducer() }
      .forEach(\.elements, action: Action.elements) { EmptyReducer() }
    }
  }

  /// Warnings reported in `operation`.
  func warnings(_ operation: () -> Void) -> [String] {
    let warnings = LockIsolated<[String]>([])
    RuntimeWarning.withHandler({ message in warnings.withValue { $0.append(message) } }, operation: operation)
    return warnings.value
  }

  // MARK: - Pushing

  /// A push of an id past the stack's next is reported, and pushed: later ids count on from it.
  @Test func testPushIDGreaterThanNextGeneration() async {
    let store = TestStore(initialState: Screen()) { Feature() }
    await withKnownIssue {
      await store.send(.path(.push(id: 1, state: 10))) { $0.path[id: 1] = 10 }
    } matching: { $0.description.contains("push(id: #1), an unexpected id: the stack's next is #0") }
    await store.send(.path(.push(id: 2, state: 20))) { $0.path[id: 2] = 20 }
    await store.send(.buttonTapped) { $0.path[id: 3] = 1 }
    await store.receive(.response) { $0.path[id: 4] = 2 }
  }

  /// An id the stack has used is refused (ids are never reused), also in a test.
  @Test func testPushReusedID() async {
    let store = TestStore(initialState: Screen()) { Feature() }
    await store.send(.path(.push(id: 0, state: 10))) { $0.path[id: 0] = 10 }
    await withKnownIssue {
      await store.send(.path(.push(id: 0, state: 11)))
    } matching: { $0.description.contains("an id the stack has used") }
  }

  // MARK: - The case subscript

  @Test func testStackStateSubscriptCase() {
    var stack = StackState<Element>([.int(42)])
    stack[id: 0, case: Element.int]? += 1
    #expect(stack[id: 0] == .int(43))
    stack[id: 0, case: Element.int] = nil
    #expect(stack.isEmpty)
  }

  /// Changing an element through a case it is not in changes nothing and is reported.
  @Test func testStackStateSubscriptCase_Unexpected() {
    var stack = StackState<Element>([.int(42)])
    let reported = warnings {
      stack[id: 0, case: Element.text]?.append("!")
      stack[id: 0, case: Element.text] = nil
      stack[id: 5, case: Element.int]? += 1  // no element #5
    }
    #expect(reported.count == 3)
    #expect(reported.prefix(2).allSatisfy { $0.hasSuffix(#"Can't modify unrelated case "int""#) })
    #expect(Array(stack) == [.int(42)])
  }

  /// In a `TestStore`'s expectation the wrong case is a test failure.
  @Test func wrongCaseInAnExpectationFailsTheTest() async {
    let store = TestStore(initialState: Screen()) { Feature() }
    await withKnownIssue {
      await store.send(.elements(.push(id: 0, state: .int(1)))) {
        $0.elements[id: 0] = .int(1)
        $0.elements[id: 0, case: Element.text]?.append("!")
      }
    } matching: { $0.description.contains(#"Can't modify unrelated case "int""#) }
  }

  @Test func testPresentationStateSubscriptCase() {
    var child: Element? = .int(42)
    child[case: Element.int]? += 1
    #expect(child == .int(43))
    child[case: Element.int] = nil
    #expect(child == nil)
  }

  @Test func testPresentationStateSubscriptCase_Unexpected() {
    var child: Element? = .int(42)
    let reported = warnings {
      child[case: Element.text]?.append("!")
      child[case: Element.text] = nil
    }
    #expect(reported.count == 2)
    #expect(reported.allSatisfy { $0.hasSuffix(#"Can't modify unrelated case "int""#) })
    #expect(child == .int(42))
  }

  // MARK: - The generator

  /// In a test the generator counts from 0, a new one per test.
  @Test func stackElementIDGeneratorIncrementsInTests() {
    @Dependency(\.stackElementID) var stackElementID
    #expect(stackElementID.peek() == 0)
    #expect(stackElementID() == 0)
    #expect(stackElementID.next() == 1)
    #expect(stackElementID.peek() == 2)
  }

  /// A test's stacks number their own elements, whatever the test did with the generator.
  @Test func testSendCopiesStackElementIDGenerator() async {
    let store = TestStore(initialState: Screen()) { Feature() }
    await store.send(.buttonTapped) {
      $0.path[id: 0] = 1
      @Dependency(\.stackElementID) var stackElementID
      _ = stackElementID.next()
      _ = stackElementID.next()
      _ = stackElementID.next()
    }
    await store.receive(.response) {
      $0.path[id: 1] = 2
      @Dependency(\.stackElementID) var stackElementID
      _ = stackElementID.next()
      _ = stackElementID.next()
      _ = stackElementID.next()
    }
    await store.send(.buttonTapped) { $0.path[id: 2] = 1 }
    await store.receive(.response) { $0.path[id: 3] = 2 }
  }

  /// In an app every append takes the process's next id, so an id the generator gives is new to
  /// every stack: pushing it is never refused, and is not reported.
  @Test func liveAppendsTakeTheGeneratorsIDs() {
    withDependencies { $0 = DependencyValues(context: .live) } operation: {
      @Dependency(\.stackElementID) var stackElementID
      var first = StackState<Int>()
      var second = StackState<Int>()
      first.append(1)
      second.append(2)
      first.append(3)
      #expect(first.ids == [0, 2])
      #expect(second.ids == [1])
      #expect(stackElementID.peek() == 3)
      let id = stackElementID()
      let reported = warnings { second[id: id] = 4 }
      #expect(reported.isEmpty)
      #expect(second.ids == [1, 3])
    }
  }
}
