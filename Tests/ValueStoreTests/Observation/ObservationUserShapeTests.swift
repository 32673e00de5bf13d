import Foundation
import Observation
import Testing
import ValueStore

// MARK: - Fixtures (all prefixed `Probe`)

typealias ProbeCounter = FireCounter

final class ProbeGate: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation
  init() { (stream, continuation) = AsyncStream.makeStream() }
  func open() { continuation.finish() }
  func wait() async { for await _ in stream {} }
}

struct ProbeLeaf: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable { var value = 0; var label = "" }
  var _$fields = Observed(Fields())
  var doubled: Int { self.value * 2 }
}

struct ProbeL3: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable { var leaf = ProbeLeaf(); var other = 0 }
  var _$fields = Observed(Fields())
}

struct ProbeL2: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable { var l3 = ProbeL3(); var other = 0 }
  var _$fields = Observed(Fields())
}

struct ProbeL1: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable { var l2 = ProbeL2(); var other = 0 }
  var _$fields = Observed(Fields())
}

struct ProbeRow: ObservableState, Equatable, Sendable, Identifiable {
  struct Fields: Equatable, Sendable, Identifiable {
    let id: Int
    var title = ""
    var count = 0
    var leaf = ProbeLeaf()
  }
  var _$fields: Observed<Fields>
}

enum ProbeScreen: Equatable, Sendable, CasePathable {
  case leaf(ProbeLeaf)
  case note(String)
  case empty
}

struct ProbeState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var count = 0
    var name = ""
    var flag = false
    var leaf = ProbeLeaf()
    var deep = ProbeL1()
    var optional: ProbeLeaf? = ProbeLeaf()
    var screen = ProbeScreen.leaf(ProbeLeaf())
    var optScreen: ProbeScreen? = .leaf(ProbeLeaf())
    var rows: IdentifiedArrayOf<ProbeRow> = [
      ProbeRow(.init(id: 1, title: "a")), ProbeRow(.init(id: 2, title: "b")), ProbeRow(.init(id: 3, title: "c")),
    ]
    var plain: [ProbeLeaf] = [ProbeLeaf(.init(value: 10)), ProbeLeaf(.init(value: 20))]
  }
  var _$fields = Observed(Fields())
  var isEven: Bool { self.count.isMultiple(of: 2) }
  var total: Int { self.rows.reduce(0) { $0 + $1.count } }
}

enum ProbeLeafAction: Equatable, Sendable { case increment, rename(String) }
enum ProbeRowAction: Equatable, Sendable { case increment, rename(String), leaf(ProbeLeafAction) }
enum ProbeScreenAction: Equatable, Sendable { case leaf(ProbeLeafAction) }

enum ProbeAction: Sendable {
  case edit(@Sendable (inout ProbeState) -> Void)
  case leaf(ProbeLeafAction)
  case optional(ProbeLeafAction)
  case screen(ProbeScreenAction)
  case rows(IdentifiedAction<Int, ProbeRowAction>)
  case later(ProbeGate, Int)
  case sendBoth
  case response(Int)
}

func probeApply(_ action: ProbeLeafAction, _ leaf: inout ProbeLeaf) {
  switch action {
  case .increment: leaf.value += 1
  case let .rename(label): leaf.label = label
  }
}

struct ProbeFeature: Reducer {
  func reduce(into state: inout ProbeState, action: ProbeAction) -> Effect<ProbeAction> {
    switch action {
    case let .edit(edit): edit(&state)
    case let .leaf(a): probeApply(a, &state.leaf)
    case let .optional(a):
      if state.optional != nil { probeApply(a, &state.optional!) }
    case let .screen(.leaf(a)): state.screen.modify(ProbeScreen.leaf) { probeApply(a, &$0) }
    case let .rows(.element(id, .increment)): state.rows[id: id]?.count += 1
    case let .rows(.element(id, .rename(title))): state.rows[id: id]?.title = title
    case let .rows(.element(id, .leaf(a))):
      if state.rows[id: id] != nil { probeApply(a, &state.rows[id: id]!.leaf) }
    case let .later(gate, value):
      return .run { send in
        await gate.wait()
        await send(.response(value))
      }
    case let .response(value): state.count = value
    case .sendBoth:
      return .merge(.send(.edit { $0.count += 1 }), .send(.edit { $0.name += "!" }))
    }
    return .none
  }
}

typealias ProbeStore = Store<ProbeState, ProbeAction>
typealias ProbeEditFn = @Sendable (inout ProbeState) -> Void

struct ProbeEdit: Sendable {
  let name: String
  let edit: ProbeEditFn
  init(_ name: String, _ edit: @escaping ProbeEditFn) { (self.name, self.edit) = (name, edit) }
}

@MainActor func probeStore(_ state: ProbeState = ProbeState()) -> ProbeStore {
  Store(initialState: state, reducer: ProbeFeature())
}

/// One-shot Apple tracking, returns the fire counter.
@discardableResult
func probeTrack(_ read: () -> Void) -> ProbeCounter {
  let counter = ProbeCounter()
  withObservationTracking { read() } onChange: { counter.tick() }
  return counter
}

/// Apple's own @Observable as a control for semantics of Observation itself.
@Observable final class ProbeControl: @unchecked Sendable {
  var count = 0
  var name = ""
}

// MARK: - Shapes: a read × edits that must fire once / must not fire

struct ProbeShape: Sendable {
  let name: String
  let read: @MainActor @Sendable (ProbeStore) -> Void
  var initial: ProbeState = ProbeState()
  let fires: [ProbeEdit]
  let quiet: [ProbeEdit]
  /// Same-value writes: counted and documented, not asserted.
  var same: [ProbeEdit] = []
}

nonisolated let probeRowsAction = ProbeAction.rows

@MainActor func probeRowsStore(_ s: ProbeStore) -> StoreCollection<Int, ProbeRow, ProbeRowAction> {
  s.scope(state: \.rows, action: ProbeAction.rows)
}

nonisolated func probeStateWithNilOptional() -> ProbeState {
  var s = ProbeState()
  s.optional = nil
  s.optScreen = nil
  return s
}

