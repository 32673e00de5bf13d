import ValueStore

/// Extracting a child action from its parent action: a case path made from the case constructor
/// against a hand-written `if case`, on actions that are alternately that case and another.
enum CasePathScenarios {
  enum Child: Sendable { case set(String), clear }
  enum Other: Sendable { case ping }
  /// The usual shape: each child's actions in one case.
  enum Parent: Sendable { case child(Child), other(Other), reset }
  /// Two cases with the same payload type: the case path learns its case from a value.
  enum Shared: Sendable { case child(Child), other(Child), reset }

  static let parents: [Parent] = [.child(.set("a title longer than fifteen bytes")), .other(.ping)]
  static let shared: [Shared] = [.child(.set("a title longer than fifteen bytes")), .other(.clear)]

  static var all: [Scenario] {
    [
      Scenario(
        name: "case path extract",
        note: """
          `CasePath(Parent.child).extract(from:)` (made once) on a parent action, alternately that \
          case and another / the hand-written `if case let .child(a) = action`.
          """,
        ours: Workload("ours.casepath.extract", setUp: { (parents, CasePath(Parent.child)) }) { state, n in
          let (actions, path) = state
          for i in 0..<n { blackHole(path.extract(from: actions[i & 1])) }
        },
        plain: handWritten
      ),
      Scenario(
        name: "case path extract, made per use",
        note: "As above with the case path made anew for each extraction, as a `body` built for each action does.",
        ours: Workload("ours.casepath.extract.fresh", setUp: { parents }) { actions, n in
          for i in 0..<n { blackHole(CasePath(Parent.child).extract(from: actions[i & 1])) }
        },
        plain: handWritten
      ),
      Scenario(
        name: "case path extract, shared payload type",
        note: """
          As the first row on an enum where another case carries the same payload type (the case \
          path learns its case from the first value of it).
          """,
        ours: Workload("ours.casepath.extract.shared", setUp: { (shared, CasePath(Shared.child)) }) { state, n in
          let (actions, path) = state
          for i in 0..<n { blackHole(path.extract(from: actions[i & 1])) }
        },
        plain: handWritten
      ),
    ]
  }

  static var handWritten: Workload {
    Workload("plain.casepath.extract", setUp: { parents }) { actions, n in
      for i in 0..<n {
        if case let .child(child) = actions[i & 1] { blackHole(child) } else { blackHole(Child?.none) }
      }
    }
  }
}
