import Testing
@testable import ValueStore

/// The case of an enum value, read from the runtime, for every shape of enum a user writes.
@Suite(.timeLimit(.minutes(1))) struct EnumTagTests {
  enum Plain { case a, b, c }
  enum SinglePayload { case a(Int), b, c }
  enum MultiPayload { case a(Int), b(String), c, d(Child) }
  enum SharedPayload { case a(Int), b(Int), c(Int) }
  enum Generic<T> { case x(T), y }
  indirect enum Tree { case leaf(Int), node(Tree, Tree), empty }
  enum Tuple { case pair(Int, String), triple(Int, Int, Int), none }
  protocol Shape {}
  struct Square: Shape {}
  enum Existential { case shape(any Shape), any(Any), nothing }
  final class Ref {}
  enum Reference { case ref(Ref), other(Ref), none }

  /// Values of one enum type, grouped by case: tags agree within a group and differ across.
  static func check<E>(_ groups: [[E]], sourceLocation: SourceLocation = #_sourceLocation) {
    let tags = groups.map { $0.map { EnumTag.tag(of: $0) } }
    for group in tags { #expect(Set(group).count == 1, sourceLocation: sourceLocation) }
    #expect(Set(tags.map { $0[0] }).count == groups.count, sourceLocation: sourceLocation)
    #expect(EnumTag.isEnum(E.self), sourceLocation: sourceLocation)
  }

  @Test func everyShapeOfEnumTellsItsCasesApart() {
    Self.check([[Plain.a], [.b], [.c]])
    Self.check([[SinglePayload.a(0), .a(-1), .a(.max)], [.b], [.c]])
    Self.check([[MultiPayload.a(1), .a(2)], [.b(""), .b("long string, not inline")], [.c], [.d(Child()), .d(Child(count: 2))]])
    Self.check([[SharedPayload.a(1), .a(2)], [.b(1), .b(2)], [.c(1)]])
    Self.check([[Generic<Int>.x(1), .x(2)], [.y]])
    Self.check([[Generic<String>.x("a")], [.y]])
    Self.check([[Generic<Child>.x(Child())], [.y]])
    Self.check([[Generic<Plain>.x(.a), .x(.c)], [.y]])
    Self.check([[Tree.leaf(1)], [.node(.empty, .leaf(2)), .node(.leaf(1), .empty)], [.empty]])
    Self.check([[Tuple.pair(1, "a")], [.triple(1, 2, 3)], [.none]])
    Self.check([[Existential.shape(Square())], [.any(1), .any("x")], [.nothing]])
    Self.check([[Reference.ref(Ref())], [.other(Ref())], [.none]])
    Self.check([[Int?.some(1), .some(2)], [nil]])
    Self.check([[Child?.some(Child())], [nil]])
    Self.check([[Plain??.some(.some(.a)), .some(.some(.b)), .some(nil)], [nil]])
  }

  @Test func onlyEnumsHaveCases() {
    #expect(!EnumTag.isEnum(Int.self))
    #expect(!EnumTag.isEnum(Child.self))
    #expect(!EnumTag.isEnum(Ref.self))
    #expect(!EnumTag.isEnum((Int, Int).self))
    #expect(!EnumTag.isEnum((any Shape).self))
  }

  @Test func identitiesOfCasesNeverCollide() {
    // Payload-less cases, a payload case, and nil: all distinct, and equal to themselves.
    let child = Child()
    let identities = [
      ObservationIdentity(caseOf: MultiPayload.c),
      ObservationIdentity(caseOf: MultiPayload.d(child), child),
      ObservationIdentity(caseOf: MultiPayload.b("x")),
      Optional<Child>.none.observationIdentity,
      child.observationIdentity,
    ]
    for (i, a) in identities.enumerated() {
      for (j, b) in identities.enumerated() { #expect((a == b) == (i == j)) }
    }
    #expect(ObservationIdentity(caseOf: Plain.a) == ObservationIdentity(caseOf: Plain.a))
  }

  /// Swift 6.3.1 at `-Onone` loops forever over an array of structs holding an `unowned(unsafe)`
  /// optional reference, which `ObservationIdentity` was: the loop here is bounded, so a
  /// regression fails instead of hanging.
  @Test func identitiesCanBeIteratedOver() {
    let child = Child()
    let identities = [ObservationIdentity(caseOf: Plain.a), child.observationIdentity, Child?.none.observationIdentity]
    var visited: [Int] = []
    for (index, _) in identities.enumerated() {
      visited.append(index)
      if visited.count > identities.count { break }
    }
    #expect(visited == [0, 1, 2])
  }

  @Test func aNonEnumHasNoCase() async {
    await #expect(processExitsWith: .failure) { _ = EnumTag.tag(of: 3) }
  }
}
