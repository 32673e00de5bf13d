import Foundation
import StoreTesting
import Testing
import ValueStore

/// Effects started by actions sent by name; the task a failed send returns; weak references in
/// payloads; nested presentations.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathSendEffectsAdversarialTests {
  struct State: ObservableState, Equatable {
    struct Fields: Equatable { var ticks = 0; var log: [String] = [] }
    var _$fields = Observed(Fields())
  }
  enum Timer: Equatable, Sendable { case start(every: Duration), tick, stop }
  enum Action: Equatable, Sendable {
    case timer(Timer)
    case load(id: Int)
    case loaded(Result<String, AdvOtherError>)
  }
  struct Feature: Reducer {
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .timer(.start(interval)):
        return .run { send in
          for await _ in clock.timer(interval: interval) { await send(.timer(.tick)) }
        }
        .cancellable(id: "timer", cancelInFlight: true)
      case .timer(.tick):
        state.ticks += 1
        return .none
      case .timer(.stop):
        return .cancel(id: "timer")
      case let .load(id):
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.loaded(id < 0 ? .failure(AdvOtherError(code: id)) : .success("item \(id)")))
        }
      case let .loaded(.success(value)):
        state.log.append(value)
        return .none
      case let .loaded(.failure(error)):
        state.log.append("error \(error.code)")
        return .none
      }
    }
  }

  @Test func effectsOfActionsSentByName() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) { Feature(clock: clock) }
    await store.send(\.timer.start, Duration.seconds(1))
    await clock.advance(by: .seconds(2))
    await store.receive(\.timer.tick) { $0.ticks = 1 }
    await store.receive(\.timer.tick) { $0.ticks = 2 }
    await store.send(\.timer.stop)
    await store.send(\.load, 3)
    await clock.advance(by: .seconds(1))
    await store.receive(\.loaded.success, "item 3") { $0.log = ["item 3"] }
    await store.send(\.load, -2)
    await clock.advance(by: .seconds(1))
    await store.receive(\.loaded.failure, AdvOtherError(code: -2)) { $0.log.append("error -2") }
  }

  @Test func theTaskOfASendByNameCancelsItsEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) { Feature(clock: clock) }
    let task = await store.send(\.timer.start, Duration.seconds(1))
    #expect(task.isInFlight)
    await task.cancel()
    #expect(!task.isInFlight)
  }

  /// A send that fails sends nothing: its task is not in flight, finishing it returns at once.
  @Test func theTaskOfAFailedSendIsDone() async {
    let clock = TestClock()
    let store = TestStore(initialState: State()) { Feature(clock: clock) }
    await withKnownIssue {
      await store.send(\.timer.strat, Duration.seconds(1))
    }
    let task2 = await sendIgnoringIssue(store, \.timer.start, "1s")
    #expect(!task2.isInFlight)
    await task2.finish()
    await task2.cancel()
  }

  func sendIgnoringIssue(_ store: TestStore<State, Action>, _ path: CaseKeyPath<Action>, _ value: String) async -> TestStoreTask {
    var result: TestStoreTask?
    await withKnownIssue {
      result = await store.send(path, value)
    }
    return result!
  }

  // MARK: weak references

  final class Observer: Sendable { let name: String; init(_ name: String) { self.name = name } }
  struct WeakRef: Sendable, Equatable {
    nonisolated(unsafe) weak var object: Observer?
    static func == (lhs: WeakRef, rhs: WeakRef) -> Bool { lhs.object === rhs.object }
  }
  struct UnownedRef: Sendable, Equatable {
    unowned let object: Observer
    static func == (lhs: UnownedRef, rhs: UnownedRef) -> Bool { lhs.object === rhs.object }
  }
  enum RefAction: Equatable, Sendable { case weak(WeakRef), unowned(UnownedRef), pair(WeakRef, String), none }

  @Test func weakAndUnownedReferencesInPayloads() async {
    let (store, log) = advStore(RefAction.self)
    var strong: Observer? = Observer("o")
    weak let probe = strong
    await store.send(\.weak, WeakRef(object: strong)) { $0.count = 1 }
    await store.send(\.unowned, UnownedRef(object: strong!)) { $0.count = 2 }
    await store.send(\.pair, (WeakRef(object: strong), "p")) { $0.count = 3 }
    guard case let .weak(ref) = log.value[0] else { Issue.record("not .weak"); return }
    #expect(ref.object === strong)
    guard case let .unowned(unownedRef) = log.value[1] else { Issue.record("not .unowned"); return }
    #expect(unownedRef.object.name == "o")
    log.setValue(log.value.filter { if case .unowned = $0 { false } else { true } })
    strong = nil
    #expect(probe == nil, "the weak payloads did not keep it alive")
    guard case let .weak(after) = log.value[0], case let .pair(afterPair, name) = log.value[1] else {
      Issue.record("log changed"); return
    }
    #expect(after.object == nil)
    #expect(afterPair.object == nil && name == "p")
  }

  // MARK: nested presentations

  enum Leaf: Equatable, Sendable { case tap, set(Int) }
  enum Inner: Equatable, Sendable { case sheet(PresentationAction<Leaf>), done }
  enum Outer: Equatable, Sendable { case sheet(PresentationAction<Inner>), alert(PresentationAction<Leaf>) }

  @Test func presentationsInsidePresentations() async {
    let (store, log) = advStore(Outer.self)
    await store.send(\.sheet.sheet.tap) { $0.count = 1 }
    await store.send(\.sheet.sheet.set, 2) { $0.count = 2 }
    await store.send(\.sheet.presented.sheet.presented.tap) { $0.count = 3 }
    await store.send(\.sheet.sheet.dismiss) { $0.count = 4 }
    await store.send(\.sheet.dismiss) { $0.count = 5 }
    await store.send(\.sheet.done) { $0.count = 6 }
    #expect(log.value == [
      .sheet(.presented(.sheet(.presented(.tap)))),
      .sheet(.presented(.sheet(.presented(.set(2))))),
      .sheet(.presented(.sheet(.presented(.tap)))),
      .sheet(.presented(.sheet(.dismiss))),
      .sheet(.dismiss),
      .sheet(.presented(.done)),
    ])
    await withKnownIssue {
      await store.send(\.alert.presented.presented.tap)
    }
    #expect(log.value.count == 6)
  }
}

