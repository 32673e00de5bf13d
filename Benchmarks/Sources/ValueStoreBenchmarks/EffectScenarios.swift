import ValueStore

/// Effects that end: a list whose every row runs an effect under its own cancellation id (a
/// `.cancellable(id: row.id)` each). Ending one effect must cost O(its own ids), so the time per
/// effect stays flat as the number in flight grows (it grew with it: each end walked every id).
enum EffectScenarios {
  static let sizes = [1_000, 16_000]

  static func name(effects: Int) -> String { "end \(StoreScenarios.rowsLabel(effects)) effects, distinct ids" }

  static var all: [Scenario] {
    sizes.map { effects in
      Scenario(
        name: name(effects: effects),
        note: """
          One operation is one effect: `await store.send(.start).finish()` where `.start` returns \
          \(effects) `.run` effects, each `.cancellable(id:)` with an id of its own, divided by \
          \(effects). Counts the main actor's work — starting each task, recording its id, the \
          bookkeeping when it ends — not the empty bodies, which run on the cooperative pool.
          """,
        ours: Workload(
          "ours.effects.end.\(effects)", operationsPerIteration: effects,
          setUp: { Store(initialState: Spawner.State()) { Spawner(count: effects) } },
          asyncBody: { store, n in
            for _ in 0..<n { await store.send(.start).finish() }
          }))
    }
  }
}

/// Starts `count` effects with distinct cancellation ids.
struct Spawner: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var started = 0 }
    var _$fields = Observed(Fields())
  }
  enum Action: Sendable { case start }

  let count: Int

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.started += count
    return .merge((0..<count).map { id in Effect<Action>.run { _ in }.cancellable(id: id) })
  }
}
