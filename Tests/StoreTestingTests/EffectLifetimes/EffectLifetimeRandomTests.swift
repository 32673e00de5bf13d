import StoreTesting
import Testing
import ValueStore

/// Random sequences of what a list screen does — add, remove, remove all, replace the array, start
/// a row's timer, stop it, stop every row's from the parent — against a model of which timers must
/// be running: after each sequence the effects still running are exactly the model's. A timer
/// outliving its row, a row's stop reaching a sibling, or a parent's missing a row fails it.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct EffectLifetimeRandomTests {
  @Test(arguments: 0..<8)
  func runningEffectsMatchTheModel(batch: Int) async {
    for sequence in 0..<25 {
      var random = SplitMix(seed: UInt64(batch * 1_000 + sequence))
      let running = LockIsolated<[Int: Int]>([:])
      let store = Store(initialState: Timers.State()) { Timers(running: running) }
      var model: [Int: Int] = [:]  // row id → timers that must run
      var nextID = 0
      var trace: [Timers.Action] = []
      for _ in 0..<30 {
        let ids = store.withState { Array($0.rows.ids) }
        let action: Timers.Action
        switch random.next(9) {
        case 0, 1:
          action = .add(nextID)
          nextID += 1
        case 2: action = ids.isEmpty ? .removeAll : .remove(ids[random.next(ids.count)])
        case 3: action = .removeAll
        case 4:
          let kept = ids.filter { _ in random.next(2) == 0 }
          action = .replace(kept + [nextID])
          nextID += 1
        case 5, 6: action = ids.isEmpty ? .stopAll : .rows(.element(id: ids[random.next(ids.count)], action: .start))
        case 7: action = ids.isEmpty ? .stopAll : .rows(.element(id: ids[random.next(ids.count)], action: .stop))
        default: action = .stopAll
        }
        trace.append(action)
        store.send(action)
        model.apply(action)
      }
      let expected = model.filter { $0.value > 0 }
      let settled = await eventually { running.value == expected }
      #expect(settled, "seed \(batch * 1_000 + sequence): running \(running.value), expected \(expected) after \(trace)")
      store.send(.removeAll)
      #expect(await eventually { running.value.isEmpty })
    }
  }

  struct Row: Reducer {
    struct State: ObservableState, Equatable, Sendable, Identifiable {
      struct Fields: Identifiable, Equatable, Sendable { var id: Int }
      var _$fields: Observed<Fields>
    }
    enum Action: Equatable, Sendable { case start, stop }
    enum CancelID { case timer }
    let running: LockIsolated<[Int: Int]>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { [id = state.id, running] _ in
          running.withValue { $0[id, default: 0] += 1 }
          defer { running.withValue { $0[id]! -= 1; if $0[id] == 0 { $0[id] = nil } } }
          try? await Task.never()
        }
        .cancellable(id: CancelID.timer)
      case .stop:
        return .cancel(id: CancelID.timer)
      }
    }
  }

  struct Timers: Reducer {
    struct State: ObservableState, Equatable, Sendable {
      struct Fields: Equatable, Sendable { var rows: IdentifiedArrayOf<Row.State> = [] }
      var _$fields = Observed(Fields())
    }
    enum Action: Equatable, Sendable {
      case rows(IdentifiedAction<Int, Row.Action>)
      case add(Int), remove(Int), removeAll, replace([Int]), stopAll
    }
    let running: LockIsolated<[Int: Int]>

    var body: some Reducer<State, Action> {
      Reduce<State, Action> { state, action in
        switch action {
        case let .add(id): state.rows.append(Row.State(_$fields: Observed(.init(id: id))))
        case let .remove(id): state.rows.remove(id: id)
        case .removeAll: state.rows.removeAll()
        case let .replace(ids):
          let rows = state.rows
          state.rows = IdentifiedArray(uniqueElements: ids.map { rows[id: $0] ?? Row.State(_$fields: Observed(.init(id: $0))) })
        case .stopAll: return .cancel(id: Row.CancelID.timer)
        case .rows: break
        }
        return .none
      }
      .forEach(\.rows, action: Action.rows) { Row(running: running) }
    }
  }
}

extension [Int: Int] {
  /// The timers that must run after `action`.
  mutating func apply(_ action: EffectLifetimeRandomTests.Timers.Action) {
    switch action {
    case let .add(id): self[id] = 0
    case let .remove(id): self[id] = nil
    case .removeAll: removeAll()
    case let .replace(ids): self = Dictionary(uniqueKeysWithValues: ids.map { ($0, self[$0] ?? 0) })
    case .stopAll: for key in keys { self[key] = 0 }
    case let .rows(.element(id, .start)): if self[id] != nil { self[id]! += 1 }
    case let .rows(.element(id, .stop)): if self[id] != nil { self[id] = 0 }
    }
  }
}

/// A deterministic random number generator (SplitMix64): a failing seed replays.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}
