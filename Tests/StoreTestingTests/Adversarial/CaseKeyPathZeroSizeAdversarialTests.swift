import Foundation
import StoreTesting
import Testing
import ValueStore

/// Cases whose payload takes no bytes: `case failed(EmptyError)` with `struct EmptyError: Error {}`,
/// a child enum of a single payload-less case, a generic enum instantiated with an empty struct.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathZeroSizeAdversarialTests {
  enum Loadable<T: Equatable & Sendable>: Equatable, Sendable {
    case loading
    case loaded(T)
    case failed(AdvEmptyError)
  }
  enum OneEmpty: Equatable, Sendable { case only }
  enum Action: Equatable, Sendable {
    case load(Loadable<Int>)
    case loadEmpty(Loadable<AdvEmptyError>)
    case failed(AdvEmptyError)
    case oneEmpty(OneEmpty)
    case tapped
  }

  struct Feature: Reducer {
    func reduce(into state: inout AdvTally, action: Action) -> Effect<Action> {
      switch action {
      case .tapped: return .send(.load(.failed(AdvEmptyError())))
      case .oneEmpty: return .send(.loadEmpty(.loading))
      default: state.count += 1; return .none
      }
    }
  }

  @Test func sendingAnEmptyStructPayload() async {
    let (store, log) = advStore(Action.self)
    await store.send(\.failed, AdvEmptyError()) { $0.count = 1 }
    await store.send(\.load.failed, AdvEmptyError()) { $0.count = 2 }
    await store.send(\.oneEmpty.only) { $0.count = 3 }
    await store.send(\.loadEmpty.loading) { $0.count = 4 }
    await store.send(\.loadEmpty.loaded, AdvEmptyError()) { $0.count = 5 }
    await store.send(\.loadEmpty.failed, AdvEmptyError()) { $0.count = 6 }
    #expect(log.value == [
      .failed(AdvEmptyError()), .load(.failed(AdvEmptyError())), .oneEmpty(.only), .loadEmpty(.loading),
      .loadEmpty(.loaded(AdvEmptyError())), .loadEmpty(.failed(AdvEmptyError())),
    ])
  }

  /// What a user tries next: the payload-less spelling. TCA does not compile it (the case is not
  /// `Void`); here it fails naming the payload type, and sends nothing.
  @Test func sendingAnEmptyStructCaseWithoutItsPayloadFails() async {
    let (store, log) = advStore(Action.self)
    await withKnownIssue {
      await store.send(\.failed)
    } matching: { "\($0)".contains("\\.failed names no action to send: the case carries AdvEmptyError, but no value was given") }
    await withKnownIssue {
      await store.send(\.load.failed)
    } matching: { "\($0)".contains("\\.load.failed names no action to send: the case carries AdvEmptyError, but no value was given") }
    await withKnownIssue {
      await store.send(\.oneEmpty)
    } matching: {
      "\($0)".contains("\\.oneEmpty names no action to send: the case carries CaseKeyPathZeroSizeAdversarialTests.OneEmpty, but no value was given")
    }
    #expect(log.value.isEmpty)
  }

  @Test func receivingAnEmptyStructCase() async {
    let store = TestStore(initialState: AdvTally()) { Feature() }
    await store.send(.tapped)
    await store.receive(\.load.failed) { $0.count = 1 }
    await store.send(.tapped)
    await store.receive(\.load.failed, AdvEmptyError()) { $0.count = 2 }
  }

  @Test func receivingInAGenericEnumOverAnEmptyStruct() async {
    let store = TestStore(initialState: AdvTally()) { Feature() }
    await store.send(.oneEmpty(.only))
    await store.receive(\.loadEmpty.loading) { $0.count = 1 }
  }

  enum AllEmpty: Equatable, Sendable {
    case a(AdvEmptyError)
    case b(AdvEmptyError, AdvEmptyError)
    case c(OneEmpty)
    case d(Result<AdvEmptyError, Never>)
    case e
  }
  enum Wrapper<T: Equatable & Sendable>: Equatable, Sendable { case value(T) }
  enum MoreAction: Equatable, Sendable {
    case all(AllEmpty)
    case wrapEmpty(Wrapper<AdvEmptyError>)
    case wrapInt(Wrapper<Int>)
    case wrapOne(Wrapper<OneEmpty>)
    case optEmpty(AdvEmptyError?)
    case neverResult(Result<Int, Never>)
  }

  @Test func enumsOfOnlyZeroSizePayloads() async {
    let (store, log) = advStore(MoreAction.self)
    await store.send(\.all.a, AdvEmptyError()) { $0.count = 1 }
    await store.send(\.all.b, (AdvEmptyError(), AdvEmptyError())) { $0.count = 2 }
    await store.send(\.all.c.only) { $0.count = 3 }
    await store.send(\.all.d.success, AdvEmptyError()) { $0.count = 4 }
    await store.send(\.all.e) { $0.count = 5 }
    await store.send(\.wrapEmpty.value, AdvEmptyError()) { $0.count = 6 }
    await store.send(\.wrapInt.value, 3) { $0.count = 7 }
    await store.send(\.wrapOne.value.only) { $0.count = 8 }
    await store.send(\.optEmpty, AdvEmptyError()) { $0.count = 9 }
    await store.send(\.optEmpty, AdvEmptyError?.none) { $0.count = 10 }
    await store.send(\.neverResult.success, 4) { $0.count = 11 }
    await store.send(\.optEmpty, nil) { $0.count = 12 }
    #expect(log.value == [
      .all(.a(AdvEmptyError())), .all(.b(AdvEmptyError(), AdvEmptyError())), .all(.c(.only)),
      .all(.d(.success(AdvEmptyError()))), .all(.e), .wrapEmpty(.value(AdvEmptyError())),
      .wrapInt(.value(3)), .wrapOne(.value(.only)), .optEmpty(AdvEmptyError()), .optEmpty(nil),
      .neverResult(.success(4)), .optEmpty(nil),
    ])
  }

  @Test func receivingZeroSizeShapes() async {
    let store = TestStore(initialState: AdvTally()) {
      Reduce<AdvTally, MoreAction> { state, action in
        if case .wrapInt = action {
          return .merge(.send(.all(.b(AdvEmptyError(), AdvEmptyError()))), .send(.wrapOne(.value(.only))), .send(.optEmpty(nil)))
        }
        return .none
      }
    }
    await store.send(\.wrapInt.value, 1)
    await store.receive(\.all.b)
    await store.receive(\.wrapOne.value.only)
    await store.receive(\.optEmpty, AdvEmptyError?.none)
    await store.send(\.wrapInt.value, 2)
    await store.receive(\.all.b)
    await store.receive(\.wrapOne.value.only)
    await store.receive(\.optEmpty, nil)
  }
}
