import Testing
@testable import ValueStore

/// Model-based randomized tests: generated sequences of mutations, copies, snapshots, write-backs,
/// transactions and observers, checked operation by operation against `ReliabilityModel.swift`.
@Suite struct ReliabilityRandomTests {
  /// Inside a holder the contract is exact: 0 lost, 0 spurious.
  @Test func holder() {
    relRunRandomSequences(
      "ObservedRoot", count: 6_000, generator: RelGenerator(),
      runner: RelRunner(makeTarget: { RelHolderTarget() }, avoiding: RelRandomConfig.avoiding))
  }

  /// Through a store (reducer actions run the steps): exact as well.
  @MainActor @Test func store() {
    relRunRandomSequences(
      "Store", count: 2_000, generator: RelGenerator(styles: [.chain, .anchored, .scoped]),
      runner: RelRunner(makeTarget: { RelStoreTarget() }, avoiding: RelRandomConfig.avoiding))
  }

  /// A bare variable: never lost; a mutated copy may notify once (S11).
  @Test func bare() {
    relRunRandomSequences(
      "bare value", count: 2_500, generator: RelGenerator(styles: [.anchored], loops: false),
      runner: RelRunner(makeTarget: { RelBareTarget() }, avoiding: RelRandomConfig.avoiding), exact: false)
  }
}
