import StoreTesting
import Testing
import ValueStore

/// `action: { $0 }` — TCA's `\.self` — runs the child on every action, in `Scope` (it compiled and
/// never ran the child); a recursive case's constructor still extracts only its case.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct IdentityScopeTests {
  @Test func aScopeWithTheIdentityActionRunsTheChildOnEveryAction() async {
    let store = TestStore(initialState: Tally()) {
      Scope(state: \Tally.self, action: { $0 }) { TallyFeature() }
    }
    await store.send(.increment) { $0.count = 1 }
  }

  indirect enum Tree: Equatable, Sendable, CasePathable { case leaf(Int), child(Tree) }

  @Test func aRecursiveCaseIsNotTheIdentity() {
    let child = CasePath(Tree.child)
    #expect(child.extract(from: .child(.leaf(1))) == .leaf(1))
    #expect(child.extract(from: .leaf(1)) == nil)
    let identity = CasePath<Tree, Tree> { $0 }
    #expect(identity.extract(from: .leaf(2)) == .leaf(2))
    #expect(identity.extract(from: .child(.leaf(3))) == .child(.leaf(3)))
  }
}
