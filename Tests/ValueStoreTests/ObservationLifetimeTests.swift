import Foundation
import Observation
import Testing
@testable import ValueStore

/// What an Observation scope subscribed to through a holder lives as long as the holder, as with
/// an `@Observable` object: a scope that never fires (a view that went away before any change, an
/// `Observations` sequence dropped) is released with the holder — below the top level, once the
/// thread that read it next reads through a bridge or finds Observation not tracking. The read
/// asks Observation whether it tracks through an object of the holder's, never a global one,
/// whose registrar would keep every such scope — and whatever its `onChange` captured — for good.
@MainActor @Suite struct ObservationLifetimeTests {
  final class Canary: Sendable {}

  @Test(arguments: 0..<ObservationBridgeTests.shapes.count)
  func aScopeThatNeverFiredGoesWithTheStore(_ index: Int) {
    let shape = ObservationBridgeTests.shapes[index]
    var store: Store<BridgeState, BridgeFeature.Action>? = Store(initialState: BridgeState(), reducer: BridgeFeature())
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      withObservationTracking { shape.read(store!) } onChange: { _ = canary }
    }
    store = nil
    // A read below the top level went through a bridge the thread caches: dropped at its next
    // bridged read, or once Observation is next seen not tracking there (as here).
    untracked {}
    #expect(weakCanary == nil, "kept: \(shape.name)")
  }

  @Test(arguments: 0..<ObservationBridgeTests.shapes.count)
  func aScopeThatNeverFiredGoesWithTheRoot(_ index: Int) {
    let shape = ObservationBridgeTests.shapes[index]
    guard let read = shape.rootRead else { return }
    var root: ObservedRoot<BridgeState>? = ObservedRoot(BridgeState())
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      withObservationTracking { read(root!) } onChange: { _ = canary }
    }
    root = nil
    untracked {}  // see above
    #expect(weakCanary == nil, "kept: \(shape.name)")
  }

  /// `untracked` asks Observation whether it tracks through the thread's probe, which the scope
  /// records: the thread drops it once Observation is seen not tracking there.
  @Test func aScopeThatWentUntrackedGoesOnceObservationStopsTrackingHere() {
    var store: Store<BridgeState, BridgeFeature.Action>? = Store(initialState: BridgeState(), reducer: BridgeFeature())
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      withObservationTracking {
        _ = store!.count
        untracked { _ = store!.name }
      } onChange: { _ = canary }
    }
    store = nil
    untracked {}  // asks again, with Observation not tracking
    #expect(weakCanary == nil)
  }

  /// The same for Apple's own object, as the reference.
  @Test func anObservableObjectsScopeGoesWithIt() {
    var model: AppleModel? = AppleModel()
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      withObservationTracking { _ = model!.count } onChange: { _ = canary }
    }
    model = nil
    #expect(weakCanary == nil)
  }
}

/// An `@Observable` class as the macro writes it.
private final class AppleModel: Observable {
  private let registrar = ObservationRegistrar()
  private var _count = 0
  var count: Int {
    registrar.access(self, keyPath: \.count)
    return _count
  }
}
