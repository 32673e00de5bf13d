import Foundation
import StoreTesting
import Testing
import ValueStore

/// `send(\.a.b, value)` must build exactly the action written by hand, for every payload layout a
/// TCA user writes.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct CaseKeyPathSendShapesAdversarialTests {
  enum Choice: Equatable, Sendable { case red, green, blue }

  /// Many cases, payloads of every size and with/without spare bits, payload-less cases between.
  enum Mixed: Equatable, Sendable {
    case a
    case b(Int8)
    case c(String)
    case d(Int64)
    case e(Bool)
    case f
    case g(Double)
    case h(UInt16)
    case i([Int])
    case j(Set<String>)
    case k([String: Int])
    case l(UUID)
    case m(Date?)
    case n(Character)
    case o(Float)
    case p
    case q(Choice)
    case r(Choice?)
    case s(Int??)
    case t(AdvBox)
    case u(AdvBox?)
    case v(AdvBig)
    case w(Substring)
    case x(UInt8)
    case y([AdvBox])
    case z
  }

  enum Labeled: Equatable, Sendable {
    case response(id: Int, value: String)
    case point(x: Double, y: Double)
    case triple(Int, String, Bool)
    case single(value: Int)
    case nested(outer: Int, inner: Choice?)
    case big(first: AdvBig, second: AdvBig)
  }

  enum L6: Equatable, Sendable { case leaf(String), tap }
  enum L5: Equatable, Sendable { case six(L6), other(Int) }
  enum L4: Equatable, Sendable { case five(L5), none }
  enum L3: Equatable, Sendable { case four(L4), x(String), y(Int) }
  enum L2: Equatable, Sendable { case three(L3) }
  enum L1: Equatable, Sendable { case two(L2), stop }

  enum Loadable<T: Equatable & Sendable>: Equatable, Sendable {
    case loading
    case loaded(T)
    case failed(AdvEmptyError)
  }

  enum Zeros: Equatable, Sendable {
    case empty(AdvEmptyError)
    case void(Void?)
    case value(Int)
    case none
    static func == (lhs: Zeros, rhs: Zeros) -> Bool {
      switch (lhs, rhs) {
      case (.empty, .empty), (.none, .none): true
      case let (.void(l), .void(r)): (l == nil) == (r == nil)
      case let (.value(l), .value(r)): l == r
      default: false
      }
    }
  }

  enum One: Equatable, Sendable { case only(Int) }
  enum OneEmpty: Equatable, Sendable { case only }
  enum OneBig: Equatable, Sendable { case only(AdvBig) }
  enum OneClass: Equatable, Sendable { case only(AdvBox) }
  enum OneEmptyPayload: Equatable, Sendable { case only(AdvEmptyError) }

  enum WithNever: Equatable, Sendable { case impossible(Never), ok(Int), fine }

  enum References: Equatable, Sendable { case box(AdvBox), text(String), flag(Bool), nothing }

  enum Action: Equatable, Sendable {
    case mixed(Mixed)
    case labeled(Labeled)
    case deep(L1)
    case loadInt(Loadable<Int>)
    case loadBox(Loadable<AdvBox>)
    case loadString(Loadable<String>)
    case loadEmpty(Loadable<AdvEmptyError>)
    case loadChoice(Loadable<Choice?>)
    case zeros(Zeros)
    case one(One)
    case oneEmpty(OneEmpty)
    case oneBig(OneBig)
    case oneClass(OneClass)
    case oneEmptyPayload(OneEmptyPayload)
    case never(WithNever)
    case references(References)
    case optionalChild(Mixed?)
    case tapped
  }

  /// (path, payload, the action written by hand)
  static var rows: [(CaseKeyPath<Action>, (any Sendable)?, Action, SourceLocation)] {
    let uuid = UUID(uuidString: "DEADBEEF-0000-0000-0000-000000000001")!
    let date = Date(timeIntervalSince1970: 1_000_000)
    return [
      (\.mixed.a, nil, .mixed(.a), #_sourceLocation),
      (\.mixed.b, Int8(-3), .mixed(.b(-3)), #_sourceLocation),
      (\.mixed.c, "c", .mixed(.c("c")), #_sourceLocation),
      (\.mixed.c, String(repeating: "long", count: 40), .mixed(.c(String(repeating: "long", count: 40))), #_sourceLocation),
      (\.mixed.d, Int64.min, .mixed(.d(.min)), #_sourceLocation),
      (\.mixed.e, false, .mixed(.e(false)), #_sourceLocation),
      (\.mixed.e, true, .mixed(.e(true)), #_sourceLocation),
      (\.mixed.f, nil, .mixed(.f), #_sourceLocation),
      (\.mixed.g, -0.5, .mixed(.g(-0.5)), #_sourceLocation),
      (\.mixed.h, UInt16.max, .mixed(.h(.max)), #_sourceLocation),
      (\.mixed.i, [1, 2, 3], .mixed(.i([1, 2, 3])), #_sourceLocation),
      (\.mixed.i, [Int](), .mixed(.i([])), #_sourceLocation),
      (\.mixed.j, Set(["x", "y"]), .mixed(.j(["x", "y"])), #_sourceLocation),
      (\.mixed.k, ["k": 1], .mixed(.k(["k": 1])), #_sourceLocation),
      (\.mixed.l, uuid, .mixed(.l(uuid)), #_sourceLocation),
      (\.mixed.m, date, .mixed(.m(date)), #_sourceLocation),
      (\.mixed.m, Date?.none as any Sendable, .mixed(.m(nil)), #_sourceLocation),
      (\.mixed.n, Character("é"), .mixed(.n("é")), #_sourceLocation),
      (\.mixed.o, Float(1.5), .mixed(.o(1.5)), #_sourceLocation),
      (\.mixed.p, nil, .mixed(.p), #_sourceLocation),
      (\.mixed.q, Choice.blue, .mixed(.q(.blue)), #_sourceLocation),
      (\.mixed.r, Choice.green, .mixed(.r(.green)), #_sourceLocation),
      (\.mixed.r, Choice?.none as any Sendable, .mixed(.r(nil)), #_sourceLocation),
      (\.mixed.s, Int??.some(nil) as any Sendable, .mixed(.s(.some(nil))), #_sourceLocation),
      (\.mixed.s, Int??.none as any Sendable, .mixed(.s(nil)), #_sourceLocation),
      (\.mixed.s, 5, .mixed(.s(5)), #_sourceLocation),
      (\.mixed.t, AdvBox(9), .mixed(.t(AdvBox(9))), #_sourceLocation),
      (\.mixed.u, AdvBox(8), .mixed(.u(AdvBox(8))), #_sourceLocation),
      (\.mixed.u, AdvBox?.none as any Sendable, .mixed(.u(nil)), #_sourceLocation),
      (\.mixed.v, AdvBig(), .mixed(.v(AdvBig())), #_sourceLocation),
      (\.mixed.w, Substring("sub"), .mixed(.w("sub")), #_sourceLocation),
      (\.mixed.x, UInt8(255), .mixed(.x(255)), #_sourceLocation),
      (\.mixed.y, [AdvBox(1), AdvBox(2)], .mixed(.y([AdvBox(1), AdvBox(2)])), #_sourceLocation),
      (\.mixed.z, nil, .mixed(.z), #_sourceLocation),
      (\.labeled.response, (id: 1, value: "one"), .labeled(.response(id: 1, value: "one")), #_sourceLocation),
      (\.labeled.response, (1, "one"), .labeled(.response(id: 1, value: "one")), #_sourceLocation),
      (\.labeled.point, (x: 1.0, y: -2.0), .labeled(.point(x: 1, y: -2)), #_sourceLocation),
      (\.labeled.triple, (1, "t", true), .labeled(.triple(1, "t", true)), #_sourceLocation),
      (\.labeled.single, 4, .labeled(.single(value: 4)), #_sourceLocation),
      (\.labeled.nested, (outer: 1, inner: Choice?.some(.red)), .labeled(.nested(outer: 1, inner: .red)), #_sourceLocation),
      (\.labeled.nested, (outer: 1, inner: Choice?.none), .labeled(.nested(outer: 1, inner: nil)), #_sourceLocation),
      (\.labeled.big, (first: AdvBig(), second: AdvBig(e: 1)), .labeled(.big(first: AdvBig(), second: AdvBig(e: 1))), #_sourceLocation),
      (\.deep.two.three.four.five.six.leaf, "deep", .deep(.two(.three(.four(.five(.six(.leaf("deep"))))))), #_sourceLocation),
      (\.deep.two.three.four.five.six.tap, nil, .deep(.two(.three(.four(.five(.six(.tap)))))), #_sourceLocation),
      (\.deep.two.three.four.five.other, 3, .deep(.two(.three(.four(.five(.other(3)))))), #_sourceLocation),
      (\.deep.two.three.four.none, nil, .deep(.two(.three(.four(.none)))), #_sourceLocation),
      (\.deep.two.three.y, 1, .deep(.two(.three(.y(1)))), #_sourceLocation),
      (\.deep.stop, nil, .deep(.stop), #_sourceLocation),
      (\.deep.two.three.four, L4.five(.six(.tap)), .deep(.two(.three(.four(.five(.six(.tap)))))), #_sourceLocation),
      (\.loadInt.loaded, 1, .loadInt(.loaded(1)), #_sourceLocation),
      (\.loadInt.loading, nil, .loadInt(.loading), #_sourceLocation),
      (\.loadInt.failed, AdvEmptyError(), .loadInt(.failed(AdvEmptyError())), #_sourceLocation),
      (\.loadBox.loaded, AdvBox(2), .loadBox(.loaded(AdvBox(2))), #_sourceLocation),
      (\.loadBox.failed, AdvEmptyError(), .loadBox(.failed(AdvEmptyError())), #_sourceLocation),
      (\.loadBox.loading, nil, .loadBox(.loading), #_sourceLocation),
      (\.loadString.loaded, "s", .loadString(.loaded("s")), #_sourceLocation),
      (\.loadEmpty.loaded, AdvEmptyError(), .loadEmpty(.loaded(AdvEmptyError())), #_sourceLocation),
      (\.loadEmpty.failed, AdvEmptyError(), .loadEmpty(.failed(AdvEmptyError())), #_sourceLocation),
      (\.loadEmpty.loading, nil, .loadEmpty(.loading), #_sourceLocation),
      (\.loadChoice.loaded, Choice.red, .loadChoice(.loaded(.red)), #_sourceLocation),
      (\.loadChoice.loaded, Choice?.none as any Sendable, .loadChoice(.loaded(nil)), #_sourceLocation),
      (\.zeros.empty, AdvEmptyError(), .zeros(.empty(AdvEmptyError())), #_sourceLocation),
      (\.zeros.void, (), .zeros(.void(())), #_sourceLocation),
      (\.zeros.void, Void?.none as any Sendable, .zeros(.void(nil)), #_sourceLocation),
      (\.zeros.value, 3, .zeros(.value(3)), #_sourceLocation),
      (\.zeros.none, nil, .zeros(.none), #_sourceLocation),
      (\.one.only, 11, .one(.only(11)), #_sourceLocation),
      (\.oneEmpty.only, nil, .oneEmpty(.only), #_sourceLocation),
      (\.oneBig.only, AdvBig(a: "x"), .oneBig(.only(AdvBig(a: "x"))), #_sourceLocation),
      (\.oneClass.only, AdvBox(5), .oneClass(.only(AdvBox(5))), #_sourceLocation),
      (\.oneEmptyPayload.only, AdvEmptyError(), .oneEmptyPayload(.only(AdvEmptyError())), #_sourceLocation),
      (\.never.ok, 2, .never(.ok(2)), #_sourceLocation),
      (\.never.fine, nil, .never(.fine), #_sourceLocation),
      (\.references.box, AdvBox(3), .references(.box(AdvBox(3))), #_sourceLocation),
      (\.references.text, "t", .references(.text("t")), #_sourceLocation),
      (\.references.flag, true, .references(.flag(true)), #_sourceLocation),
      (\.references.nothing, nil, .references(.nothing), #_sourceLocation),
      (\.optionalChild.c, "opt", .optionalChild(.c("opt")), #_sourceLocation),
      (\.optionalChild.some.c, "opt", .optionalChild(.c("opt")), #_sourceLocation),
      (\.optionalChild, Mixed.f, .optionalChild(.f), #_sourceLocation),
      (\.optionalChild, Mixed?.none as any Sendable, .optionalChild(nil), #_sourceLocation),
      (\.tapped, nil, .tapped, #_sourceLocation),
    ]
  }

  /// Each row is sent through a test store one at a time; the reducer must see the hand-written
  /// action, and nothing else.
  @Test func everyShapeReachesTheReducerAsWrittenByHand() async {
    for (path, payload, expected, location) in Self.rows {
      let (store, log) = advStore(Action.self)
      if let payload {
        await store.send(path, payload) { $0.count = 1 }
      } else {
        await store.send(path) { $0.count = 1 }
      }
      #expect(log.value == [expected], sourceLocation: location)
      // And the same path receives it back.
      #expect(path.extract(from: expected) != nil, sourceLocation: location)
    }
  }

  /// The built value owns its payload: no over-release (a later crash), no leak.
  @Test func bigPayloadsWithReferencesAreRetainedOnceAndReleased() async {
    weak var weakBox: AdvBox?
    do {
      let (store, log) = advStore(Action.self)
      let box = AdvBox(77)
      weakBox = box
      var big = AdvBig()
      big.d = box
      await store.send(\.mixed.v, big) { $0.count = 1 }
      await store.send(\.labeled.big, (first: big, second: big)) { $0.count = 2 }
      await store.send(\.mixed.y, [box, box]) { $0.count = 3 }
      await store.send(\.oneBig.only, big) { $0.count = 4 }
      await store.send(\.loadBox.loaded, box) { $0.count = 5 }
      await store.send(\.mixed.u, box) { $0.count = 6 }
      await store.send(\.tapped) { $0.count = 7 }
      #expect(log.value.count == 7)
      #expect(log.value.allSatisfy { action in
        switch action {
        case let .mixed(.v(v)): v.d === box
        case let .labeled(.big(first, second)): first.d === box && second.d === box
        case let .mixed(.y(boxes)): boxes.allSatisfy { $0 === box }
        case let .oneBig(.only(v)): v.d === box
        case let .loadBox(.loaded(b)): b === box
        case let .mixed(.u(b)): b === box
        case .tapped: true
        default: false
        }
      })
      log.setValue([])
    }
    #expect(weakBox == nil, "the payload leaked")
  }

  /// Sent 1,000 times with fresh strings: the payload's storage survives each action.
  @Test func manyStringsSurvive() async {
    let (store, log) = advStore(Action.self)
    store.exhaustivity = .off
    for i in 0..<300 {
      await store.send(\.mixed.c, String(repeating: "é", count: i))
      await store.send(\.labeled.response, (id: i, value: "v\(i)-" + String(repeating: "z", count: 40)))
    }
    let values = log.value
    #expect(values.count == 600)
    #expect(values[598] == .mixed(.c(String(repeating: "é", count: 299))))
    #expect(values[599] == .labeled(.response(id: 299, value: "v299-" + String(repeating: "z", count: 40))))
  }

  /// An enum of more than 256 payload-less cases needs a two-byte tag.
  @Test func aCaseBeyondTheFirstByteOfTags() async {
    let (store, log) = advStore(ManyCases.self)
    await store.send(\.c299) { $0.count = 1 }
    await store.send(\.c255) { $0.count = 2 }
    await store.send(\.c256) { $0.count = 3 }
    await store.send(\.c0) { $0.count = 4 }
    #expect(log.value == [.c299, .c255, .c256, .c0])
  }

  enum ManyCasesWrapper: Equatable, Sendable { case many(ManyCases), other(String) }
  @Test func aCaseBeyondTheFirstByteOfTagsNested() async {
    let (store, log) = advStore(ManyCasesWrapper.self)
    await store.send(\.many.c280) { $0.count = 1 }
    await store.send(\.many, ManyCases.c257) { $0.count = 2 }
    await store.send(\.other, "x") { $0.count = 3 }
    #expect(log.value == [.many(.c280), .many(.c257), .other("x")])
  }
}

enum ManyCases: Equatable, Sendable {
  case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20, c21, c22, c23, c24, c25, c26, c27, c28, c29, c30, c31, c32, c33, c34, c35, c36, c37, c38, c39, c40, c41, c42, c43, c44, c45, c46, c47, c48, c49, c50, c51, c52, c53, c54, c55, c56, c57, c58, c59, c60, c61, c62, c63, c64, c65, c66, c67, c68, c69, c70, c71, c72, c73, c74, c75, c76, c77, c78, c79, c80, c81, c82, c83, c84, c85, c86, c87, c88, c89, c90, c91, c92, c93, c94, c95, c96, c97, c98, c99
  case c100, c101, c102, c103, c104, c105, c106, c107, c108, c109, c110, c111, c112, c113, c114, c115, c116, c117, c118, c119, c120, c121, c122, c123, c124, c125, c126, c127, c128, c129, c130, c131, c132, c133, c134, c135, c136, c137, c138, c139, c140, c141, c142, c143, c144, c145, c146, c147, c148, c149, c150, c151, c152, c153, c154, c155, c156, c157, c158, c159, c160, c161, c162, c163, c164, c165, c166, c167, c168, c169, c170, c171, c172, c173, c174, c175, c176, c177, c178, c179, c180, c181, c182, c183, c184, c185, c186, c187, c188, c189, c190, c191, c192, c193, c194, c195, c196, c197, c198, c199
  case c200, c201, c202, c203, c204, c205, c206, c207, c208, c209, c210, c211, c212, c213, c214, c215, c216, c217, c218, c219, c220, c221, c222, c223, c224, c225, c226, c227, c228, c229, c230, c231, c232, c233, c234, c235, c236, c237, c238, c239, c240, c241, c242, c243, c244, c245, c246, c247, c248, c249, c250, c251, c252, c253, c254, c255, c256, c257, c258, c259, c260, c261, c262, c263, c264, c265, c266, c267, c268, c269, c270, c271, c272, c273, c274, c275, c276, c277, c278, c279, c280, c281, c282, c283, c284, c285, c286, c287, c288, c289, c290, c291, c292, c293, c294, c295, c296, c297, c298, c299
}
