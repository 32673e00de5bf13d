import Foundation
import StoreTesting
import Testing
import ValueStore

/// Payloads of Foundation and standard-library types with unusual layouts, in multi-payload
/// enums; `Result<Void, any Error>`; custom and enum ids.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathSendFoundationAdversarialTests {
  enum Payloads: Equatable, Sendable {
    case data(Data)
    case optionalData(Data?)
    case url(URL)
    case date(Date)
    case decimal(Decimal)
    case duration(Duration)
    case range(Range<Int>)
    case closed(ClosedRange<Double>)
    case dict([Int: [String]])
    case optInt(Int?)
    case optBool(Bool?)
    case optString(String?)
    case boxes(AdvBox?, AdvBox?)
    case nested(Result<Data?, AdvOtherError>)
    case none
  }

  enum Action: Equatable, Sendable {
    case payloads(Payloads)
    case other(Int)
  }

  @Test func foundationPayloads() async {
    let (store, log) = advStore(Action.self)
    let small = Data([1, 2, 3])
    let large = Data(repeating: 7, count: 1_000)
    let url = URL(string: "https://example.com/a?b=c")!
    var expected: [Action] = []
    func check(_ path: CaseKeyPath<Action>, _ value: some Sendable, _ action: Action) async {
      await store.send(path, value) { $0.count = expected.count + 1 }
      expected.append(action)
    }
    await check(\.payloads.data, small, .payloads(.data(small)))
    await check(\.payloads.data, large, .payloads(.data(large)))
    await check(\.payloads.data, Data(), .payloads(.data(Data())))
    await check(\.payloads.optionalData, small, .payloads(.optionalData(small)))
    await check(\.payloads.optionalData, Data?.none, .payloads(.optionalData(nil)))
    await check(\.payloads.url, url, .payloads(.url(url)))
    await check(\.payloads.date, Date(timeIntervalSince1970: 5), .payloads(.date(Date(timeIntervalSince1970: 5))))
    await check(\.payloads.decimal, Decimal(string: "1.25")!, .payloads(.decimal(Decimal(string: "1.25")!)))
    await check(\.payloads.duration, Duration.seconds(3), .payloads(.duration(.seconds(3))))
    await check(\.payloads.range, 1..<4, .payloads(.range(1..<4)))
    await check(\.payloads.closed, 0.5...1.5, .payloads(.closed(0.5...1.5)))
    await check(\.payloads.dict, [1: ["a"]], .payloads(.dict([1: ["a"]])))
    await check(\.payloads.optInt, 0, .payloads(.optInt(0)))
    await check(\.payloads.optInt, Int?.none, .payloads(.optInt(nil)))
    await check(\.payloads.optBool, false, .payloads(.optBool(false)))
    await check(\.payloads.optBool, Bool?.none, .payloads(.optBool(nil)))
    await check(\.payloads.optString, "", .payloads(.optString("")))
    await check(\.payloads.optString, String?.none, .payloads(.optString(nil)))
    await check(\.payloads.boxes, (AdvBox(1), AdvBox?.none), .payloads(.boxes(AdvBox(1), nil)))
    await check(\.payloads.nested.success, small, .payloads(.nested(.success(small))))
    await check(\.payloads.nested.success, Data?.none, .payloads(.nested(.success(nil))))
    await check(\.payloads.nested.failure, AdvOtherError(code: 1), .payloads(.nested(.failure(AdvOtherError(code: 1)))))
    await check(\.other, 1, .other(1))
    await store.send(\.payloads.none) { $0.count = expected.count + 1 }
    expected.append(.payloads(.none))
    #expect(log.value == expected)
  }

  /// TCA's `case saveResponse(Result<Void, any Error>)`, sent as `\.saveResponse.success`.
  enum SaveAction: Sendable {
    case saveResponse(Result<Void, any Error>)
    case typed(Result<Void, AdvOtherError>)
  }

  @Test func resultOfVoid() async {
    let (store, log) = advStore(SaveAction.self)
    await store.send(\.saveResponse.success) { $0.count = 1 }
    await store.send(\.saveResponse.failure, AdvOtherError(code: 5)) { $0.count = 2 }
    await store.send(\.typed.success) { $0.count = 3 }
    await store.send(\.typed.failure, AdvOtherError(code: 6)) { $0.count = 4 }
    await store.send(\.saveResponse.success, ()) { $0.count = 5 }
    let described = log.value.map { action -> String in
      switch action {
      case .saveResponse(.success): "save ok"
      case let .saveResponse(.failure(error)): "save \((error as? AdvOtherError)?.code ?? -1)"
      case .typed(.success): "typed ok"
      case let .typed(.failure(error)): "typed \(error.code)"
      }
    }
    #expect(described == ["save ok", "save 5", "typed ok", "typed 6", "save ok"])
  }

  struct RowID: Hashable, Sendable, ExpressibleByIntegerLiteral {
    let raw: Int
    init(raw: Int) { self.raw = raw }
    init(integerLiteral value: Int) { self.raw = value }
  }
  enum Tab: Hashable, Sendable { case home, settings, profile(String) }

  enum IDAction: Equatable, Sendable {
    case rows(IdentifiedAction<RowID, Payloads>)
    case tabs(IdentifiedAction<Tab, Payloads>)
    case bytes(IdentifiedAction<UInt8, Payloads>)
  }

  @Test func customIDs() async {
    let (store, log) = advStore(IDAction.self)
    await store.send(\.rows[id: RowID(raw: 3)].none) { $0.count = 1 }
    await store.send(\.tabs[id: Tab.settings].optInt, 2) { $0.count = 2 }
    await store.send(\.tabs[id: Tab.profile("me")].none) { $0.count = 3 }
    await store.send(\.bytes[id: UInt8(9)].none) { $0.count = 4 }
    #expect(log.value == [
      .rows(.element(id: 3, action: .none)),
      .tabs(.element(id: .settings, action: .optInt(2))),
      .tabs(.element(id: .profile("me"), action: .none)),
      .bytes(.element(id: 9, action: .none)),
    ])
  }

  /// With a constructor, `.element(id: 3, …)` infers `RowID` from the literal; through `[id: 3]`
  /// the number is taken as the integer literal it would be written as, too.
  @Test func literalIDsOfAnotherType() async {
    let (store, log) = advStore(IDAction.self)
    await store.send(\.rows[id: 3].none) { $0.count = 1 }
    await store.send(\.bytes[id: 9].none) { $0.count = 2 }
    // A number the id type cannot hold is not taken.
    await withKnownIssue {
      await store.send(\.bytes[id: 300].none)
    } matching: { "\($0)".contains("the case carries UInt8, not Int") }
    #expect(log.value == [
      .rows(.element(id: RowID(raw: 3), action: .none)),
      .bytes(.element(id: UInt8(9), action: .none)),
    ])
  }
}