nonisolated let probeShapes: [ProbeShape] = [
  ProbeShape(
    name: "store.count", read: { _ = $0.count },
    fires: [
      .init("count += 1") { $0.count += 1 },
      .init("replace whole state with count 5") { var n = ProbeState(); n.count = 5; $0 = n },
      .init("count += 1 and name change together") { $0.count += 1; $0.name = "z" },
    ],
    quiet: [
      .init("name") { $0.name = "x" }, .init("flag") { $0.flag.toggle() },
      .init("leaf.value") { $0.leaf.value += 1 }, .init("rows append") { $0.rows.append(ProbeRow(.init(id: 9))) },
    ],
    same: [
      .init("count = count") { $0.count = $0.count }, .init("count = 0") { $0.count = 0 },
      // Fires 1: a net-zero edit in one send is a change for ValueStore's own withTracking too.
      .init("count += 1; count -= 1 in one send") { $0.count += 1; $0.count -= 1 },
    ]),
  ProbeShape(
    name: "store.isEven (computed)", read: { _ = $0.isEven },
    fires: [.init("count += 1") { $0.count += 1 }, .init("count += 2") { $0.count += 2 }],
    quiet: [.init("name") { $0.name = "x" }]),
  ProbeShape(
    name: "store.total (computed over rows)", read: { _ = $0.total },
    fires: [
      .init("row 2 count") { $0.rows[id: 2]?.count += 1 },
      .init("append row with count 3") { $0.rows.append(ProbeRow(.init(id: 9, count: 3))) },
      .init("remove row 1") { $0.rows.remove(id: 1) },
    ],
    quiet: [.init("row 2 title") { $0.rows[id: 2]?.title = "x" }, .init("count") { $0.count += 1 }]),
  ProbeShape(
    name: "store.leaf.value (2 deep)", read: { _ = $0.leaf.value },
    fires: [
      .init("leaf.value += 1") { $0.leaf.value += 1 },
      .init("replace leaf with value 7") { $0.leaf = ProbeLeaf(.init(value: 7)) },
    ],
    quiet: [
      .init("leaf.label") { $0.leaf.label = "x" }, .init("count") { $0.count += 1 },
      .init("deep leaf value") { $0.deep.l2.l3.leaf.value += 1 },
      .init("optional value") { $0.optional?.value += 1 },
    ],
    same: [
      .init("replace leaf with equal new ProbeLeaf()") { $0.leaf = ProbeLeaf() },
      .init("replace leaf with label-only-different leaf") { $0.leaf = ProbeLeaf(.init(label: "q")) },
      .init("leaf = copy of itself") { let c = $0.leaf; $0.leaf = c },
    ]),
  ProbeShape(
    name: "store.leaf.doubled (computed on child)", read: { _ = $0.leaf.doubled },
    fires: [.init("leaf.value") { $0.leaf.value += 1 }],
    quiet: [.init("leaf.label") { $0.leaf.label = "x" }]),
  ProbeShape(
    name: "store.deep.l2.l3.leaf.value (5 deep)", read: { _ = $0.deep.l2.l3.leaf.value },
    fires: [
      .init("deep value += 1") { $0.deep.l2.l3.leaf.value += 1 },
      .init("replace l3 with value 4") { var l3 = ProbeL3(); l3.leaf.value = 4; $0.deep.l2.l3 = l3 },
      .init("replace deep with value 4") { var d = ProbeL1(); d.l2.l3.leaf.value = 4; $0.deep = d },
      .init("copy out, mutate, write back") { var d = $0.deep; d.l2.l3.leaf.value = 9; $0.deep = d },
    ],
    quiet: [
      .init("deep.other") { $0.deep.other += 1 }, .init("deep.l2.other") { $0.deep.l2.other += 1 },
      .init("deep.l2.l3.other") { $0.deep.l2.l3.other += 1 },
      .init("deep leaf label") { $0.deep.l2.l3.leaf.label = "x" },
      .init("leaf.value (same type elsewhere)") { $0.leaf.value += 1 },
      .init("copy out, mutate label, write back") { var d = $0.deep; d.l2.l3.leaf.label = "w"; $0.deep = d },
    ],
    same: [.init("replace deep with ProbeL1()") { $0.deep = ProbeL1() }]),
  ProbeShape(
    name: "store.deep.l2.other (3 deep)", read: { _ = $0.deep.l2.other },
    fires: [.init("deep.l2.other") { $0.deep.l2.other += 1 }],
    quiet: [.init("deep leaf value") { $0.deep.l2.l3.leaf.value += 1 }, .init("deep.other") { $0.deep.other += 1 }]),
  ProbeShape(
    name: "store.rows.count", read: { _ = $0.rows.count },
    fires: [
      .init("append") { $0.rows.append(ProbeRow(.init(id: 9))) },
      .init("remove id 2") { $0.rows.remove(id: 2) },
      .init("replace rows with []") { $0.rows = [] },
    ],
    quiet: [
      .init("row 1 title") { $0.rows[id: 1]?.title = "x" },
      .init("row 1 leaf value") { $0.rows[id: 1]?.leaf.value += 1 },
      .init("count") { $0.count += 1 },
    ],
    same: [
      .init("replace rows with 3 other rows (same count)") {
        $0.rows = [ProbeRow(.init(id: 7)), ProbeRow(.init(id: 8)), ProbeRow(.init(id: 9))]
      },
      .init("swap rows 0 and 1 (same count)") { $0.rows.swapAt(0, 1) },
      .init("remove then re-add id 2") { let r = $0.rows.remove(id: 2)!; $0.rows.append(r) },
    ]),
  ProbeShape(
    name: "store.rows.isEmpty", read: { _ = $0.rows.isEmpty },
    fires: [.init("rows = []") { $0.rows = [] }],
    quiet: [.init("row 1 title") { $0.rows[id: 1]?.title = "x" }],
    same: [.init("append (isEmpty stays false)") { $0.rows.append(ProbeRow(.init(id: 9))) }]),
  ProbeShape(
    name: "store.rows[id: 1]?.title", read: { _ = $0.rows[id: 1]?.title },
    fires: [
      .init("row 1 title") { $0.rows[id: 1]?.title = "x" },
      .init("remove row 1") { $0.rows.remove(id: 1) },
      .init("replace row 1 with new title") { $0.rows[id: 1] = ProbeRow(.init(id: 1, title: "new")) },
      .init("rows = []") { $0.rows = [] },
    ],
    quiet: [
      .init("row 1 count") { $0.rows[id: 1]?.count += 1 },
      .init("row 2 title") { $0.rows[id: 2]?.title = "x" },
      .init("append row 9") { $0.rows.append(ProbeRow(.init(id: 9))) },
      .init("remove row 2") { $0.rows.remove(id: 2) },
      .init("row 1 leaf value") { $0.rows[id: 1]?.leaf.value += 1 },
    ],
    same: [
      .init("swap rows 0,1") { $0.rows.swapAt(0, 1) },
      .init("replace row 1 with same title, other count") { $0.rows[id: 1] = ProbeRow(.init(id: 1, title: "a", count: 5)) },
    ]),
  ProbeShape(
    name: "store.rows[id: 2]?.leaf.value (element child)", read: { _ = $0.rows[id: 2]?.leaf.value },
    fires: [.init("row 2 leaf value") { $0.rows[id: 2]?.leaf.value += 1 }],
    quiet: [
      .init("row 2 leaf label") { $0.rows[id: 2]?.leaf.label = "x" },
      .init("row 1 leaf value") { $0.rows[id: 1]?.leaf.value += 1 },
      .init("row 2 title") { $0.rows[id: 2]?.title = "x" },
    ]),
  ProbeShape(
    name: "store.rows.first?.title", read: { _ = $0.rows.first?.title },
    fires: [.init("row 1 title") { $0.rows[id: 1]?.title = "x" }, .init("remove row 1") { $0.rows.remove(id: 1) }],
    quiet: [.init("row 2 title") { $0.rows[id: 2]?.title = "x" }, .init("row 1 count") { $0.rows[id: 1]?.count += 1 }]),
  ProbeShape(
    name: "for row in store.rows { row.title }", read: { for row in $0.rows { _ = row.title } },
    fires: [
      .init("row 2 title") { $0.rows[id: 2]?.title = "x" },
      .init("append") { $0.rows.append(ProbeRow(.init(id: 9))) },
      .init("remove row 3") { $0.rows.remove(id: 3) },
    ],
    quiet: [.init("row 2 count") { $0.rows[id: 2]?.count += 1 }, .init("count") { $0.count += 1 }]),
  ProbeShape(
    name: "store.rows.map(\\.title)", read: { _ = $0.rows.map(\.title) },
    fires: [.init("row 3 title") { $0.rows[id: 3]?.title = "x" }, .init("append") { $0.rows.append(ProbeRow(.init(id: 9))) }],
    quiet: [.init("row 3 count") { $0.rows[id: 3]?.count += 1 }]),
  ProbeShape(
    name: "store.rows.ids", read: { _ = $0.rows.ids },
    fires: [.init("append") { $0.rows.append(ProbeRow(.init(id: 9))) }, .init("swap") { $0.rows.swapAt(0, 2) }],
    quiet: [.init("row 1 title") { $0.rows[id: 1]?.title = "x" }]),
  ProbeShape(
    name: "store.plain[0].value", read: { _ = $0.plain[0].value },
    fires: [.init("plain[0].value") { $0.plain[0].value += 1 }, .init("insert at 0") { $0.plain.insert(ProbeLeaf(.init(value: 5)), at: 0) }],
    quiet: [
      .init("plain[1].value") { $0.plain[1].value += 1 }, .init("plain[0].label") { $0.plain[0].label = "x" },
    ],
    // Fires 1: a plain array's element read records the array's structure (Design S23).
    same: [.init("append") { $0.plain.append(ProbeLeaf()) }]),
  ProbeShape(
    name: "store.plain.count", read: { _ = $0.plain.count },
    fires: [.init("append") { $0.plain.append(ProbeLeaf()) }, .init("removeLast") { $0.plain.removeLast() }],
    quiet: [.init("plain[0].value") { $0.plain[0].value += 1 }]),
  ProbeShape(
    name: "store.optional?.value", read: { _ = $0.optional?.value },
    fires: [
      .init("optional value") { $0.optional?.value += 1 },
      .init("set nil") { $0.optional = nil },
      .init("replace with value 3") { $0.optional = ProbeLeaf(.init(value: 3)) },
    ],
    quiet: [.init("optional label") { $0.optional?.label = "x" }, .init("leaf.value") { $0.leaf.value += 1 }],
    same: [.init("optional = ProbeLeaf() (equal, new)") { $0.optional = ProbeLeaf() }]),
  ProbeShape(
    name: "store.optional?.value starting nil", read: { _ = $0.optional?.value }, initial: probeStateWithNilOptional(),
    fires: [.init("set non-nil") { $0.optional = ProbeLeaf() }],
    quiet: [.init("optional?.value += 1 on nil") { $0.optional?.value += 1 }, .init("count") { $0.count += 1 }],
    same: [.init("optional = nil again") { $0.optional = nil }]),
  ProbeShape(
    name: "store.optional == nil", read: { _ = $0.optional == nil },
    fires: [.init("set nil") { $0.optional = nil }],
    quiet: [.init("count") { $0.count += 1 }],
    same: [.init("optional value (non-nil stays non-nil)") { $0.optional?.value += 1 }]),
  ProbeShape(
    name: "store.screen[case: .leaf]?.value", read: { _ = $0.screen[case: ProbeScreen.leaf]?.value },
    fires: [
      .init("modify payload value") { $0.screen.modify(ProbeScreen.leaf) { $0.value += 1 } },
      .init("switch to .note") { $0.screen = .note("n") },
      .init("switch to .leaf(value 3)") { $0.screen = .leaf(ProbeLeaf(.init(value: 3))) },
    ],
    quiet: [
      .init("modify payload label") { $0.screen.modify(ProbeScreen.leaf) { $0.label = "x" } },
      .init("count") { $0.count += 1 },
      .init("optScreen payload value") { $0.optScreen?.modify(ProbeScreen.leaf) { $0.value += 1 } },
    ],
    same: [.init("screen = .leaf(ProbeLeaf()) equal") { $0.screen = .leaf(ProbeLeaf()) }]),
  ProbeShape(
    name: "if case let .leaf(l) = store.screen { l.value }",
    read: { if case let .leaf(l) = $0.screen { _ = l.value } },
    fires: [.init("modify payload value") { $0.screen.modify(ProbeScreen.leaf) { $0.value += 1 } },
            .init("switch to .empty") { $0.screen = .empty }],
    quiet: [.init("modify payload label") { $0.screen.modify(ProbeScreen.leaf) { $0.label = "x" } }]),
  ProbeShape(
    name: "store.screen.is(.note)", read: { _ = $0.screen.is(ProbeScreen.note) },
    fires: [.init("switch to .note") { $0.screen = .note("n") }],
    quiet: [.init("count") { $0.count += 1 }],
    same: [.init("modify payload value (case unchanged)") { $0.screen.modify(ProbeScreen.leaf) { $0.value += 1 } }]),
  ProbeShape(
    name: "store.optScreen?[case: .leaf]?.value", read: { _ = $0.optScreen?[case: ProbeScreen.leaf]?.value },
    fires: [
      .init("payload value") { $0.optScreen?.modify(ProbeScreen.leaf) { $0.value += 1 } },
      .init("set nil") { $0.optScreen = nil },
    ],
    quiet: [.init("payload label") { $0.optScreen?.modify(ProbeScreen.leaf) { $0.label = "x" } },
            .init("screen payload value") { $0.screen.modify(ProbeScreen.leaf) { $0.value += 1 } }]),
  ProbeShape(
    name: "case scope store .value",
    read: {
      _ = $0.scope(state: \.screen, action: ProbeAction.screen)
        .scope(case: ProbeScreen.leaf, action: ProbeScreenAction.leaf)?.value
    },
    fires: [.init("payload value") { $0.screen.modify(ProbeScreen.leaf) { $0.value += 1 } },
            .init("switch to .note") { $0.screen = .note("n") }],
    quiet: [.init("payload label") { $0.screen.modify(ProbeScreen.leaf) { $0.label = "x" } },
            .init("count") { $0.count += 1 }]),
  ProbeShape(
    name: "child store .value", read: { _ = $0.scope(state: \.leaf, action: ProbeAction.leaf).value },
    fires: [.init("leaf.value") { $0.leaf.value += 1 }, .init("replace leaf value 3") { $0.leaf = ProbeLeaf(.init(value: 3)) }],
    quiet: [.init("leaf.label") { $0.leaf.label = "x" }, .init("count") { $0.count += 1 }]),
  ProbeShape(
    name: "child store .doubled (computed)", read: { _ = $0.scope(state: \.leaf, action: ProbeAction.leaf).doubled },
    fires: [.init("leaf.value") { $0.leaf.value += 1 }],
    quiet: [.init("leaf.label") { $0.leaf.label = "x" }]),
  ProbeShape(
    name: "optional child store ?.value",
    read: { _ = $0.scope(state: \.optional, action: ProbeAction.optional)?.value },
    fires: [.init("optional value") { $0.optional?.value += 1 }, .init("set nil") { $0.optional = nil }],
    quiet: [.init("optional label") { $0.optional?.label = "x" }, .init("count") { $0.count += 1 }]),
  ProbeShape(
    name: "optional child store starting nil",
    read: { _ = $0.scope(state: \.optional, action: ProbeAction.optional)?.value },
    initial: probeStateWithNilOptional(),
    fires: [.init("set non-nil") { $0.optional = ProbeLeaf() }],
    quiet: [.init("count") { $0.count += 1 }]),
  ProbeShape(
    name: "StoreCollection iteration reading title", read: { for row in probeRowsStore($0) { _ = row.title } },
    fires: [
      .init("append") { $0.rows.append(ProbeRow(.init(id: 9))) }, .init("remove 2") { $0.rows.remove(id: 2) },
      .init("row 2 title") { $0.rows[id: 2]?.title = "x" }, .init("swap") { $0.rows.swapAt(0, 1) },
    ],
    quiet: [.init("row 2 count") { $0.rows[id: 2]?.count += 1 }, .init("count") { $0.count += 1 },
            .init("row 1 leaf value") { $0.rows[id: 1]?.leaf.value += 1 }]),
  ProbeShape(
    name: "StoreCollection iteration reading nothing", read: { for row in probeRowsStore($0) { _ = row } },
    fires: [.init("append") { $0.rows.append(ProbeRow(.init(id: 9))) }, .init("remove 2") { $0.rows.remove(id: 2) }],
    quiet: [.init("row 2 title") { $0.rows[id: 2]?.title = "x" }, .init("row 2 count") { $0.rows[id: 2]?.count += 1 }]),
  ProbeShape(
    name: "StoreCollection.count", read: { _ = probeRowsStore($0).count },
    fires: [.init("append") { $0.rows.append(ProbeRow(.init(id: 9))) }],
    quiet: [.init("row 2 title") { $0.rows[id: 2]?.title = "x" }]),
  ProbeShape(
    name: "element store [id: 2]?.title", read: { _ = probeRowsStore($0)[id: 2]?.title },
    // Making the collection reads the array's structure (as TCA's scope does): membership and
    // order changes are heard too.
    fires: [
      .init("row 2 title") { $0.rows[id: 2]?.title = "x" }, .init("remove row 2") { $0.rows.remove(id: 2) },
      .init("remove row 1") { $0.rows.remove(id: 1) }, .init("append row 9") { $0.rows.append(ProbeRow(.init(id: 9))) },
    ],
    quiet: [.init("row 2 count") { $0.rows[id: 2]?.count += 1 }, .init("row 1 title") { $0.rows[id: 1]?.title = "x" }]),
  ProbeShape(
    name: "element store → child store .value",
    read: { _ = probeRowsStore($0)[id: 2]?.scope(state: \.leaf, action: ProbeRowAction.leaf).value },
    fires: [.init("row 2 leaf value") { $0.rows[id: 2]?.leaf.value += 1 }],
    quiet: [.init("row 2 leaf label") { $0.rows[id: 2]?.leaf.label = "x" }, .init("row 1 leaf value") { $0.rows[id: 1]?.leaf.value += 1 },
            .init("row 2 title") { $0.rows[id: 2]?.title = "x" }]),
  ProbeShape(
    name: "withState { deep value }", read: { s in s.withState { _ = $0.deep.l2.l3.leaf.value } },
    fires: [.init("deep value") { $0.deep.l2.l3.leaf.value += 1 }],
    quiet: [.init("deep label") { $0.deep.l2.l3.leaf.label = "x" }, .init("count") { $0.count += 1 }]),
  ProbeShape(
    name: "withState { rows.map(\\.title) }", read: { s in s.withState { _ = $0.rows.map(\.title) } },
    fires: [.init("row 2 title") { $0.rows[id: 2]?.title = "x" }, .init("append") { $0.rows.append(ProbeRow(.init(id: 9))) }],
    quiet: [.init("row 2 count") { $0.rows[id: 2]?.count += 1 }]),
  ProbeShape(
    name: "withState { optional?.value }", read: { s in s.withState { _ = $0.optional?.value } },
    fires: [.init("value") { $0.optional?.value += 1 }, .init("nil") { $0.optional = nil }],
    quiet: [.init("label") { $0.optional?.label = "x" }]),
  ProbeShape(
    name: "withState returning value then reading outside", read: { s in
      let leaf = s.withState { $0.leaf }
      _ = leaf.value
    },
    fires: [.init("leaf.value") { $0.leaf.value += 1 }],
    quiet: [.init("leaf.label") { $0.leaf.label = "x" }]),
  ProbeShape(
    name: "let child = store.leaf; child.value (returned value)", read: { s in
      let child = s.leaf
      _ = child.value
    },
    fires: [.init("leaf.value") { $0.leaf.value += 1 }],
    quiet: [.init("leaf.label") { $0.leaf.label = "x" }]),
  ProbeShape(
    name: "store.currentState.deep...value", read: { _ = $0.currentState.deep.l2.l3.leaf.value },
    fires: [.init("deep value") { $0.deep.l2.l3.leaf.value += 1 }],
    quiet: [.init("count") { $0.count += 1 }]),
  ProbeShape(
    name: "read store.count 1000 times", read: { s in for _ in 0..<1000 { _ = s.count } },
    fires: [.init("count") { $0.count += 1 }],
    quiet: [.init("name") { $0.name = "x" }]),
  ProbeShape(
    name: "read count, name, leaf.value, rows[id:3].title", read: { s in
      _ = s.count; _ = s.name; _ = s.leaf.value; _ = s.rows[id: 3]?.title
    },
    fires: [
      .init("name") { $0.name = "x" }, .init("leaf.value") { $0.leaf.value += 1 },
      .init("row 3 title") { $0.rows[id: 3]?.title = "x" },
      .init("all four in one send") { $0.count += 1; $0.name = "y"; $0.leaf.value = 3; $0.rows[id: 3]?.title = "z" },
    ],
    quiet: [.init("flag") { $0.flag = true }, .init("leaf.label") { $0.leaf.label = "x" }]),
  ProbeShape(
    name: "read after untracked { }", read: { s in
      untracked { _ = s.count; _ = s.leaf.value }
      _ = s.name
    },
    fires: [.init("name") { $0.name = "x" }],
    quiet: [.init("count") { $0.count += 1 }, .init("leaf.value") { $0.leaf.value += 1 }]),
]

