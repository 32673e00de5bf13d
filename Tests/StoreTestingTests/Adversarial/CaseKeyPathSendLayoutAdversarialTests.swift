import Foundation
import StoreTesting
import Testing
import ValueStore

/// Payload layouts at the edges: over-aligned and huge values, thin metatypes, generic
/// class-constrained payloads, class errors, indirect enums as whole payloads.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathSendLayoutAdversarialTests {
  indirect enum Tree: Equatable, Sendable { case leaf(Int), node(Tree, Tree), empty }

  enum Layout: Equatable, Sendable {
    case vec(SIMD4<Float>)
    case wide(SIMD8<Double>)
    case huge(SIMD64<UInt64>)
    case mixed(Int8, SIMD4<Double>)
    case tree(Tree)
    case small(UInt8)
    case nothing
  }

  enum Generic<T: AnyObject & Sendable & Equatable>: Equatable, Sendable {
    case first(T)
    case second(T)
    case both(T, T)
    case neither
  }

  enum Action: Equatable, Sendable {
    case layout(Layout)
    case generic(Generic<AdvBox>)
    case tapped
  }

  @Test func overAlignedAndHugePayloads() async {
    let (store, log) = advStore(Action.self)
    let vec = SIMD4<Float>(1, 2, 3, 4)
    let wide = SIMD8<Double>(repeating: 2.5)
    var huge = SIMD64<UInt64>(repeating: 0)
    for i in 0..<64 { huge[i] = UInt64(i) &* 0x0101_0101_0101_0101 }
    let tree = Tree.node(.leaf(1), .node(.empty, .leaf(2)))
    await store.send(\.layout.vec, vec) { $0.count = 1 }
    await store.send(\.layout.wide, wide) { $0.count = 2 }
    await store.send(\.layout.huge, huge) { $0.count = 3 }
    await store.send(\.layout.mixed, (Int8(-1), SIMD4<Double>(1, 2, 3, 4))) { $0.count = 4 }
    await store.send(\.layout.tree, tree) { $0.count = 5 }
    await store.send(\.layout.small, UInt8(200)) { $0.count = 6 }
    await store.send(\.layout.nothing) { $0.count = 7 }
    #expect(log.value == [
      .layout(.vec(vec)), .layout(.wide(wide)), .layout(.huge(huge)),
      .layout(.mixed(-1, SIMD4<Double>(1, 2, 3, 4))), .layout(.tree(tree)), .layout(.small(200)),
      .layout(.nothing),
    ])
  }

  /// An integer for a `UInt8` payload is taken as the literal it would be written as, if it fits.
  @Test func integersForAByteSizedPayload() async {
    let (store, log) = advStore(Action.self)
    await store.send(\.layout.small, 7) { $0.count = 1 }
    await store.send(\.layout.small, 255) { $0.count = 2 }
    await withKnownIssue {
      await store.send(\.layout.small, 300)
    } matching: { "\($0)".contains("\\.layout.small names no action to send: the case carries UInt8, not Int") }
    await withKnownIssue {
      await store.send(\.layout.small, -1)
    } matching: { "\($0)".contains("the case carries UInt8, not Int") }
    #expect(log.value == [.layout(.small(7)), .layout(.small(255))])
  }

  @Test func genericClassConstrainedPayloads() async {
    let (store, log) = advStore(Action.self)
    let a = AdvBox(1)
    let b = AdvBox(2)
    await store.send(\.generic.first, a) { $0.count = 1 }
    await store.send(\.generic.second, b) { $0.count = 2 }
    await store.send(\.generic.both, (a, b)) { $0.count = 3 }
    await store.send(\.generic.neither) { $0.count = 4 }
    #expect(log.value == [.generic(.first(a)), .generic(.second(b)), .generic(.both(a, b)), .generic(.neither)])
    guard case let .generic(.second(sent)) = log.value[1] else { Issue.record("not .second"); return }
    #expect(sent === b)
  }

  enum Types: Sendable {
    case thin(Int.Type)
    case existentialType(any Sendable.Type)
    case anyType(Any.Type)
    case nothing
  }

  /// A thin metatype (`Int.Type`) takes no bytes; existential metatypes do. The thin case does not
  /// make the enum's other cases unreadable.
  @Test func metatypePayloads() async {
    let (store, log) = advStore(Types.self)
    await store.send(\.existentialType, String.self) { $0.count = 1 }
    await store.send(\.anyType, Double.self) { $0.count = 2 }
    await store.send(\.nothing) { $0.count = 3 }
    // Limit: the thin-metatype case itself is not built by name, and the message says why.
    await withKnownIssue {
      await store.send(\.thin, Int.self) { $0.count = 4 }
    } matching: {
      "\($0)".contains("CaseKeyPathSendLayoutAdversarialTests.Types.thin carries a function or a metatype: it cannot be built by name")
    }
    let described = log.value.map { action -> String in
      switch action {
      case let .thin(t): "thin \(t)"
      case let .existentialType(t): "existential \(t)"
      case let .anyType(t): "any \(t)"
      case .nothing: "nothing"
      }
    }
    #expect(described == ["existential String", "any Double", "nothing"])
  }

  enum TypesWithoutThin: Sendable {
    case existentialType(any Sendable.Type)
    case anyType(Any.Type)
    case nothing
  }

  @Test func existentialMetatypePayloads() async {
    let (store, log) = advStore(TypesWithoutThin.self)
    await store.send(\.existentialType, String.self) { $0.count = 1 }
    await store.send(\.anyType, Double.self) { $0.count = 2 }
    await store.send(\.nothing) { $0.count = 3 }
    let described = log.value.map { action -> String in
      switch action {
      case let .existentialType(t): "existential \(t)"
      case let .anyType(t): "any \(t)"
      case .nothing: "nothing"
      }
    }
    #expect(described == ["existential String", "any Double", "nothing"])
  }

  /// Receiving from the enum with a thin metatype case.
  @Test func receivingFromAnEnumWithAThinCase() async {
    let store = TestStore(initialState: AdvTally()) {
      Reduce<AdvTally, Types> { state, action in
        if case .anyType = action { return .send(.nothing) }
        return .none
      }
    }
    await store.send(.anyType(Int.self))
    await store.receive(\.nothing)
  }

  enum ErrorAction: Sendable { case response(Result<Int, any Error>), failed(any Error) }

  @Test func classErrors() async {
    let (store, log) = advStore(ErrorAction.self)
    let error = NSError(domain: "adv", code: 42)
    await store.send(\.response.failure, error) { $0.count = 1 }
    await store.send(\.failed, error) { $0.count = 2 }
    await store.send(\.failed, CancellationError()) { $0.count = 3 }
    let codes = log.value.map { action -> String in
      switch action {
      case let .response(.failure(e)), let .failed(e): "\(type(of: e)) \((e as NSError).code)"
      case .response(.success): "success"
      }
    }
    #expect(codes.prefix(2).allSatisfy { $0.hasSuffix(" 42") }, "\(codes)")
    #expect(codes.last?.hasPrefix("CancellationError") == true, "\(codes)")
  }

  /// Single-payload enums: the empty cases live in the payload's extra inhabitants (Bool, a
  /// reference, String, a nested enum) or in an extra tag byte (Int?, UInt8).
  enum SBool: Equatable, Sendable { case flag(Bool), a, b, c }
  enum SRef: Equatable, Sendable { case ref(AdvBox), a, b }
  enum SString: Equatable, Sendable { case s(String), a }
  enum SOptInt: Equatable, Sendable { case opt(Int?), a, b }
  enum SByte: Equatable, Sendable { case byte(UInt8), a }
  enum SEnum: Equatable, Sendable { case choice(SBool), a, b }
  enum SArray: Equatable, Sendable { case items([String]), a }
  enum SGeneric<T: Equatable & Sendable>: Equatable, Sendable { case value(T), a, b }
  enum SingleAction: Equatable, Sendable {
    case bool(SBool), ref(SRef), string(SString), optInt(SOptInt), byte(SByte), nested(SEnum), array(SArray)
    case gBool(SGeneric<Bool>), gInt(SGeneric<Int>), gRef(SGeneric<AdvBox>), gOpt(SGeneric<String?>)
  }

  @Test func singlePayloadEnums() async {
    let (store, log) = advStore(SingleAction.self)
    var expected: [SingleAction] = []
    func check(_ path: CaseKeyPath<SingleAction>, _ value: (any Sendable)?, _ action: SingleAction) async {
      if let value {
        await store.send(path, value) { $0.count = expected.count + 1 }
      } else {
        await store.send(path) { $0.count = expected.count + 1 }
      }
      expected.append(action)
    }
    await check(\.bool.flag, true, .bool(.flag(true)))
    await check(\.bool.flag, false, .bool(.flag(false)))
    await check(\.bool.a, nil, .bool(.a))
    await check(\.bool.c, nil, .bool(.c))
    await check(\.ref.ref, AdvBox(1), .ref(.ref(AdvBox(1))))
    await check(\.ref.b, nil, .ref(.b))
    await check(\.string.s, "s", .string(.s("s")))
    await check(\.string.a, nil, .string(.a))
    await check(\.optInt.opt, 0, .optInt(.opt(0)))
    await check(\.optInt.opt, Int?.none as any Sendable, .optInt(.opt(nil)))
    await check(\.optInt.b, nil, .optInt(.b))
    await check(\.byte.byte, UInt8(255), .byte(.byte(255)))
    await check(\.byte.a, nil, .byte(.a))
    await check(\.nested.choice.flag, true, .nested(.choice(.flag(true))))
    await check(\.nested.choice.c, nil, .nested(.choice(.c)))
    await check(\.nested.b, nil, .nested(.b))
    await check(\.array.items, ["x"], .array(.items(["x"])))
    await check(\.array.a, nil, .array(.a))
    await check(\.gBool.value, true, .gBool(.value(true)))
    await check(\.gBool.b, nil, .gBool(.b))
    await check(\.gInt.value, -1, .gInt(.value(-1)))
    await check(\.gInt.a, nil, .gInt(.a))
    await check(\.gRef.value, AdvBox(2), .gRef(.value(AdvBox(2))))
    await check(\.gRef.b, nil, .gRef(.b))
    await check(\.gOpt.value, String?.none as any Sendable, .gOpt(.value(nil)))
    await check(\.gOpt.value, "o", .gOpt(.value("o")))
    await check(\.gOpt.a, nil, .gOpt(.a))
    #expect(log.value == expected)
  }
}
