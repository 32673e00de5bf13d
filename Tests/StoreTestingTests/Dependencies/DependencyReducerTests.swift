import Foundation
import StoreTesting
import Testing
import ValueStore

/// TCA's `DependencyKeyWritingReducerTests`, case by case (same names), and the dependency cases
/// of its `StoreTests` and `TestStoreTests`.
enum MyValueKey: DependencyKey {
  static let liveValue = 0
  static let testValue = 0
}

struct CountClient: DependencyKey, Sendable {
  var value = 0
  static let liveValue = CountClient()
  static let testValue = CountClient()
}

extension DependencyValues {
  var myValue: Int {
    get { self[MyValueKey.self] }
    set { self[MyValueKey.self] = newValue }
  }
  var count: CountClient {
    get { self[CountClient.self] }
    set { self[CountClient.self] = newValue }
  }
}

struct ValueState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable { var value = 0 }
  var _$fields = Observed(Fields())
}

/// Sets the state to the dependency `myValue` on `.tap`.
struct MyValueFeature: Reducer {
  enum Action: Equatable, Sendable { case tap }
  @Dependency(\.myValue) var myValue
  func reduce(into state: inout ValueState, action: Action) -> Effect<Action> {
    state.value = myValue
    return .none
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct DependencyKeyWritingReducerTests {
  @Test func testWritingFusion() {
    let reducer: _DependencyKeyWritingReducer<MyValueFeature> = MyValueFeature()
      .dependency(\.myValue, 42)
      .dependency(\.myValue, 1729)
      .dependency(\.myValue, 1)
      .dependency(\.myValue, 2)
      .dependency(\.myValue, 3)
    #expect((reducer as Any) is _DependencyKeyWritingReducer<MyValueFeature>)
  }

  @Test func testTransformFusion() {
    let reducer: _DependencyKeyWritingReducer<MyValueFeature> = MyValueFeature()
      .transformDependency(\.myValue) { $0 = 42 }
      .transformDependency(\.myValue) { $0 = 1729 }
      .transformDependency(\.myValue) { $0 = 1 }
      .transformDependency(\.myValue) { $0 = 2 }
      .transformDependency(\.myValue) { $0 = 3 }
    #expect((reducer as Any) is _DependencyKeyWritingReducer<MyValueFeature>)
  }

  @Test func testWritingFusionOrder() async {
    let store = TestStore(initialState: ValueState()) {
      MyValueFeature()
        .dependency(\.myValue, 42)
        .dependency(\.myValue, 1729)
    }
    await store.send(.tap) { $0.value = 42 }
  }

  @Test func testTransformFusionOrder() async {
    let store = TestStore(initialState: ValueState()) {
      MyValueFeature()
        .transformDependency(\.myValue) { $0 = 42 }
        .transformDependency(\.myValue) { $0 = 1729 }
    }
    await store.send(.tap) { $0.value = 42 }
  }

  @Test func testWritingOrder() async {
    let store = TestStore(initialState: ValueState()) {
      CombineReducers {
        MyValueFeature().dependency(\.myValue, 42)
      }
      .dependency(\.myValue, 1729)
    }
    await store.send(.tap) { $0.value = 42 }
  }

  @Test func testTransformOrder() async {
    let store = TestStore(initialState: ValueState()) {
      CombineReducers {
        MyValueFeature().transformDependency(\.myValue) { $0 = 42 }
      }
      .transformDependency(\.myValue) { $0 = 1729 }
    }
    await store.send(.tap) { $0.value = 42 }
  }

  struct EffectOfEffect: Reducer {
    enum Action: Equatable, Sendable { case tap, response(Int), otherResponse(Int) }
    @Dependency(\.myValue) var myValue
    func reduce(into state: inout ValueState, action: Action) -> Effect<Action> {
      switch action {
      case .tap:
        state.value += 1
        return .run { send in await send(.response(myValue)) }
      case let .response(value):
        state.value = value
        return .run { send in await send(.otherResponse(myValue)) }
      case let .otherResponse(value):
        state.value = value
        return .none
      }
    }
  }

  @Test func testDependency_EffectOfEffect() async {
    let store = TestStore(initialState: ValueState()) {
      EffectOfEffect().dependency(\.myValue, 42)
    }
    await store.send(.tap) { $0.value = 1 }
    await store.receive(.response(42)) { $0.value = 42 }
    await store.receive(.otherResponse(42))
  }
}

/// Overrides a dependency in the reducer before returning each effect: the effect keeps it.
struct StoreVsTestStoreFeature: Reducer {
  enum Action: Equatable, Sendable { case tap, response1(Int), response2(Int), response3(Int) }
  @Dependency(\.count) var count
  func reduce(into state: inout ValueState, action: Action) -> Effect<Action> {
    switch action {
    case .tap:
      return withDependencies { $0.count.value += 1 } operation: {
        .run { send in await send(.response1(count.value)) }
      }
    case let .response1(count):
      state.value = count
      return withDependencies { $0.count.value += 1 } operation: {
        .run { send in await send(.response2(self.count.value)) }
      }
    case let .response2(count):
      state.value = count
      return withDependencies { $0.count.value += 1 } operation: {
        .run { send in await send(.response3(self.count.value)) }
      }
    case let .response3(count):
      state.value = count
      return .none
    }
  }
}

/// Reads the dependencies it is given on the reducer or the test store: none has a test value.
struct ReadsUnimplementedDependencies: Reducer {
  enum Action: Equatable, Sendable { case tap }
  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.continuousClock) var clock
  func reduce(into state: inout ValueState, action: Action) -> Effect<Action> {
    _ = uuid()
    _ = date.now
    _ = clock.now
    state.value += 1
    return .none
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct DependencyStoreTests {
  @Test func testStoreVsTestStore() async {
    let testStore = TestStore(initialState: ValueState()) { StoreVsTestStoreFeature() }
    await testStore.send(.tap)
    await testStore.receive(.response1(1)) { $0.value = 1 }
    await testStore.receive(.response2(1))
    await testStore.receive(.response3(1))

    let store = Store(initialState: ValueState()) { StoreVsTestStoreFeature() }
    await store.send(.tap).finish()
    #expect(store.value == testStore.state.value)
  }

  @Test func testInit_ReducerBuilder_WithDependencies() {
    struct Feature: Reducer {
      let date: Date
      enum Action: Equatable, Sendable { case tap }
      func reduce(into state: inout ValueState, action: Action) -> Effect<Action> {
        state.value = Int(date.timeIntervalSinceReferenceDate)
        return .none
      }
    }
    @Dependency(\.date) var date
    let store = Store(initialState: ValueState()) {
      Feature(date: date())
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 1_234_567_890))
    }
    store.send(.tap)
    #expect(store.value == 1_234_567_890)
  }

  @Test func testOverrideDependenciesDirectlyOnReducer() async {
    let store = TestStore(initialState: ValueState()) {
      ReadsUnimplementedDependencies()
        .dependency(\.uuid, .incrementing)
        .dependency(\.date, .constant(someDate))
        .dependency(\.continuousClock, ImmediateClock())
    }
    await store.send(.tap) { $0.value = 1 }
  }

  @Test func testOverrideDependenciesOnTestStore() async {
    let store = TestStore(initialState: ValueState()) { ReadsUnimplementedDependencies() }
    store.dependencies.uuid = .incrementing
    store.dependencies.date.now = someDate
    store.dependencies.continuousClock = ImmediateClock()
    await store.send(.tap) { $0.value = 1 }
  }

  @Test func testOverrideDependenciesOnTestStore_Init() async {
    let store = TestStore(initialState: ValueState()) { ReadsUnimplementedDependencies() } withDependencies: {
      $0.uuid = .incrementing
      $0.date.now = someDate
      $0.continuousClock = ImmediateClock()
    }
    await store.send(.tap) { $0.value = 1 }
  }

  /// Code under `swift test` outside any test store is in the test context; so is a plain store
  /// made there.
  @Test func theTestContextOutsideATestStore() {
    #expect(DependencyValues.current.context == .test)
    @Dependency(\.context) var context
    #expect(context == .test)
    @Dependency(\.myValue) var myValue
    withDependencies { $0.context = .live } operation: { #expect(context == .live) }
  }

  /// `withDependencies` with an asynchronous body is called from main-actor code, and its body runs
  /// there (Swift 6).
  @Test func asyncWithDependenciesFromTheMainActor() async {
    final class NotSendable { var value = 0 }
    let box = NotSendable()
    await withDependencies { $0.myValue = 7 } operation: {
      await Task.yield()
      @Dependency(\.myValue) var myValue
      box.value = myValue
    }
    #expect(box.value == 7)
  }
}
