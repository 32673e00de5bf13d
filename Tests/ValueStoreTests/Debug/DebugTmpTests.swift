import Testing
import Observation
@testable import ValueStore

@MainActor @Suite struct DebugTmpTests {
  @Test func plain() {
    let store = Store(initialState: BridgeState(), reducer: BridgeFeature())
    let fired = FireCounter()
    withObservationTracking { _ = store.plain[0].count } onChange: { fired.tick() }
    print("window", ThreadContext.current.window != nil)
    store.send(.edit { $0.plain[0].count += 1 })
    print("fired", fired.count)
    let ours = FireCounter()
    _ = withTracking { store.plain[0].count } onChange: { _ in ours.tick() }
    store.send(.edit { $0.plain[0].count += 1 })
    print("ours", ours.count)
  }
}
