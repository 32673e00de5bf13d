import Observation
import Testing
@testable import ValueStore

// Observation does not tell a closure of the changes it makes itself: `withObservationTracking`
// subscribes when the closure ends. But it tells every scope subscribed when the change is made,
// at once — also a scope whose `onChange` is running and re-armed the view (Observation cancels
// a scope after its `onChange` returns). A view whose body reads a value and then changes it
// must hear exactly what it hears with Observation's own `@Observable` model in its place, armed
// once or re-armed from its `onChange`: every read kind × every place the value lives × both ways
// of arming, run side by side with the same view over an `@Observable` model. (Found by a
// user-style probe: a closure changing a local value it read, re-armed from its `onChange`,
// re-fired for ever, where Observation fires it once per outside change.) Each closure also
// reads a trigger, changed from outside.

/// A field read, and a change of it.
struct OwnChange: CustomTestStringConvertible, Sendable {
  let name: String
  let read: @Sendable (BridgeState) -> Void
  let change: @Sendable (inout BridgeState) -> Void
  var testDescription: String { name }

  static let all: [OwnChange] = [
    OwnChange(name: "count", read: { _ = $0.count }, change: { $0.count += 1 }),
    OwnChange(name: "child.count", read: { _ = $0.child.count }, change: { $0.child.count += 1 }),
    OwnChange(name: "outer.middle.child.count", read: { _ = $0.outer.middle.child.count },
              change: { $0.outer.middle.child.count += 1 }),
    OwnChange(name: "optional?.count", read: { _ = $0.optional?.count }, change: { $0.optional?.count += 1 }),
    OwnChange(name: "mode payload", read: { if case let .editing(child) = $0.mode { _ = child.count } },
              change: { state in
                var child = Child()
                if case let .editing(old) = state.mode { child.count = old.count + 1 }
                state.mode = .editing(child)
              }),
    OwnChange(name: "rows.count", read: { _ = $0.rows.count }, change: { $0.rows.append(Row(id: $0.rows.count + 10)) }),
    OwnChange(name: "rows[id:]?.title", read: { _ = $0.rows[id: 1]?.title }, change: { $0.rows[id: 1]?.title += "x" }),
    OwnChange(name: "for row in rows", read: { for row in $0.rows { _ = row.count } },
              change: { $0.rows[id: 2]?.count += 1 }),
    OwnChange(name: "plain[0].count", read: { _ = $0.plain[0].count }, change: { $0.plain[0].count += 1 }),
  ]
}

/// Where the value read and changed lives.
enum OwnPlace: String, CaseIterable, Sendable {
  /// Made inside the closure.
  case local
  /// A value the view keeps (not in a holder).
  case kept
  /// An `ObservedRoot` the view reads and mutates.
  case root
  /// A `Store` the view reads and sends to.
  case store
}

/// Observation's own model, holding the state whole: the shapes read and change one field, so
/// observing the whole property hears what a field would.
@Observable final class OwnModel: @unchecked Sendable {
  var state = BridgeState()
  var count = 0
}

@Suite struct ObservationOwnChangeTests {
  /// A view over our holders, or over Observation's own models (`apple`).
  final class View: @unchecked Sendable {
    let trigger = ObservedRoot(BridgeState())
    let appleTrigger = OwnModel()
    let root = ObservedRoot(BridgeState())
    let store = MainActor.assumeIsolated { Store(initialState: BridgeState(), reducer: BridgeFeature()) }
    let model = OwnModel()
    var kept = BridgeState()
    var fires = 0
    let shape: OwnChange
    let place: OwnPlace
    let rearms: Bool
    let apple: Bool

    init(_ shape: OwnChange, _ place: OwnPlace, rearms: Bool, apple: Bool) {
      (self.shape, self.place, self.rearms, self.apple) = (shape, place, rearms, apple)
    }

    func body() {
      if apple { return appleBody() }
      _ = trigger.count
      switch place {
      case .local:
        var local = BridgeState()
        shape.read(local)
        shape.change(&local)
      case .kept:
        shape.read(kept)
        // Changed through a copy: an `onChange` run during the change may read `kept`.
        var changed = kept
        shape.change(&changed)
        kept = changed
      case .root:
        root.read { shape.read($0) }
        root.mutate { shape.change(&$0) }
      case .store:
        MainActor.assumeIsolated {
          store.withState { shape.read($0) }
          store.send(.edit(shape.change))
        }
      }
    }

    func appleBody() {
      _ = appleTrigger.count
      let model = place == .local ? OwnModel() : model
      shape.read(model.state)
      var changed = model.state
      shape.change(&changed)
      model.state = changed
    }

    func arm() {
      withObservationTracking { body() } onChange: { [self] in
        fires += 1
        // Capped: a view that hears its own changes re-arms for ever.
        if rearms && fires < 10 { arm() }
      }
    }

    func pullTrigger() {
      if apple { appleTrigger.count += 1 } else { trigger.mutate { $0.count += 1 } }
    }
  }

  /// Fires after arming, then after each of two outside changes.
  static func fires(_ shape: OwnChange, _ place: OwnPlace, rearms: Bool, apple: Bool) -> [Int] {
    let view = View(shape, place, rearms: rearms, apple: apple)
    view.arm()
    var fires = [view.fires]
    for _ in 0..<2 {
      view.pullTrigger()
      fires.append(view.fires)
    }
    return fires
  }

  @MainActor @Test(.timeLimit(.minutes(1)), arguments: OwnChange.all, OwnPlace.allCases)
  func aViewHearsItsOwnChangeAsObservationWould(_ shape: OwnChange, _ place: OwnPlace) {
    for rearms in [false, true] {
      // Past the cap (a loop), the counts tell only how deep the loop nested.
      let ours = Self.fires(shape, place, rearms: rearms, apple: false).map { min($0, 10) }
      let apple = Self.fires(shape, place, rearms: rearms, apple: true).map { min($0, 10) }
      #expect(ours == apple, "re-armed: \(rearms)")
    }
  }

  /// The shape the probe found: a value of the closure's own never fires it.
  @MainActor @Test(.timeLimit(.minutes(1)), arguments: OwnChange.all)
  func aLocalValueReadAndChangedNeverFiresItsClosure(_ shape: OwnChange) {
    #expect(Self.fires(shape, .local, rearms: true, apple: false) == [0, 1, 2])
  }
}

/// A change made in a round of notifications reaches the Apple scopes that read the field before
/// it, and no scope armed after it in the same round (which read the new value).
@Suite struct ObservationChangeInARoundTests {
  final class View: @unchecked Sendable {
    let trigger: ObservedRoot<BridgeState>
    let root: ObservedRoot<BridgeState>
    var fires = 0
    init(_ trigger: ObservedRoot<BridgeState>, _ root: ObservedRoot<BridgeState>) { (self.trigger, self.root) = (trigger, root) }
    func arm() {
      withObservationTracking { _ = (trigger.count, root.child.count) } onChange: { [self] in
        fires += 1
        if fires < 10 { arm() }
      }
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func aViewReArmedInTheRoundOfAChangeDoesNotHearIt() {
    let trigger = ObservedRoot(BridgeState()), root = ObservedRoot(BridgeState())
    // Our observer runs first in the round the trigger starts, and changes what the view reads.
    withTracking { _ = trigger.count } onChange: { _ in root.mutate { $0.child.count += 1 } }
    let view = View(trigger, root)
    view.arm()
    trigger.mutate { $0.count += 1 }
    #expect(view.fires == 1)
    root.mutate { $0.child.count += 1 }
    #expect(view.fires == 2)
  }
}
