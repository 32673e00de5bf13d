import Foundation
import StoreTesting
import Testing
import ValueStore

protocol AdvShape: Sendable { var area: Double { get } }
struct AdvSquare: AdvShape { var side: Double; var area: Double { side * side } }
final class AdvCircle: AdvShape { let r: Double; init(r: Double) { self.r = r }; var area: Double { 3 * r * r } }
protocol AdvObjectShape: AnyObject, Sendable { var name: String { get } }
final class AdvNamed: AdvObjectShape { let name: String; init(_ name: String) { self.name = name } }

/// Actions that are not `Equatable`: closures, existentials, `Result<_, any Error>`.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathSendExoticAdversarialTests {
  struct State: ObservableState, Equatable {
    struct Fields: Equatable { var log: [String] = [] }
    var _$fields = Observed(Fields())
  }

  enum Child: Sendable {
    case compute(@Sendable (Int) -> Int)
    case callback(@Sendable () -> String)
    case transform(@Sendable (String, Int) -> String)
    case asyncWork(@Sendable () async -> Int)
    case throwing(@Sendable () throws -> Int)
    case optionalClosure((@Sendable (Int) -> Int)?)
    case labeledClosure(name: String, make: @Sendable (Int) -> String)
  }
  enum Existential: Sendable {
    case error(any Error)
    case sendable(any Sendable)
    case shape(any AdvShape)
    case object(any AdvObjectShape)
    case optionalError((any Error)?)
    case hashable(AnyHashableSendable)
    case metatype(any AdvShape.Type)
  }
  enum Action: Sendable {
    case child(Child)
    case existential(Existential)
    case response(Result<Int, any Error>)
    case typedResponse(Result<String, AdvOtherError>)
    case animal(AdvAnimal)
    case number(Double)
    case int64(Int64)
    case cgish(Float)
    case text(String)
    case char(Character)
    case set(Set<Int>)
    case doubles([Double])
    case optionalInt(Int?)
    case optionalText(String?)
  }

  struct Feature: Reducer {
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .child(.compute(f)): state.log.append("compute \(f(20))")
      case let .child(.callback(f)): state.log.append("callback \(f())")
      case let .child(.transform(f)): state.log.append("transform \(f("a", 3))")
      case let .child(.asyncWork(f)): return .run { _ in _ = await f() }
      case let .child(.throwing(f)): state.log.append("throwing \((try? f()) ?? -1)")
      case let .child(.optionalClosure(f)): state.log.append("optional \(f.map { $0(5) } ?? -1)")
      case let .child(.labeledClosure(name, make)): state.log.append("\(name) \(make(9))")
      case let .existential(.error(error)): state.log.append("error \(type(of: error)) \(error)")
      case let .existential(.sendable(value)): state.log.append("sendable \(type(of: value)) \(value)")
      case let .existential(.shape(shape)): state.log.append("shape \(type(of: shape)) \(shape.area)")
      case let .existential(.object(object)): state.log.append("object \(object.name)")
      case let .existential(.optionalError(error)): state.log.append("optionalError \(error.map { "\($0)" } ?? "nil")")
      case let .existential(.hashable(value)): state.log.append("hashable \(value)")
      case let .existential(.metatype(type)): state.log.append("metatype \(type)")
      case let .response(.success(value)): state.log.append("success \(value)")
      case let .response(.failure(error)): state.log.append("failure \(type(of: error))")
      case let .typedResponse(.success(value)): state.log.append("typed success \(value)")
      case let .typedResponse(.failure(error)): state.log.append("typed failure \(error.code)")
      case let .animal(animal): state.log.append("animal \(type(of: animal)) \(animal.name)")
      case let .number(value): state.log.append("number \(value)")
      case let .int64(value): state.log.append("int64 \(value)")
      case let .cgish(value): state.log.append("float \(value)")
      case let .text(value): state.log.append("text \(value)")
      case let .char(value): state.log.append("char \(value)")
      case let .set(value): state.log.append("set \(value.sorted())")
      case let .doubles(value): state.log.append("doubles \(value)")
      case let .optionalInt(value): state.log.append("optionalInt \(String(describing: value))")
      case let .optionalText(value): state.log.append("optionalText \(String(describing: value))")
      }
      return .none
    }
  }

  func makeStore() -> TestStore<State, Action> { TestStore(initialState: State()) { Feature() } }

  /// A closure payload (TCA: `case onSave(@Sendable (Item) -> Void)`, rare but legal) cannot be
  /// sent by name (a documented limit); the failure names the case and says why.
  nonisolated static func refusal(_ name: String) -> String {
    "CaseKeyPathSendExoticAdversarialTests.Child.\(name) carries a function or a metatype: it cannot be built by name"
  }

  @Test func closurePayloadsAreRefusedByName() async {
    let store = makeStore()
    let offset = 22
    await withKnownIssue {
      await store.send(\.child.compute, { @Sendable (x: Int) -> Int in x * 2 + offset }) {
        $0.log = ["compute 62"]
      }
    } matching: { "\($0)".contains(Self.refusal("compute")) }
    await withKnownIssue {
      await store.send(\.child.callback, { @Sendable () -> String in "called" }) {
        $0.log.append("callback called")
      }
    } matching: { "\($0)".contains(Self.refusal("callback")) }
    await withKnownIssue {
      await store.send(\.child.transform, { @Sendable (s: String, n: Int) -> String in String(repeating: s, count: n) }) {
        $0.log.append("transform aaa")
      }
    } matching: { "\($0)".contains(Self.refusal("transform")) }
    await withKnownIssue {
      await store.send(\.child.throwing, { @Sendable () throws -> Int in 4 }) {
        $0.log.append("throwing 4")
      }
    } matching: { "\($0)".contains(Self.refusal("throwing")) }
    await withKnownIssue {  // a labeled tuple holding a closure
      await store.send(\.child.labeledClosure, (name: "n", make: { @Sendable (x: Int) -> String in "\(x)!" })) {
        $0.log.append("n 9!")
      }
    } matching: { "\($0)".contains(Self.refusal("labeledClosure")) }
    #expect(store.state.log.isEmpty)
  }

  @Test func optionalClosurePayloadIsRefusedByName() async {
    let store = makeStore()
    let f: (@Sendable (Int) -> Int)? = { $0 + 1 }
    await withKnownIssue {
      await store.send(\.child.optionalClosure, f) { $0.log = ["optional 6"] }
    } matching: { "\($0)".contains(Self.refusal("optionalClosure")) }
    #expect(store.state.log.isEmpty)
  }

  @Test func asyncClosurePayloadIsRefusedByName() async {
    let store = makeStore()
    let called = LockIsolated(false)
    await withKnownIssue {
      await store.send(\.child.asyncWork, { @Sendable () async -> Int in called.setValue(true); return 1 })
    } matching: { "\($0)".contains(Self.refusal("asyncWork")) }
    await store.finish()
    #expect(!called.value)
  }

  @Test func existentialPayloadsFromConcreteValues() async {
    let store = makeStore()
    await store.send(\.existential.error, AdvOtherError(code: 3)) {
      $0.log = ["error AdvOtherError AdvOtherError(code: 3)"]
    }
    await store.send(\.existential.sendable, 42) { $0.log.append("sendable Int 42") }
    await store.send(\.existential.shape, AdvSquare(side: 2)) { $0.log.append("shape AdvSquare 4.0") }
    await store.send(\.existential.shape, AdvCircle(r: 1)) { $0.log.append("shape AdvCircle 3.0") }
    await store.send(\.existential.object, AdvNamed("obj")) { $0.log.append("object obj") }
    await store.send(\.existential.optionalError, AdvEmptyError()) { $0.log.append("optionalError AdvEmptyError()") }
    await store.send(\.existential.hashable, AnyHashableSendable(5)) { $0.log.append("hashable 5") }
    await store.send(\.existential.metatype, AdvSquare.self) { $0.log.append("metatype AdvSquare") }
  }

  @Test func existentialPayloadsFromExistentialValues() async {
    let store = makeStore()
    let error: any Error = AdvOtherError(code: 4)
    await store.send(\.existential.error, error) { $0.log = ["error AdvOtherError AdvOtherError(code: 4)"] }
    let shape: any AdvShape = AdvSquare(side: 3)
    await store.send(\.existential.shape, shape) { $0.log.append("shape AdvSquare 9.0") }
    let value: any Sendable = "s"
    await store.send(\.existential.sendable, value) { $0.log.append("sendable String s") }
  }

  @Test func resultWithAnyErrorPayloads() async {
    let store = makeStore()
    await store.send(\.response.success, 42) { $0.log = ["success 42"] }
    await store.send(\.response.failure, AdvEmptyError()) { $0.log.append("failure AdvEmptyError") }
    await store.send(\.response.failure, AdvOtherError()) { $0.log.append("failure AdvOtherError") }
    let error: any Error = AdvOtherError()
    await store.send(\.response.failure, error) { $0.log.append("failure AdvOtherError") }
    await store.send(\.response, Result<Int, any Error>.success(1)) { $0.log.append("success 1") }
    await store.send(\.typedResponse.success, "ok") { $0.log.append("typed success ok") }
    await store.send(\.typedResponse.failure, AdvOtherError(code: 9)) { $0.log.append("typed failure 9") }
  }

  @Test func subclassPayload() async {
    let store = makeStore()
    await store.send(\.animal, AdvAnimal(name: "generic")) { $0.log = ["animal AdvAnimal generic"] }
    await store.send(\.animal, AdvDog(name: "rex")) { $0.log.append("animal AdvDog rex") }
  }

  /// Literals: with a constructor the compiler infers `Double` from `1`; through a case key path
  /// an integer is taken as the integer literal it would be written as. Other literals (a float
  /// literal for a `Float`, a string for a `Character`, an array for a `Set`, elements of an array)
  /// keep the type inferred from the literal alone.
  @Test func literalsOfAnotherDefaultType() async {
    let store = makeStore()
    await store.send(\.number, 1) { $0.log = ["number 1.0"] }
    await store.send(\.int64, 1) { $0.log.append("int64 1") }
    await withKnownIssue("a float literal is a Double, not the Float the case carries") {
      await store.send(\.cgish, 1.5)
    } matching: { "\($0)".contains("the case carries Float, not Double") }
    await withKnownIssue("a string literal is a String, not a Character") {
      await store.send(\.char, "c")
    } matching: { "\($0)".contains("the case carries Character, not String") }
    await withKnownIssue("an array literal is an Array, not a Set") {
      await store.send(\.set, [1, 2])
    } matching: { "\($0)".contains("the case carries Set<Int>, not Array<Int>") }
    await withKnownIssue("[1, 2] is [Int], not [Double]") {
      await store.send(\.doubles, [1, 2])
    } matching: { "\($0)".contains("the case carries Array<Double>, not Array<Int>") }
    #expect(store.state.log == ["number 1.0", "int64 1"])
    await store.send(\.number, 1.0) { $0.log.append("number 1.0") }
    await store.send(\.int64, Int64(1)) { $0.log.append("int64 1") }
  }

  @Test func optionalsFromValuesAndNil() async {
    let store = makeStore()
    await store.send(\.optionalInt, 3) { $0.log = ["optionalInt Optional(3)"] }
    await store.send(\.optionalInt, Int?.none) { $0.log.append("optionalInt nil") }
    await store.send(\.optionalText, "t") { $0.log.append("optionalText Optional(\"t\")") }
    let maybe: String? = "m"
    await store.send(\.optionalText, maybe) { $0.log.append("optionalText Optional(\"m\")") }
    // `nil` itself: the case with its optional payload empty.
    await store.send(\.optionalInt, nil) { $0.log.append("optionalInt nil") }
    await store.send(\.optionalText, nil) { $0.log.append("optionalText nil") }
  }

  @Test func receivingAnOptionalPayloadByNil() async {
    let store = TestStore(initialState: State()) {
      Reduce<State, Action> { state, action in
        switch action {
        case .text("none"): return .send(.optionalInt(nil))
        case .text("some"): return .send(.optionalInt(3))
        case let .optionalInt(value): state.log.append("optionalInt \(String(describing: value))")
        default: break
        }
        return .none
      }
    }
    await store.send(\.text, "none")
    await store.receive(\.optionalInt, nil) { $0.log = ["optionalInt nil"] }
    // `nil` does not match a present payload.
    await store.send(\.text, "some")
    await withKnownIssue {
      await store.receive(\.optionalInt, nil) { $0.log.append("optionalInt Optional(3)") }
    } matching: { "\($0)".contains("Received unexpected action") }
  }

  @Test func receivesClosureAndExistentialPayloadsByCase() async {
    let store = TestStore(initialState: State()) {
      Reduce<State, Action> { state, action in
        switch action {
        case .text("go"):
          return .merge(
            .send(.response(.failure(AdvEmptyError()))),
            .send(.existential(.error(AdvOtherError(code: 1)))),
            .send(.child(.callback({ "cb" })))
          )
        default: state.log.append("\(action)".prefix(20).description); return .none
        }
      }
    }
    store.exhaustivity = .off
    await store.send(\.text, "go")
    await store.receive(\.response.failure)
    await store.receive(\.existential.error)
    await store.receive(\.child.callback)
  }
}

