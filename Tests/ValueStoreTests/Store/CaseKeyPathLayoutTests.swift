import Foundation
import Testing
@_spi(Testing) @testable import ValueStore

/// Every enum layout a pair of payload types can give — plain values of every size and alignment,
/// references, optionals (spare bits and extra inhabitants), empty types, tuples — built by name
/// through generic enums instantiated with each pair, compared with the value Swift builds, and
/// read back by the same path. (The layouts whose bugs the hand-written rows found — a tuple's
/// 32-bit element offsets, an empty generic payload — are among them.)
struct CaseKeyPathLayoutTests {
  enum Two<A: Equatable & Sendable, B: Equatable & Sendable>: Equatable, Sendable {
    case first(A)
    case second(B)
    case neither
    case both(A, B)
    case labeled(a: A, b: B)
  }
  enum Wrapped<A: Equatable & Sendable>: Equatable, Sendable {
    case inner(Two<A, A>)
    case other
  }

  final class Box: Equatable, Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
    static func == (lhs: Box, rhs: Box) -> Bool { lhs.value == rhs.value }
  }
  struct Empty: Equatable, Sendable {}
  struct Mixed: Equatable, Sendable { var flag = true; var box = Box(2); var byte: UInt8 = 9 }
  enum Small: Equatable, Sendable { case a, b, c }

  static let samples: [any Equatable & Sendable] = [
    7, Int8(-3), UInt16(500), "string", true, 2.5, Float(1.5), Empty(), Box(1), Mixed(),
    Int?.some(1), Int?.none, Box?.some(Box(3)), [1, 2], Small.b, UUID(uuidString: "00000000-0000-0000-0000-000000000002")!,
    (1...3) as ClosedRange<Int>,
  ]

  @Test func everyPairOfPayloadTypesIsBuiltAsSwiftBuildsIt() throws {
    var checked = 0
    for a in Self.samples {
      for b in Self.samples {
        checked += try Self.check(a, b)
      }
    }
    #expect(checked == Self.samples.count * Self.samples.count * 6)
  }

  private static func check(_ a: any Equatable & Sendable, _ b: any Equatable & Sendable) throws -> Int {
    func first<A: Equatable & Sendable>(_ a: A) throws -> Int {
      func second<B: Equatable & Sendable>(_ b: B) throws -> Int {
        try checkPair(a, b)
      }
      return try second(b)
    }
    return try first(a)
  }

  private static func checkPair<A: Equatable & Sendable, B: Equatable & Sendable>(_ a: A, _ b: B) throws -> Int {
    let rows: [(CaseKeyPath<Two<A, B>>, (any Sendable)?, Two<A, B>)] = [
      (\.first, a, .first(a)),
      (\.second, b, .second(b)),
      (\.neither, nil, .neither),
      (\.both, (a, b), .both(a, b)),
      (\.labeled, (a: a, b: b), .labeled(a: a, b: b)),
    ]
    for (path, payload, expected) in rows {
      let built = try _embed(path, payload)
      #expect(built == expected, "\(_describe(path)) of Two<\(A.self), \(B.self)>")
      #expect(path.extract(from: built) != nil, "\(_describe(path)) of Two<\(A.self), \(B.self)> reads back")
    }
    let nested: Wrapped<A> = try _embed(\.inner.both, (a, a))
    #expect(nested == .inner(.both(a, a)), "Wrapped<\(A.self)>.inner.both")
    return rows.count + 1
  }
}
