import Testing
@testable import ValueStore

/// Every kind of field type × every way of writing it: one accessor decides the semantics from the
/// field's type (`Observed[field:]`), so each kind is checked for each write, on a bare value and in
/// a root, and from generic code where the type is known only at run time.
@Suite struct FieldKindTests {
  /// How the readers of a field (`_ = state.field`) are told of a write.
  enum Expect: Sendable { case notified, quiet }

  struct Point: Equatable, Sendable { var x = 0, y = 0 }  // trivial, Equatable
  struct Pair: Sendable { var a = 0, b = 0 }  // trivial, not Equatable
  final class Token: Sendable {}
  struct Boxed: Sendable { var token = Token() }  // neither
  enum Phase: Equatable, Sendable, ObservationIdentifiable {  // trivial and observable: compared by ==
    case idle, running
    var observationIdentity: ObservationIdentity { ObservationIdentity(case: self == .idle ? 0 : 1) }
    mutating func _detach() {}
  }

  struct Kinds: ObservableState, Sendable {
    struct Fields: Sendable {
      var int = 0
      var maybeInt: Int?
      var point = Point()
      var pair = Pair()
      var text = ""
      var names: [String] = []
      var boxed = Boxed()
      var phase = Phase.idle
      var child = Child()
      var maybeChild: Child? = Child()
      var rows: IdentifiedArrayOf<Row> = [Row(id: 1)]
      var children: [Child] = [Child()]
      var mode = Mode.editing(Child())
    }
    var _$fields = Observed(Fields())
  }

  /// One write shape on one field, and what its readers should see.
  struct Case: CustomStringConvertible, Sendable {
    let description: String
    let read: @Sendable (Kinds) -> Void
    let write: @Sendable (inout Kinds) -> Void
    let expect: Expect
  }

  static func cases() -> [Case] {
    func c(
      _ name: String, _ read: @escaping @Sendable (Kinds) -> Void, _ expect: Expect,
      _ write: @escaping @Sendable (inout Kinds) -> Void
    )
      -> Case
    { Case(description: name, read: read, write: write, expect: expect) }
    return [
      // Trivial Equatable: equal assignments and in-place mutations back to equal are not changes.
      c("int = same", { _ = $0.int }, .quiet) { $0.int = $0.int },
      c("int += 0", { _ = $0.int }, .quiet) { $0.int += 0 },
      c("int += 1", { _ = $0.int }, .notified) { $0.int += 1 },
      c("int = 5", { _ = $0.int }, .notified) { $0.int = 5 },
      c("maybeInt = nil", { _ = $0.maybeInt }, .quiet) { $0.maybeInt = nil },
      c("maybeInt = 1", { _ = $0.maybeInt }, .notified) { $0.maybeInt = 1 },
      c("point.x += 0", { _ = $0.point }, .quiet) { $0.point.x += 0 },
      c("point.x += 1", { _ = $0.point }, .notified) { $0.point.x += 1 },
      c("point = Point()", { _ = $0.point }, .quiet) { $0.point = Point() },
      c("phase = .idle", { _ = $0.phase }, .quiet) { $0.phase = .idle },
      c("phase = .running", { _ = $0.phase }, .notified) { $0.phase = .running },
      // Trivial, not Equatable: every write is a change.
      c("pair = Pair()", { _ = $0.pair }, .notified) { $0.pair = Pair() },
      c("pair.a += 0", { _ = $0.pair }, .notified) { $0.pair.a += 0 },
      // Equatable, not trivial: equal assignments are not changes; in-place mutations are.
      c("text = same", { _ = $0.text }, .quiet) { $0.text = "" },
      c("text = x", { _ = $0.text }, .notified) { $0.text = "x" },
      c("text += x", { _ = $0.text }, .notified) { $0.text += "x" },
      c("names = []", { _ = $0.names }, .quiet) { $0.names = [] },
      c("names.append", { _ = $0.names }, .notified) { $0.names.append("a") },
      // Neither: every write is a change.
      c("boxed = boxed", { _ = $0.boxed }, .notified) { $0.boxed = $0.boxed },
      c("boxed.token = Token()", { _ = $0.boxed }, .notified) { $0.boxed.token = Token() },
      // Observable: identity decides. Its own value written back, or mutated in place, is no change
      // of the field; an equal but new value is a replacement.
      c("child = child", { _ = $0.child }, .quiet) { $0.child = $0.child },
      c("child.count += 1 (field)", { _ = $0.child }, .quiet) { $0.child.count += 1 },
      c("child.count += 1 (count)", { _ = $0.child.count }, .notified) { $0.child.count += 1 },
      c("child.title = x (count)", { _ = $0.child.count }, .quiet) { $0.child.title = "x" },
      c("child = Child()", { _ = $0.child }, .notified) { $0.child = Child() },
      c("child = Child() (count)", { _ = $0.child.count }, .notified) { $0.child = Child() },
      c("maybeChild?.count += 1 (field)", { _ = $0.maybeChild }, .quiet) { $0.maybeChild?.count += 1 },
      c("maybeChild?.count += 1 (count)", { _ = $0.maybeChild?.count }, .notified) { $0.maybeChild?.count += 1 },
      c("maybeChild = nil", { _ = $0.maybeChild?.count }, .notified) { $0.maybeChild = nil },
      c("rows[id:]?.title (count)", { _ = $0.rows.count }, .quiet) { $0.rows[id: 1]?.title = "x" },
      c("rows[id:]?.title (title)", { _ = $0.rows[id: 1]?.title }, .notified) { $0.rows[id: 1]?.title = "x" },
      c("rows.append (count)", { _ = $0.rows.count }, .notified) { $0.rows.append(Row(id: 2)) },
      c("children[0].count (field)", { _ = $0.children }, .quiet) { $0.children[0].count += 1 },
      c("children[0].count (count)", { _ = $0.children[0].count }, .notified) { $0.children[0].count += 1 },
      c("children = []", { _ = $0.children }, .notified) { $0.children = [] },
      c("mode payload in place (field)", { _ = $0.mode }, .quiet) { $0.mode.modifyEditing { $0.count += 1 } },
      c("mode payload in place (count)", { _ = $0.mode.payload?.count }, .notified) {
        $0.mode.modifyEditing { $0.count += 1 }
      },
      c("mode = .idle", { _ = $0.mode }, .notified) { $0.mode = .idle },
    ]
  }

