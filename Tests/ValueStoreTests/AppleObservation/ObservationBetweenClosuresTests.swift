import Foundation
import Observation
import Testing
@testable import ValueStore

/// Reads made on a thread between two `withObservationTracking` closures — while Observation's
/// window may still be open there, as no holder read found it over — belong to neither closure,
/// and the next closure's reads are recorded as if they had not happened.
@Suite(.timeLimit(.minutes(1))) struct ObservationBetweenClosuresTests {
  /// A read made between two Observation closures (Observation's window still open: no holder
  /// read found it over) belongs to neither: the next closure, repeating one of its own reads,
  /// records only what it read (seed 0x75905827588325a4 of the randomized store suite).
  @MainActor @Test func aReadBetweenClosuresIsNotRecordedForTheNext() {
    struct Edit: Sendable { let apply: @Sendable (inout RelState) -> Void }
    let store = Store(initialState: RelState()) {
      Reduce<RelState, Edit> { state, edit in
        edit.apply(&state)
        return .none
      }
    }
    let (first, second) = (FireCounter(), FireCounter())
    withObservationTracking { _ = (store.childCountViaFields, store.childCountViaFields) } onChange: { first.tick() }
    let copy = store.currentState
    _ = withTracking { (copy.count, copy.child.title) } onChange: { _ in }
    withObservationTracking {
      _ = (store.withState(\.mode), store.withState(\.mode))
    } onChange: {
      second.tick()
    }
    store.send(Edit { $0.count += 2 })
    #expect(second.count == 0)
    #expect(first.count == 1)  // read under `.any`: a computed property of `Fields`
    store.send(Edit { $0.mode = .editing(Child()) })
    #expect(second.count == 1)
  }

  /// A read made between two Observation closures and repeated by the next one is that closure's
  /// from then on: it hears the read's changes.
  @MainActor @Test func aReadRepeatedFromBetweenClosuresIsHeard() {
    let store = Store(initialState: BridgeState(), reducer: BridgeFeature())
    let fired = FireCounter()
    withObservationTracking { _ = store.name } onChange: {}
    let copy = store.currentState
    _ = withTracking { copy.count } onChange: { _ in }
    withObservationTracking { _ = store.withState(\.count) } onChange: { fired.tick() }
    store.send(.edit { $0.count += 1 })
    #expect(fired.count == 1)
  }

  /// A read repeated in a run of reads that outlived its window (closed, and a new one opened)
  /// hands its value out again: reads made on that value are still the holder's. Two generated
  /// sequences of the store suite (base 0x34D2, 14141 then 14143): the first leaves a run of
  /// reads open; in the second, element reads went to the elements' own boxes, and a copy's
  /// removal of an element notified a closure that read it through the store.
  @MainActor @Test func aRunOutlivingItsWindowHandsItsReadsOutAgain() {
    let generator = RelGenerator(styles: [.chain, .anchored, .scoped])
    let runner = RelRunner(makeTarget: { RelStoreTarget() }, avoiding: RelRandomConfig.avoiding)
    let sequences = [14141, 14143].map { generator.sequence(seed: RelRandom.sequenceSeed(base: 0x34D2, index: $0)) }
    #expect(runner.run(sequences[0]).map { $0.kind != .spurious || sequences[0][$0.opIndex].isB6Shaped } ?? true)
    let failure = runner.run(sequences[1])
    #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
  }

  /// A value handed out inside a closure and read after it, while the window Observation opened is
  /// still open, is not recorded for Observation (nothing tracks), and leaves no run of reads
  /// open: the thread's later holder reads ask Observation again, find the window over, and a
  /// copy taken then and observed bare hears only its own changes. (Left open, the run made every
  /// later holder read on the thread count as inside a closure: the window never closed, every
  /// copy taken through a holder was the holder's, and its observers heard the holder.)
  @Test func aReadAfterAClosureLeavesNoRunOpen() {
    let root = ObservedRoot(BridgeState())
    var child: Child?
    withObservationTracking { child = root.child } onChange: {}
    _ = child?.count
    let copy = root.currentValue
    let recorder = tracking { _ = copy.count }
    root.mutate { $0.count += 1 }
    #expect(recorder.count == 0)
    #expect(!ThreadContext.current.appleRecorder.hasOpenRun)
  }

  /// A bare value made after a closure, while the window Observation opened is still open (no
  /// holder read since), is read and written as if nothing tracked: its child is changed in place
  /// (a read holding what it read below would make the write copy it), and nobody hears it.
  @Test func aBareValueReadAfterAClosureIsWrittenInPlace() {
    let root = ObservedRoot(BridgeState())
    withObservationTracking { _ = root.count } onChange: {}
    var state = BridgeState()
    let child = state.child.observationIdentity
    _ = state.child
    state.child.count += 1
    #expect(state.child.count == 1)
    #expect(state.child.observationIdentity.serial == child.serial)
  }
}
