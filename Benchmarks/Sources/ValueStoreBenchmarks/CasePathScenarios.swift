import ValueStore

/// Extracting a child action from its parent action: a case path made from the case constructor
/// against a hand-written `if case`. Half the actions are the case, half another case whose
/// payload is also a `String`-carrying enum (so the type alone cannot decide).
enum CasePathScenarios {
  enum Child: Sendable { case set(String), clear }
  enum Parent: Sendable { case child(Child), other(Child), reset }
  static let actions: [Parent] = [.child(.set("a title longer than fifteen bytes")), .other(.clear)]
  static let stored = CasePath(Parent.child)

  static var all: [Scenario] {
    [
      Scenario(
        name: "case path extract",
        note: """
          `CasePath(Parent.child).extract(from:)` (made once) on a parent action, alternately that \
          case and another with the same payload type / the hand-written `if case let .child(a) = \
          action`.
          """,
        ours: Workload("ours.casepath.extract", setUp: { (actions, stored) }) { state, n in
          let (actions, path) = state
          for i in 0..<n { blackHole(path.extract(from: actions[i & 1])) }
        },
        plain: Workload("plain.casepath.extract", setUp: { actions }) { actions, n in
          for i in 0..<n {
            if case let .child(child) = actions[i & 1] { blackHole(child) } else { blackHole(Child?.none) }
          }
        }
      ),
      Scenario(
        name: "case path extract, made per use",
        note: """
          As above with the case path made anew for each extraction, as a `body` rebuilt for \
          each action does.
          """,
        ours: Workload("ours.casepath.extract.fresh", setUp: { actions }) { actions, n in
          for i in 0..<n { blackHole(CasePath(Parent.child).extract(from: actions[i & 1])) }
        },
        plain: Workload("plain.casepath.extract", setUp: { actions }) { actions, n in
          for i in 0..<n {
            if case let .child(child) = actions[i & 1] { blackHole(child) } else { blackHole(Child?.none) }
          }
        }
      ),
    ]
  }
}
