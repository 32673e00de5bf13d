import Testing
import Observation
@testable import ValueStore

@MainActor @Suite struct DebugTmpTests {
  final class Canary: Sendable {}
  @Test func collection() {
    var store: Store<BridgeState, BridgeFeature.Action>? = Store(initialState: BridgeState(), reducer: BridgeFeature())
    weak var weakStore = store
    weak var weakLocation = store?.holderRoot?.location
    weak var weakBox = store?.root
    weak var weakHolderRoot = store?.holderRoot
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      withObservationTracking { _ = store!.scope(state: \.rows, action: CasePath(BridgeFeature.Action.rows))[id: 2]?.title } onChange: { _ = canary }
    }
    store = nil
    print("box", weakBox == nil, "holderRoot", weakHolderRoot == nil, "store", weakStore == nil, "location", weakLocation == nil, "canary", weakCanary == nil)
  }
}