  @Test(arguments: cases())
  func bare(_ c: Case) {
    var state = Kinds()
    let recorder = tracking { c.read(state) }
    c.write(&state)
    #expect(recorder.count == (c.expect == .notified ? 1 : 0))
  }

  @Test(arguments: cases())
  func root(_ c: Case) {
    let root = ObservedRoot(Kinds())
    let recorder = tracking { root.read(c.read) }
    root.mutate(c.write)
    #expect(recorder.count == (c.expect == .notified ? 1 : 0))
  }

  // MARK: - Generic code: the field's type is known only at run time

  struct Holder<Value>: ObservableState {
    struct Fields { var value: Value }
    var _$fields: Observed<Fields>
  }

  func assign<Value>(_ value: Value, to holder: inout Holder<Value>) { holder.value = value }

  @Test func genericAssignmentsUseTheSemanticsOfTheRuntimeType() {
    var ints = Holder(1)
    let onInt = tracking { _ = ints.value }
    assign(1, to: &ints)
    #expect(onInt.count == 0)
    assign(2, to: &ints)
    #expect(onInt.count == 1)

    // An equal child is still a replacement: identity, not equality, decides.
    var children = Holder(Child())
    let onChild = tracking { _ = children.value.count }
    assign(Child(), to: &children)
    #expect(onChild.count == 1)
    // The assigned child is detached: it shares no observers with the value it was copied from.
    let source = Child(count: 3)
    var holder = Holder(Child())
    assign(source, to: &holder)
    #expect(holder.value.observationIdentity != source.observationIdentity)
  }

  @Test func aFieldOfEveryKindChainsTenDeepAndNotifiesOnlyItsReaders() {
    var state = Deep10()
    let onLeaf = tracking { _ = state.next.next.next.next.next.next.next.next.next.count }
    let onSibling = tracking { _ = state.next.next.next.next.next.next.next.next.count }
    state.next.next.next.next.next.next.next.next.next.count += 0
    #expect(onLeaf.count == 0)
    state.next.next.next.next.next.next.next.next.next.count += 1
    #expect(onLeaf.count == 1)
    #expect(onSibling.count == 0)
  }
}

/// Ten nested observable structs (`Deep10.next…next.count`).
struct Deep10: ObservableState { struct Fields { var next = Deep9(), count = 0 }; var _$fields = Observed(Fields()) }
struct Deep9: ObservableState { struct Fields { var next = Deep8(), count = 0 }; var _$fields = Observed(Fields()) }
struct Deep8: ObservableState { struct Fields { var next = Deep7(), count = 0 }; var _$fields = Observed(Fields()) }
struct Deep7: ObservableState { struct Fields { var next = Deep6(), count = 0 }; var _$fields = Observed(Fields()) }
struct Deep6: ObservableState { struct Fields { var next = Deep5(), count = 0 }; var _$fields = Observed(Fields()) }
struct Deep5: ObservableState { struct Fields { var next = Deep4(), count = 0 }; var _$fields = Observed(Fields()) }
struct Deep4: ObservableState { struct Fields { var next = Deep3(), count = 0 }; var _$fields = Observed(Fields()) }
struct Deep3: ObservableState { struct Fields { var next = Deep2(), count = 0 }; var _$fields = Observed(Fields()) }
struct Deep2: ObservableState { struct Fields { var next = Deep1(), count = 0 }; var _$fields = Observed(Fields()) }
struct Deep1: ObservableState { struct Fields { var next = Deep0(), count = 0 }; var _$fields = Observed(Fields()) }
struct Deep0: ObservableState { struct Fields { var count = 0 }; var _$fields = Observed(Fields()) }

extension FieldKindTests.Holder {
  init(_ value: Value) { _$fields = Observed(Fields(value: value)) }
}