// MARK: - Suite

/// Written from the README alone, as a user would, by a helper trying the Observation bridge
/// (issue 13): 43 read shapes × the edits that must and must not fire, through a store and an
/// `ObservedRoot`; scopes on several stores, re-armed in `onChange` or after a send, effects,
/// undo, `Observations`. Each expectation is an exact count.
@MainActor @Suite struct ObservationUserShapeTests {

  /// Each shape × each edit, on a fresh store: fires exactly once for `fires`, never for `quiet`.
  /// After the first fire, a second change must not fire again (one-shot).
  @Test(arguments: 0..<probeShapes.count)
  func shapeFiresExactlyForWhatItRead(_ index: Int) {
    let shape = probeShapes[index]
    for edit in shape.fires {
      let store = probeStore(shape.initial)
      let fired = probeTrack { shape.read(store) }
      store.send(.edit(edit.edit))
      #expect(fired.count == 1, "[\(shape.name)] '\(edit.name)' expected 1 fire, got \(fired.count)")
      store.send(.edit(edit.edit))
      store.send(.edit { $0.count += 100; $0.name += "?" })
      #expect(fired.count == 1, "[\(shape.name)] '\(edit.name)' fired again after one-shot: \(fired.count)")
    }
    for edit in shape.quiet {
      let store = probeStore(shape.initial)
      let fired = probeTrack { shape.read(store) }
      store.send(.edit(edit.edit))
      #expect(fired.count == 0, "[\(shape.name)] '\(edit.name)' expected 0 fires (spurious), got \(fired.count)")
    }
  }

