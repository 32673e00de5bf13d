import Observation
import ValueStore

/// Sending through a composition of `body`s three levels deep: app → tab → list → counter, each
/// level a `Scope` in its parent's body. The body of every level is built anew for each action.
enum BodyScenarios {
  static var all: [Scenario] {
    [
      Scenario(
        name: "send through 3 levels of body",
        note: """
          `store.send(.tab(.list(.counter(.increment))))`: three `Scope`s, each extracting its \
          child action with `CasePath(Action.child)` (made anew with the body for each action), then `count += 1` / the same \
          call chain on nested @Observable models / a plain nested struct's `count += 1`.
          """,
        ours: Workload("ours.send.body3", setUp: { store(extract: false) }) { store, n in
          MainActor.assumeIsolated {
            for i in 0..<n {
              store.send(.tab(.list(.counter(.increment))))
              blackHole(i)
            }
          }
        },
        apple: Workload("apple.send.body3", setUp: { AppleApp() }) { model, n in
          for i in 0..<n {
            model.tab.list.counter.increment()
            blackHole(i)
          }
        },
        plain: Workload("plain.send.body3", setUp: { PlainApp() }) { plain, n in
          for i in 0..<n {
            plain.tab.list.counter.count += 1
            blackHole(i)
          }
        }
      ),
      Scenario(
        name: "send through 3 levels of body, explicit extract",
        note: "As above with case paths given an explicit `extract:` closure.",
        ours: Workload("ours.send.body3.extract", setUp: { store(extract: true) }) { store, n in
          MainActor.assumeIsolated {
            for i in 0..<n {
              store.send(.tab(.list(.counter(.increment))))
              blackHole(i)
            }
          }
        },
        apple: Workload("apple.send.body3", setUp: { AppleApp() }) { model, n in
          for i in 0..<n {
            model.tab.list.counter.increment()
            blackHole(i)
          }
        }
      ),
    ]
  }

  static func store(extract: Bool) -> Store<AppLevel.State, AppLevel.Action> {
    MainActor.assumeIsolated { Store(initialState: AppLevel.State()) { AppLevel(explicit: extract) } }
  }
}

struct AppLevel: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var tab = TabLevel.State(); var selected = 0 }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable { case tab(TabLevel.Action), select(Int) }
  let explicit: Bool

  var body: some Reducer<State, Action> {
    Scope(state: \.tab, action: explicit ? Self.tab : CasePath(Action.tab)) { TabLevel(explicit: explicit) }
    Reduce { state, action in
      if case let .select(tab) = action { state.selected = tab }
      return .none
    }
  }

  static let tab = CasePath<Action, TabLevel.Action>(embed: Action.tab) {
    if case let .tab(action) = $0 { action } else { nil }
  }
}

struct TabLevel: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var list = ListLevel.State(); var badge = 0 }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable { case list(ListLevel.Action), clearBadge }
  let explicit: Bool

  var body: some Reducer<State, Action> {
    Scope(state: \.list, action: explicit ? Self.list : CasePath(Action.list)) { ListLevel(explicit: explicit) }
    Reduce { state, action in
      if case .clearBadge = action { state.badge = 0 }
      return .none
    }
  }

  static let list = CasePath<Action, ListLevel.Action>(embed: Action.list) {
    if case let .list(action) = $0 { action } else { nil }
  }
}

struct ListLevel: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var counter = Counter(); var query = "" }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable { case counter(CounterFeature.Action), search(String) }
  let explicit: Bool

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: explicit ? Self.counter : CasePath(Action.counter)) { CounterFeature() }
    Reduce { state, action in
      if case let .search(query) = action { state.query = query }
      return .none
    }
  }

  static let counter = CasePath<Action, CounterFeature.Action>(embed: Action.counter) {
    if case let .counter(action) = $0 { action } else { nil }
  }
}

@Observable
final class AppleApp: @unchecked Sendable {
  var tab = AppleTab()
}

@Observable
final class AppleTab: @unchecked Sendable {
  var list = AppleList()
}

@Observable
final class AppleList: @unchecked Sendable {
  var counter = AppleCounterModel()
}

struct PlainApp {
  struct Tab { var list = List() }
  struct List { var counter = PlainCounter() }
  var tab = Tab()
}
