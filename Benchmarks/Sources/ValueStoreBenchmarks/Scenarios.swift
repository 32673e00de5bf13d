/// Every scenario, in table order. A new group is a file with an `all` list, added here.
var allScenarios: [Scenario] {
  ReadScenarios.all
    + WriteScenarios.all
    + FieldKindScenarios.all
    + TrackingScenarios.all
    + CopyOnWriteScenarios.all
    + CollectionScenarios.all
    + SnapshotStorageScenarios.all
    + StoreScenarios.all
    + ListGrowthScenarios.all
    + HistoryScenarios.all
    + CasePathScenarios.all
    + BodyScenarios.all
    + HopScenarios.all
    + BridgeScenarios.all
    + SharedScenarios.all
    + TestingScenarios.all
    + EffectScenarios.all
}