/// An enum with one closure case and plain cases: are the plain ones still reachable?
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathClosureNeighbourAdversarialTests {
  enum Child: Sendable {
    case run(@Sendable () -> Int)
    case tapped
    case renamed(String)
  }
  enum Action: Sendable { case child(Child), other }

  @Test func plainCasesBesideAClosureCase() async {
    let (store, log) = advStore(Action.self)
    await store.send(\.child.tapped) { $0.count = 1 }
    await store.send(\.child.renamed, "r") { $0.count = 2 }
    await store.send(\.other) { $0.count = 3 }
    let described = log.value.map { action -> String in
      switch action {
      case .child(.tapped): "tapped"
      case let .child(.renamed(s)): "renamed \(s)"
      case let .child(.run(f)): "run \(f())"
      case .other: "other"
      }
    }
    #expect(described == ["tapped", "renamed r", "other"])
  }

  @Test func receivingAClosureCaseByName() async {
    let store = TestStore(initialState: AdvTally()) {
      Reduce<AdvTally, Action> { state, action in
        if case .other = action { return .send(.child(.run { 7 })) }
        return .none
      }
    }
    await store.send(\.other)
    await store.receive(\.child.run)
  }
}

/// A payload held in an existential (`any Sendable`, `any Error`), sent to a case of a concrete type.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathExistentialValueAdversarialTests {
  enum Action: Equatable, Sendable { case count(Int), failed(AdvOtherError), pair(Int, String), many([AdvAnimal]) }

  @Test func existentialValuesAreOpened() async {
    let (store, log) = advStore(Action.self)
    let count: any Sendable = 42
    await store.send(\.count, count) { $0.count = 1 }
    let error: any Error & Sendable = AdvOtherError(code: 3)
    await store.send(\.failed, error) { $0.count = 2 }
    let pair: any Sendable = (1, "a")
    await store.send(\.pair, pair) { $0.count = 3 }
    await store.send(\.many, [AdvDog(name: "d")]) { $0.count = 4 }
    #expect(log.value == [.count(42), .failed(AdvOtherError(code: 3)), .pair(1, "a"), .many([AdvDog(name: "d")])])
  }
}