/// Stack element ids written as numbers at the edges: negative, huge, other integer types.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathStackIDAdversarialTests {
  enum Element: Equatable, Sendable { case tap }
  enum Action: Equatable, Sendable { case path(StackAction<Int, Element>) }

  @Test func numbersAtTheEdges() async {
    let (store, log) = advStore(Action.self)
    await store.send(\.path[id: 0].tap) { $0.count = 1 }
    await store.send(\.path[id: 1_000_000].tap) { $0.count = 2 }
    // Numbers no stack ever gives (negative, Int.min) are built as written: the reducer reports
    // the element as gone, as it would for a hand-written id.
    await store.send(\.path[id: -1].tap) { $0.count = 3 }
    await store.send(\.path[id: Int.max].tap) { $0.count = 4 }
    await store.send(\.path[id: Int.min].tap) { $0.count = 5 }
    // An integer of another type is taken as the literal it would be written as.
    await store.send(\.path[id: UInt8(2)].tap) { $0.count = 6 }
    #expect(log.value == [
      .path(.element(id: 0, action: .tap)), .path(.element(id: 1_000_000, action: .tap)),
      .path(.element(id: -1, action: .tap)), .path(.element(id: StackElementID(integerLiteral: Int.max), action: .tap)),
      .path(.element(id: StackElementID(integerLiteral: Int.min), action: .tap)),
      .path(.element(id: 2, action: .tap)),
    ])
  }

  @Test func popFromAndPushWithNumbers() async {
    let (store, log) = advStore(Action.self)
    // popFrom's id written as a number is taken as the StackElementID literal.
    await store.send(\.path.popFrom, 0) { $0.count = 1 }
    // A tuple is taken element by element: push's id written as a number too.
    await store.send(\.path.push, (id: 0, state: 5)) { $0.count = 2 }
    #expect(log.value == [.path(.popFrom(id: 0)), .path(.push(id: 0, state: 5))])
  }
}