  /// Quiet edits first, then a firing edit: the scope survived the quiet edits (not lost).
  @Test(arguments: 0..<probeShapes.count)
  func quietEditsThenFiringEditFiresOnce(_ index: Int) {
    let shape = probeShapes[index]
    guard let firing = shape.fires.first else { return }
    let store = probeStore(shape.initial)
    let fired = probeTrack { shape.read(store) }
    for edit in shape.quiet { store.send(.edit(edit.edit)) }
    let afterQuiet = fired.count
    store.send(.edit(firing.edit))
    #expect(fired.count == afterQuiet + 1 && afterQuiet == 0,
            "[\(shape.name)] after quiet edits \(afterQuiet), after '\(firing.name)' \(fired.count)")
  }

  /// The same reads through an ObservedRoot (root.<dynamic member> and root.read).
  @Test(arguments: 0..<probeShapes.count)
  func shapeThroughObservedRoot(_ index: Int) {
    let shape = probeShapes[index]
    guard Self.hasRootEquivalent(shape.name) else { return }
    for edit in shape.fires {
      let root = ObservedRoot(shape.initial)
      let fired = probeTrack { root.read { state in Self.rootEquivalent(shape.name, state) } }
      root.mutate(edit.edit)
      #expect(fired.count == 1, "[root.read \(shape.name)] '\(edit.name)' expected 1, got \(fired.count)")
    }
    for edit in shape.quiet {
      let root = ObservedRoot(shape.initial)
      let fired = probeTrack { root.read { state in Self.rootEquivalent(shape.name, state) } }
      root.mutate(edit.edit)
      #expect(fired.count == 0, "[root.read \(shape.name)] '\(edit.name)' expected 0, got \(fired.count)")
    }
  }

  nonisolated static func hasRootEquivalent(_ name: String) -> Bool {
    !name.contains("store ") && !name.contains("StoreCollection") && !name.contains("withState")
      && !name.contains("untracked") && !name.contains("currentState")
  }

  nonisolated static func rootEquivalent(_ name: String, _ s: ProbeState) {
    switch name {
    case "store.count": _ = s.count
    case "store.isEven (computed)": _ = s.isEven
    case "store.total (computed over rows)": _ = s.total
    case "store.leaf.value (2 deep)": _ = s.leaf.value
    case "store.leaf.doubled (computed on child)": _ = s.leaf.doubled
    case "store.deep.l2.l3.leaf.value (5 deep)": _ = s.deep.l2.l3.leaf.value
    case "store.deep.l2.other (3 deep)": _ = s.deep.l2.other
    case "store.rows.count": _ = s.rows.count
    case "store.rows.isEmpty": _ = s.rows.isEmpty
    case "store.rows[id: 1]?.title": _ = s.rows[id: 1]?.title
    case "store.rows[id: 2]?.leaf.value (element child)": _ = s.rows[id: 2]?.leaf.value
    case "store.rows.first?.title": _ = s.rows.first?.title
    case "for row in store.rows { row.title }": for row in s.rows { _ = row.title }
    case "store.rows.map(\\.title)": _ = s.rows.map(\.title)
    case "store.rows.ids": _ = s.rows.ids
    case "store.plain[0].value": _ = s.plain[0].value
    case "store.plain.count": _ = s.plain.count
    case "store.optional?.value", "store.optional?.value starting nil": _ = s.optional?.value
    case "store.optional == nil": _ = s.optional == nil
    case "store.screen[case: .leaf]?.value": _ = s.screen[case: ProbeScreen.leaf]?.value
    case "if case let .leaf(l) = store.screen { l.value }": if case let .leaf(l) = s.screen { _ = l.value }
    case "store.screen.is(.note)": _ = s.screen.is(ProbeScreen.note)
    case "store.optScreen?[case: .leaf]?.value": _ = s.optScreen?[case: ProbeScreen.leaf]?.value
    case "read store.count 1000 times": for _ in 0..<1000 { _ = s.count }
    case "read count, name, leaf.value, rows[id:3].title": _ = s.count; _ = s.name; _ = s.leaf.value; _ = s.rows[id: 3]?.title
    case "let child = store.leaf; child.value (returned value)": let c = s.leaf; _ = c.value
    default: break
    }
  }

  /// Root dynamic-member reads (not root.read) for a few depths.
  @Test func observedRootDynamicMemberReads() {
    do {
      let root = ObservedRoot(ProbeState())
      let fired = probeTrack { _ = root.deep.l2.l3.leaf.value }
      root.mutate { $0.deep.l2.l3.leaf.label = "x" }
      #expect(fired.count == 0)
      root.mutate { $0.deep.l2.l3.leaf.value += 1 }
      #expect(fired.count == 1)
    }
    do {
      let root = ObservedRoot(ProbeState())
      let fired = probeTrack { _ = root.rows[id: 2]?.title }
      root.mutate { $0.rows[id: 1]?.title = "x" }
      root.mutate { $0.rows[id: 2]?.count += 1 }
      #expect(fired.count == 0)
      root.mutate { $0.rows[id: 2]?.title = "y" }
      #expect(fired.count == 1)
    }
    do {
      let root = ObservedRoot(ProbeState())
      let fired = probeTrack { _ = root.optional?.value }
      root.mutate { $0.optional = nil }
      #expect(fired.count == 1)
      let again = probeTrack { _ = root.optional?.value }
      root.mutate { $0.optional = ProbeLeaf() }
      #expect(again.count == 1)
    }
    do {
      let root = ObservedRoot(ProbeState())
      let fired = probeTrack { _ = root.currentValue.leaf.value }
      root.mutate { $0.leaf.label = "x" }
      #expect(fired.count == 0)
      root.mutate { $0.leaf.value = 5 }
      #expect(fired.count == 1)
    }
  }

  // MARK: Apple semantics, compared with an @Observable control

  @Test func nestedWithObservationTrackingMatchesApple() {
    // Control: Apple's @Observable — inner scope's reads are merged into the outer scope.
    let control = ProbeControl()
    let (co, ci) = (ProbeCounter(), ProbeCounter())
    withObservationTracking {
      _ = control.count
      withObservationTracking { _ = control.name } onChange: { ci.tick() }
    } onChange: { co.tick() }
    control.name = "x"
    let store = probeStore()
    let (so, si) = (ProbeCounter(), ProbeCounter())
    withObservationTracking {
      _ = store.count
      withObservationTracking { _ = store.name } onChange: { si.tick() }
    } onChange: { so.tick() }
    store.send(.edit { $0.name = "x" })
    #expect(so.count == co.count, "outer: store \(so.count) vs Apple \(co.count)")
    #expect(si.count == ci.count, "inner: store \(si.count) vs Apple \(ci.count)")
    // Then count: outer (if not yet fired) fires
    let storeB = probeStore()
    let (bo, bi) = (ProbeCounter(), ProbeCounter())
    withObservationTracking {
      _ = storeB.count
      withObservationTracking { _ = storeB.name } onChange: { bi.tick() }
    } onChange: { bo.tick() }
    storeB.send(.edit { $0.count += 1 })
    #expect(bo.count == 1 && bi.count == 0, "count change: outer \(bo.count) inner \(bi.count)")
  }

  @Test func readsAfterInnerWithObservationTrackingStillTracked() {
    let store = probeStore()
    let outer = ProbeCounter()
    withObservationTracking {
      withObservationTracking { _ = store.name } onChange: {}
      _ = store.count  // after the inner scope returned
    } onChange: { outer.tick() }
    store.send(.edit { $0.count += 1 })
    #expect(outer.count == 1)
  }

  // MARK: Several scopes, two stores

  @Test func sameStoreTwoScopesAtOnce() {
    let store = probeStore()
    let a = probeTrack { _ = store.count }
    let b = probeTrack { _ = store.count; _ = store.name }
    let c = probeTrack { _ = store.name }
    store.send(.edit { $0.count += 1 })
    #expect(a.count == 1 && b.count == 1 && c.count == 0, "\(a.count) \(b.count) \(c.count)")
    store.send(.edit { $0.name = "x" })
    #expect(a.count == 1 && b.count == 1 && c.count == 1, "\(a.count) \(b.count) \(c.count)")
  }

  @Test func sameStoreManyScopesOnSameElement() {
    let store = probeStore()
    let counters = (0..<20).map { _ in probeTrack { _ = store.rows[id: 2]?.title } }
    let other = probeTrack { _ = store.rows[id: 1]?.title }
    store.send(.rows(.element(id: 2, action: .rename("q"))))
    #expect(counters.map(\.count) == Array(repeating: 1, count: 20))
    #expect(other.count == 0)
  }

  @Test func twoStoresOfSameType() {
    let a = probeStore()
    let b = probeStore()
    let fa = probeTrack { _ = a.count; _ = a.leaf.value; _ = a.rows[id: 1]?.title }
    let fb = probeTrack { _ = b.count }
    b.send(.edit { $0.leaf.value += 1; $0.rows[id: 1]?.title = "x" })
    b.send(.edit { $0.count += 1 })
    #expect(fa.count == 0, "store A heard store B: \(fa.count)")
    #expect(fb.count == 1)
    a.send(.edit { $0.rows[id: 1]?.title = "y" })
    #expect(fa.count == 1)
  }

  @Test func twoStoresSharingACopiedState() {
    let a = probeStore()
    a.send(.edit { $0.leaf.value = 3 })
    let b = probeStore(a.currentState)  // a copy of a's state
    let fa = probeTrack { _ = a.leaf.value; _ = a.rows[id: 2]?.title; _ = a.optional?.value }
    let fb = probeTrack { _ = b.leaf.value; _ = b.rows[id: 2]?.title; _ = b.optional?.value }
    b.send(.edit { $0.leaf.value += 1 })
    #expect(fa.count == 0, "A heard B's leaf: \(fa.count)")
    #expect(fb.count == 1)
    let fb2 = probeTrack { _ = b.rows[id: 2]?.title }
    a.send(.edit { $0.rows[id: 2]?.title = "x" })
    #expect(fa.count == 1)
    #expect(fb2.count == 0, "B heard A's row: \(fb2.count)")
    let fb3 = probeTrack { _ = b.optional?.value }
    a.send(.edit { $0.optional?.value += 1 })
    #expect(fb3.count == 0)
  }

  @Test func rootAndStoreSharingState() {
    let root = ObservedRoot(ProbeState())
    let store = probeStore(root.currentValue)
    let fr = probeTrack { _ = root.rows[id: 1]?.title; _ = root.deep.l2.l3.leaf.value }
    let fs = probeTrack { _ = store.rows[id: 1]?.title; _ = store.deep.l2.l3.leaf.value }
    store.send(.edit { $0.rows[id: 1]?.title = "x"; $0.deep.l2.l3.leaf.value = 1 })
    #expect(fr.count == 0)
    #expect(fs.count == 1)
    root.mutate { $0.rows[id: 1]?.title = "y" }
    #expect(fr.count == 1)
  }

  // MARK: Lifetimes

  @Test func rearmInOnChangeFiftyRounds() {
    let store = probeStore()
    final class Rearm: @unchecked Sendable {
      var fires = 0
      var depth = 0
      var maxDepth = 0
      let read: @MainActor () -> Void
      init(_ read: @escaping @MainActor () -> Void) { self.read = read }
      @MainActor func arm() {
        withObservationTracking { read() } onChange: { [self] in
          MainActor.assumeIsolated {
            fires += 1
            depth += 1
            maxDepth = max(maxDepth, depth)
            if fires < 500 { arm() }
            depth -= 1
          }
        }
      }
    }
    let rearm = Rearm { _ = store.count; _ = store.rows[id: 2]?.title; _ = store.optional?.value }
    rearm.arm()
    var perRound: [Int] = []
    for round in 0..<50 {
      let before = rearm.fires
      switch round % 4 {
      case 0: store.send(.edit { $0.count += 1 })
      case 1: store.send(.rows(.element(id: 2, action: .rename("r\(round)"))))
      case 2: store.send(.edit { $0.name += "."; $0.optional?.value += 1 })
      default: store.send(.edit { $0.rows[id: 1]?.title += "."; $0.count += 1; $0.rows[id: 2]?.title += "." })
      }
      perRound.append(rearm.fires - before)
      // a quiet send between rounds
      store.send(.edit { $0.flag.toggle() })
      perRound[perRound.count - 1] = rearm.fires - before
    }
    #expect(perRound == Array(repeating: 1, count: 50), "per round fires: \(perRound)")
  }

  @Test func rearmAfterSendLikeSwiftUIFiftyRounds() {
    let store = probeStore()
    var perRound: [Int] = []
    var fired = probeTrack { for row in probeRowsStore(store) { _ = row.title }; _ = store.leaf.value }
    for round in 0..<50 {
      switch round % 5 {
      case 0: store.send(.rows(.element(id: 1, action: .rename("t\(round)"))))
      case 1: store.send(.edit { $0.rows.append(ProbeRow(.init(id: 100 + round))) })
      case 2: store.send(.leaf(.increment))
      case 3: store.send(.edit { _ = $0.rows.remove(id: 100 + round - 2) })
      default: store.send(.edit { $0.leaf = ProbeLeaf(.init(value: round)) })
      }
      store.send(.rows(.element(id: 1, action: .increment)))  // quiet
      store.send(.leaf(.rename("x\(round)")))  // quiet
      perRound.append(fired.count)
      fired = probeTrack { for row in probeRowsStore(store) { _ = row.title }; _ = store.leaf.value }
    }
    #expect(perRound == Array(repeating: 1, count: 50), "per round: \(perRound)")
  }

  @Test func rearmOnChildAndElementStoresFiftyRounds() {
    let store = probeStore()
    let rows = probeRowsStore(store)
    let child = store.scope(state: \.leaf, action: ProbeAction.leaf)
    var perRound: [Int] = []
    var fired = probeTrack { _ = rows[id: 3]?.count; _ = child.value }
    for round in 0..<50 {
      if round.isMultiple(of: 2) { rows[id: 3]?.send(.increment) } else { child.send(.increment) }
      rows[id: 3]?.send(.rename("q\(round)"))  // quiet
      child.send(.rename("c\(round)"))  // quiet
      rows[id: 2]?.send(.increment)  // quiet
      perRound.append(fired.count)
      fired = probeTrack { _ = rows[id: 3]?.count; _ = child.value }
    }
    #expect(perRound == Array(repeating: 1, count: 50), "per round: \(perRound)")
  }

  @Test func neverFiredScopeThenStoreDeallocated() {
    weak var weakStore: ProbeStore?
    let fired: ProbeCounter
    do {
      let store = probeStore()
      weakStore = store
      fired = probeTrack {
        _ = store.count; _ = store.rows[id: 1]?.title
        for row in probeRowsStore(store) { _ = row.title }
        _ = store.scope(state: \.leaf, action: ProbeAction.leaf).value
      }
    }
    #expect(weakStore == nil, "store kept alive by a never-fired Observation scope")
    #expect(fired.count == 0)
    // A new store of the same type must not fire the old scope.
    let other = probeStore()
    other.send(.edit { $0.count += 1; $0.rows[id: 1]?.title = "z" })
    #expect(fired.count == 0)
  }

  @Test func storeCreatedInsideTrackingClosure() {
    var kept: ProbeStore?
    let fired = probeTrack {
      let s = probeStore()
      _ = s.count
      kept = s
    }
    kept!.send(.edit { $0.name = "x" })
    #expect(fired.count == 0)
    kept!.send(.edit { $0.count += 1 })
    #expect(fired.count == 1)
    weak var weakInner: ProbeStore?
    let fired2 = probeTrack {
      let s = probeStore()
      weakInner = s
      _ = s.leaf.value
    }
    #expect(weakInner == nil)
    #expect(fired2.count == 0)
  }

  // MARK: Sends from onChange / inside tracking

  @Test func secondSendFromInsideOnChange() {
    let store = probeStore()
    let nameFired = probeTrack { _ = store.name }
    let countFired = ProbeCounter()
    withObservationTracking { _ = store.count } onChange: {
      countFired.tick()
      MainActor.assumeIsolated { _ = store.send(.edit { $0.name = "from onChange" }) }
    }
    store.send(.edit { $0.count += 1 })
    #expect(countFired.count == 1)
    #expect(nameFired.count == 1)
    #expect(store.name == "from onChange")
    #expect(store.count == 1)
  }

  @Test func sendFromOnChangeChangingTheSameField() {
    let store = probeStore()
    let other = probeTrack { _ = store.count }
    let fired = ProbeCounter()
    withObservationTracking { _ = store.count } onChange: {
      fired.tick()
      MainActor.assumeIsolated { _ = store.send(.edit { $0.count += 10 }) }
    }
    store.send(.edit { $0.count += 1 })
    #expect(fired.count == 1)
    #expect(other.count == 1)
    #expect(store.count == 11)
    let after = probeTrack { _ = store.count }
    store.send(.edit { $0.count += 1 })
    #expect(after.count == 1)
  }

  @Test func mutationInsideTrackedClosure() {
    let store = probeStore()
    let fired = probeTrack {
      _ = store.count
      store.send(.edit { $0.name = "inside" })  // not read
    }
    #expect(fired.count == 0)
    store.send(.edit { $0.name = "later" })
    #expect(fired.count == 0, "name was never read by the closure, yet fired: \(fired.count)")
    store.send(.edit { $0.count += 1 })
    #expect(fired.count == 1)
  }

  @Test func mutationOfReadFieldInsideTrackedClosure() {
    // Control: Apple
    let control = ProbeControl()
    let cf = ProbeCounter()
    withObservationTracking {
      _ = control.count
      control.count += 1
    } onChange: { cf.tick() }
    let controlInside = cf.count
    control.count += 1
    let store = probeStore()
    let fired = probeTrack {
      _ = store.count
      store.send(.edit { $0.count += 1 })
    }
    // As Observation's own: the change inside is missed, the next one heard.
    #expect((fired.count, controlInside) == (0, 0))
    store.send(.edit { $0.count += 1 })
    #expect((fired.count, cf.count) == (1, 1))
  }

  @Test func readAfterMutationInsideTrackedClosure() {
    let store = probeStore()
    let fired = probeTrack {
      store.send(.edit { $0.rows.append(ProbeRow(.init(id: 50))) })
      _ = store.rows[id: 50]?.title  // read what was just added
      store.send(.edit { $0.optional = ProbeLeaf(.init(value: 1)) })
      _ = store.optional?.value
    }
    #expect(fired.count == 0)
    store.send(.edit { $0.rows[id: 50]?.count += 1; $0.optional?.label = "x" })
    #expect(fired.count == 0)
    store.send(.edit { $0.rows[id: 50]?.title = "x" })
    #expect(fired.count == 1)
  }

  // MARK: Effects

  @Test(.timeLimit(.minutes(1)))
  func effectSendsLater() async {
    let store = probeStore()
    let gate = ProbeGate()
    let (stream, cont) = AsyncStream<Void>.makeStream()
    let fired = ProbeCounter()
    let nameFired = probeTrack { _ = store.name }
    withObservationTracking { _ = store.count } onChange: { fired.tick(); cont.yield() }
    let task = store.send(.later(gate, 42))
    #expect(fired.count == 0)
    gate.open()
    var it = stream.makeAsyncIterator()
    await it.next()
    await task.finish()
    #expect(fired.count == 1)
    #expect(nameFired.count == 0)
    #expect(store.count == 42)
  }

  @Test(.timeLimit(.minutes(1)))
  func mergedEffectSendsBoth() async {
    let store = probeStore()
    let countFired = probeTrack { _ = store.count }
    let nameFired = probeTrack { _ = store.name }
    let flagFired = probeTrack { _ = store.flag }
    await store.send(.sendBoth).finish()
    #expect(countFired.count == 1)
    #expect(nameFired.count == 1)
    #expect(flagFired.count == 0)
    #expect(store.count == 1 && store.name == "!")
  }

  // MARK: StateHistory

  @Test func undoRedoFiresOnlyForWhatChanged() {
    let store = probeStore()
    let history = StateHistory(store)
    history.record()
    store.send(.edit { $0.rows[id: 2]?.title = "x"; $0.count = 5 })
    history.record()
    store.send(.edit { $0.leaf.value = 7 })
    let row1 = probeTrack { _ = store.rows[id: 1]?.title }
    let row2 = probeTrack { _ = store.rows[id: 2]?.title }
    let count = probeTrack { _ = store.count }
    let leaf = probeTrack { _ = store.leaf.value }
    let rowsCount = probeTrack { _ = store.rows.count }
    let deep = probeTrack { _ = store.deep.l2.l3.leaf.value }
    let opt = probeTrack { _ = store.optional?.value }
    history.undo()  // leaf 7 -> 0
    #expect(leaf.count == 1)
    #expect(row1.count == 0 && row2.count == 0 && count.count == 0, "\(row1.count) \(row2.count) \(count.count)")
    #expect(rowsCount.count == 0, "rows.count heard an undo that did not touch rows: \(rowsCount.count)")
    #expect(deep.count == 0 && opt.count == 0, "\(deep.count) \(opt.count)")
    history.undo()  // row 2 title, count
    #expect(row2.count == 1 && count.count == 1)
    #expect(row1.count == 0, "row1 spurious: \(row1.count)")
    let afterUndo = probeTrack { _ = store.rows[id: 2]?.title; _ = store.leaf.value }
    history.redo()
    #expect(afterUndo.count == 1)
    #expect(store.rows[id: 2]?.title == "x")
  }

  @Test func undoOfOptionalAndRowsStructure() {
    let store = probeStore()
    let history = StateHistory(store)
    history.record()
    store.send(.edit { $0.optional = nil; $0.rows.remove(id: 3) })
    let opt = probeTrack { _ = store.optional?.value }
    let row3 = probeTrack { _ = store.rows[id: 3]?.title }
    let row1 = probeTrack { _ = store.rows[id: 1]?.title }
    history.undo()
    #expect(opt.count == 1)
    #expect(row3.count == 1)
    #expect(row1.count == 0, "row1 spurious: \(row1.count)")
    #expect(store.optional?.value == 0 && store.rows[id: 3]?.title == "c")
    let opt2 = probeTrack { _ = store.optional?.value }
    store.send(.optional(.increment))
    #expect(opt2.count == 1)
  }

  // MARK: Optional set to nil and back, whole replacements

  @Test func optionalNilAndBackRearming() {
    let store = probeStore()
    var counts: [Int] = []
    for i in 0..<10 {
      let f = probeTrack { _ = store.optional?.value }
      if i.isMultiple(of: 2) { store.send(.edit { $0.optional = nil }) } else { store.send(.edit { $0.optional = ProbeLeaf() }) }
      store.send(.edit { $0.count += 1 })
      counts.append(f.count)
    }
    #expect(counts == Array(repeating: 1, count: 10), "\(counts)")
    let child = probeTrack { _ = store.scope(state: \.optional, action: ProbeAction.optional)?.value }
    store.send(.edit { $0.optional = ProbeLeaf() })
    store.send(.optional(.increment))
    #expect(child.count == 1)
    let child2 = probeTrack { _ = store.scope(state: \.optional, action: ProbeAction.optional)?.value }
    store.send(.optional(.increment))
    #expect(child2.count == 1)
  }

  @Test func wholeStateReplacementThenFieldReads() {
    let store = probeStore()
    var seq: [Int] = []
    for i in 0..<10 {
      let f = probeTrack { _ = store.rows[id: 1]?.title; _ = store.leaf.value }
      var n = ProbeState()
      n.leaf.value = i + 1
      let replacement = n
      store.send(.edit { $0 = replacement })
      seq.append(f.count)
    }
    #expect(seq == Array(repeating: 1, count: 10), "\(seq)")
    // after replacements, a row change still heard
    let f = probeTrack { _ = store.rows[id: 1]?.title }
    store.send(.rows(.element(id: 1, action: .rename("zz"))))
    #expect(f.count == 1)
  }

  @Test func elementStoreSurvivesRemoveAndReAdd() {
    let store = probeStore()
    let rows = probeRowsStore(store)
    let f1 = probeTrack { _ = rows[id: 2]?.title }
    store.send(.edit { $0.rows.remove(id: 2) })
    #expect(f1.count == 1)
    let f2 = probeTrack { _ = rows[id: 2]?.title }
    store.send(.edit { $0.rows.append(ProbeRow(.init(id: 2, title: "back"))) })
    #expect(f2.count == 1)
    let f3 = probeTrack { _ = rows[id: 2]?.title }
    rows[id: 2]?.send(.rename("again"))
    #expect(f3.count == 1)
    #expect(store.rows[id: 2]?.title == "again")
  }

  @Test func elementStoreKeptAcrossChanges() {
    let store = probeStore()
    let row = probeRowsStore(store)[id: 2]!
    var counts: [Int] = []
    for i in 0..<20 {
      let f = probeTrack { _ = row.title }
      if i.isMultiple(of: 2) {
        store.send(.edit { $0.rows[id: 2]?.title = "t\(i)" })
      } else {
        store.send(.edit { $0.rows.swapAt(0, 1); $0.rows[id: 2]?.title = "t\(i)" })
      }
      store.send(.edit { $0.rows[id: 2]?.count += 1 })
      counts.append(f.count)
    }
    #expect(counts == Array(repeating: 1, count: 20), "\(counts)")
  }

  // MARK: Observations async sequence

  @Test(.timeLimit(.minutes(1)))
  func observationsCount() async {
    let store = probeStore()
    var it = Observations { store.count }.makeAsyncIterator()
    #expect(await it.next() == 0)
    store.send(.edit { $0.count += 1 })
    #expect(await it.next() == 1)
    store.send(.edit { $0.name = "x" })
    store.send(.edit { $0.count += 1 })
    #expect(await it.next() == 2)
    for i in 3...10 {
      store.send(.edit { $0.count = i })
      #expect(await it.next() == i)
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func observationsDeepAndRows() async {
    let store = probeStore()
    var it = Observations { "\(store.deep.l2.l3.leaf.value)|\(store.rows.count)|\(store.rows[id: 1]?.title ?? "-")" }
      .makeAsyncIterator()
    #expect(await it.next() == "0|3|a")
    store.send(.edit { $0.deep.l2.l3.leaf.value = 1 })
    #expect(await it.next() == "1|3|a")
    store.send(.edit { $0.rows.append(ProbeRow(.init(id: 9))) })
    #expect(await it.next() == "1|4|a")
    store.send(.rows(.element(id: 1, action: .rename("q"))))
    #expect(await it.next() == "1|4|q")
    store.send(.edit { $0.rows.remove(id: 1) })
    #expect(await it.next() == "1|3|-")
  }

  @Test(.timeLimit(.minutes(1)))
  func observationsOptionalNilAndBack() async {
    let store = probeStore()
    var it = Observations { store.optional?.value }.makeAsyncIterator()
    #expect(await it.next() == .some(0))
    store.send(.edit { $0.optional = nil })
    #expect(await it.next() == .some(nil))
    store.send(.edit { $0.optional = ProbeLeaf(.init(value: 4)) })
    #expect(await it.next() == .some(4))
    store.send(.optional(.increment))
    #expect(await it.next() == .some(5))
  }

  @Test(.timeLimit(.minutes(1)))
  func observationsFromEffect() async {
    let store = probeStore()
    let gate = ProbeGate()
    var it = Observations { store.count }.makeAsyncIterator()
    #expect(await it.next() == 0)
    let task = store.send(.later(gate, 7))
    gate.open()
    #expect(await it.next() == 7)
    await task.finish()
  }

  @Test(.timeLimit(.minutes(1)))
  func observationsStoreCollection() async {
    let store = probeStore()
    var it = Observations { probeRowsStore(store).map { $0.title }.joined(separator: ",") }.makeAsyncIterator()
    #expect(await it.next() == "a,b,c")
    store.send(.rows(.element(id: 2, action: .rename("B"))))
    #expect(await it.next() == "a,B,c")
    store.send(.edit { $0.rows.append(ProbeRow(.init(id: 4, title: "d"))) })
    #expect(await it.next() == "a,B,c,d")
  }

  @Test(.timeLimit(.minutes(1)))
  func observationsElementStoreAfterQuietChanges() async {
    let store = probeStore()
    let rows = probeRowsStore(store)
    var it = Observations { rows[id: 2]?.title ?? "gone" }.makeAsyncIterator()
    #expect(await it.next() == "b")
    rows[id: 2]?.send(.increment)  // quiet
    rows[id: 2]?.send(.rename("B"))
    #expect(await it.next() == "B")
    store.send(.edit { $0.rows.remove(id: 2) })
    #expect(await it.next() == "gone")
  }

  @Test(.timeLimit(.minutes(1)))
  func observationsCaseScope() async {
    let store = probeStore()
    var it = Observations {
      store.scope(state: \.screen, action: ProbeAction.screen)
        .scope(case: ProbeScreen.leaf, action: ProbeScreenAction.leaf)?.value ?? -1
    }.makeAsyncIterator()
    #expect(await it.next() == 0)
    store.send(.screen(.leaf(.increment)))
    #expect(await it.next() == 1)
    store.send(.edit { $0.screen = .empty })
    #expect(await it.next() == -1)
    store.send(.edit { $0.screen = .leaf(ProbeLeaf(.init(value: 9))) })
    #expect(await it.next() == 9)
  }
}
