import Foundation
import Observation
import Testing
@testable import ValueStore

/// A value leaves its place in a holder and comes back holding the extent it had there: an element
/// removed (or a stack element popped) and restored by a snapshot or copy written back, an
/// optional child set to nil and restored, an enum case left and restored, a child replaced and
/// restored. Then it is read, and what was read changes (in place, or replaced).
///
/// An element's location leaves the holder's tree with the element (`Location.removeChild`); the
/// extent of a copy still holding the element stayed bound to it. Written back, the element was
/// at a location made anew that could not bind it: a read there was stale at once (the observer
/// fired as it was installed — for nothing — and, one-shot, missed the change that came).
@Suite(.timeLimit(.minutes(1))) struct WriteBackAfterRemovalTests {
  // MARK: - The randomized case

  /// Randomized (seed 0x362abfc5519ede1), exactly as the runner ran it.
  static let seedOps: [RelOp] = [
    .mutate([.rowsAppend(3)]),
    .snapshot(1),
    .track(RelObserverSpec(paths: [.rowsMap], style: .anchored, isLoop: false, viaObservation: true)),
    .mutate([.rowsRemove(3), .rootFromSnapshot(1)]),
    .track(RelObserverSpec(paths: [.rowsMap], style: .chain, isLoop: false)),
    .track(RelObserverSpec(paths: [.rowsCount], style: .anchored, isLoop: false, writesWhileReading: .rootReset)),
  ]

  @Test func seedHolder() {
    let runner = RelRunner(makeTarget: { RelHolderTarget() }, avoiding: RelRandomConfig.avoiding)
    let failure = runner.run(Self.seedOps)
    #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
  }

  /// The store's shrunk case: `scoped` reads instead of `anchored` ones.
  @MainActor @Test func seedStore() {
    var ops = Self.seedOps
    ops[2] = .track(RelObserverSpec(paths: [.rowsMap], style: .scoped, isLoop: false, viaObservation: true))
    ops[5] = .track(RelObserverSpec(paths: [.rowsCount], style: .scoped, isLoop: false, writesWhileReading: .rootReset))
    let runner = RelRunner(makeTarget: { RelStoreTarget() }, avoiding: RelRandomConfig.avoiding)
    let failure = runner.run(ops)
    #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
  }

  // MARK: - By hand

  /// The mechanism in five lines: the element read after it came back is its location's again.
  @Test func elementRemovedThenRestoredBySnapshotInOneMutation() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows.append(Row(id: 3)) }
    let snapshot = root.currentValue
    _ = tracking { root.read { $0.rows.map(\.count) } }  // row 3 has a location
    root.mutate { state in
      state.rows.remove(id: 3)
      state = snapshot
    }
    let counts = tracking { root.rows.map(\.count) }
    #expect(counts.count == 0, "nothing it read changed since")
    root.mutate { $0.rows[id: 3]?.count += 1 }
    #expect(counts.count == 1)

    let replaced = tracking { root.rows[id: 3]?.count }
    #expect(replaced.count == 0)
    root.mutate { $0 = RelState() }
    #expect(replaced.count == 1)
  }

  /// The element's own values below it: its child's location left with it.
  @Test func nestedElementRemovedThenRestored() {
    let root = ObservedRoot(Shelf())
    root.mutate { $0.items.append(ShelfItem(id: 1)) }
    let snapshot = root.currentValue
    _ = tracking { root.read { $0.items[id: 1]?.child.count } }
    root.mutate { state in
      state.items.remove(id: 1)
      state = snapshot
    }
    let count = tracking { root.items[id: 1]?.child.count }
    #expect(count.count == 0, "nothing it read changed since")
    root.mutate { $0.items[id: 1]?.child.count += 1 }
    #expect(count.count == 1)
    #expect(root.items[id: 1]?.child.count == 1)

    // Through the array alone, a copy of it taken inside the mutation.
    let again = tracking { root.items[id: 1]?.child.count }
    root.mutate { state in
      let saved = state.items
      state.items.remove(id: 1)
      state.items = saved
    }
    let after = tracking { root.items[id: 1]?.child.count }
    #expect(after.count == 0, "nothing it read changed since")
    root.mutate { $0.items[id: 1]?.child.count += 1 }
    #expect(again.count == 1)
    #expect(after.count == 1)
  }

  /// A stack element popped and restored by the snapshot written back.
  @Test func stackElementPoppedThenRestored() {
    let root = ObservedRoot(Shelf())
    root.mutate { $0.stack = StackState([Child(), Child()]) }
    let snapshot = root.currentValue
    _ = tracking { root.read { $0.stack[id: 1]?.count } }
    root.mutate { state in
      state.stack.popLast()
      state = snapshot
    }
    let count = tracking { root.stack[id: 1]?.count }
    #expect(count.count == 0, "nothing it read changed since")
    root.mutate { $0.stack[id: 1]?.count += 1 }
    #expect(count.count == 1)

    let again = tracking { root.read { $0.stack[id: 1]?.count } }
    root.mutate { state in
      state.stack.removeLast()
      state = snapshot
    }
    #expect(again.count == 1, "the element it read was replaced by the snapshot's")
  }

  /// A store: the element read through a scoped store after it came back.
  @MainActor @Test func storeElementRemovedThenRestored() {
    let target = RelStoreTarget()
    target.mutate([.rowsAppend(3)])
    target.env.snapshots[1] = target.current
    let first = FireCounter()
    _ = target.install(RelObserverSpec(paths: [.rowCount(3)], style: .scoped, isLoop: false), first)
    target.mutate([.rowsRemove(3), .rootFromSnapshot(1)])
    #expect(first.count == 1)
    for style in [RelReadStyle.chain, .anchored, .scoped] {
      let fires = FireCounter()
      _ = target.install(RelObserverSpec(paths: [.rowCount(3), .rowsMap], style: style, isLoop: false), fires)
      #expect(fires.count == 0, "\(style): nothing it read changed since")
      target.mutate([.rowAdd(3, 1)])
      #expect(fires.count == 1, "\(style)")
    }
  }

  // MARK: - Generated over the shapes

  /// Every way of leaving a place and coming back, read before (so that locations exist) and
  /// after, then changed: checked against the model by the randomized suite's runner, which
  /// also tells an observer notified as it was installed.
  @Test func holderShapes() {
    let runner = RelRunner(makeTarget: { RelHolderTarget() }, avoiding: RelRandomConfig.avoiding)
    let sequences = RelLeaveAndReturn.sequences(styles: [.chain, .anchored])
    var failures: [String] = []
    for ops in sequences {
      if let failure = runner.run(ops) { failures.append(RelLeaveAndReturn.report(ops, failure)) }
    }
    #expect(failures.count == 0, "\(failures.count) of \(sequences.count) failed; first:\n\(failures.prefix(3).joined(separator: "\n"))")
  }

  @MainActor @Test func storeShapes() {
    let runner = RelRunner(makeTarget: { RelStoreTarget() }, avoiding: RelRandomConfig.avoiding)
    let sequences = RelLeaveAndReturn.sequences(styles: [.chain, .scoped], thin: true)
    var failures: [String] = []
    for ops in sequences {
      if let failure = runner.run(ops) { failures.append(RelLeaveAndReturn.report(ops, failure)) }
    }
    #expect(failures.count == 0, "\(failures.count) of \(sequences.count) failed; first:\n\(failures.prefix(3).joined(separator: "\n"))")
  }
}

/// The sequences of `WriteBackAfterRemovalTests`' generated tests.
enum RelLeaveAndReturn {
  /// How a value leaves its place, and the paths that read it there.
  static let leaves: [(step: RelStep, paths: [RelPath])] = [
    (.rowsRemove(3), [.rowsMap, .rowCount(3), .rowTitle(3)]),
    (.rowsSetNil(3), [.rowCount(3), .rowsCount]),
    (.rowsRemoveElement(3), [.rowsMap]),
    (.rowsPopLast, [.rowCount(3), .rowsMap]),
    (.rowsRemoveFirst(1), [.rowCount(1), .rowsMap]),
    (.rowsRemoveSubrange(1, 2), [.rowCount(2), .rowsContains(2)]),
    (.rowsReplaceSubrange(2, 1, [4]), [.rowCount(3), .rowsMap]),
    (.rowSetNew(3, 1), [.rowCount(3)]),
    (.rowsRebuilt(.copy), [.rowsMap]),
    (.optionalNil, [.optional, .optionalCount]),
    (.optionalNew(1), [.optionalCount]),
    (.modeIdle, [.mode, .modeCount]),
    (.modeNote("a"), [.modeCount]),
    (.modeNew(1), [.modeCount]),
    (.maybeModeNil, [.maybeMode]),
    (.childNew(1), [.child, .childCount]),
    (.childReset, [.childCount]),
  ]

  /// How it comes back: the ops before the mutation that leaves, and the step that restores.
  static func returns(for leave: RelStep) -> [(before: [RelOp], step: RelStep)] {
    var result: [(before: [RelOp], step: RelStep)] = [
      ([.snapshot(1)], .rootFromSnapshot(1)),
      ([.snapshot(1)], .rootUpdatedFromSnapshot(1)),
      ([.copyOut(0, .root)], .rootFromCopy(0)),
    ]
    switch leave {
    case .rowsRemove, .rowsSetNil, .rowsRemoveElement, .rowsPopLast, .rowsRemoveFirst, .rowsRemoveSubrange,
      .rowsReplaceSubrange, .rowSetNew, .rowsRebuilt:
      result.append(([.copyOut(0, .rows)], .rowsFromCopy(0)))
      result.append(([.copyOut(0, .row(3))], .rowSetCopy(0)))
    case .optionalNil, .optionalNew:
      result.append(([.copyOut(0, .optional)], .optionalFromCopy(0)))
    case .childNew, .childReset:
      result.append(([.copyOut(0, .child)], .childFromCopy(0)))
    default: break
    }
    return result
  }

  /// What changes afterwards: the path's own field written in place, the root replaced (as a
  /// mutation, and from inside a tracking closure, as the randomized case did), the value left
  /// again.
  static func changes(_ path: RelPath, _ leave: RelStep) -> [RelOp] {
    var result: [RelOp] = [
      .mutate([.rootReset]),
      .track(RelObserverSpec(paths: [.count], style: .anchored, isLoop: false, writesWhileReading: .rootReset)),
      .mutate([leave]),
    ]
    if let write = path.fieldWrite(delta: 1, title: "b") { result.append(.mutate([write])) }
    return result
  }

  static let populate: RelOp = .mutate([
    .rowsAppend(1), .rowsAppend(2), .rowsAppend(3), .optionalNew(0), .modeNew(0), .maybeModeNew(0),
  ])

  /// Every combination; `thin` keeps one of the reads before (for the slower store).
  static func sequences(styles: [RelReadStyle], thin: Bool = false) -> [[RelOp]] {
    var result: [[RelOp]] = []
    for (leave, paths) in leaves {
      for path in paths {
        for (before, restore) in returns(for: leave) {
          for together in [true, false] {
            let mutations: [RelOp] = together ? [.mutate([leave, restore])] : [.mutate([leave]), .mutate([restore])]
            for earlier in thin ? [(styles[0], false)] : [(styles[0], false), (styles[1], true)] {
              let read = RelOp.track(RelObserverSpec(paths: [path], style: earlier.0, isLoop: false, viaObservation: earlier.1))
              for style in styles {
                let later = RelOp.track(RelObserverSpec(paths: [path], style: style, isLoop: false))
                for change in changes(path, leave) {
                  result.append([populate] + before + [read] + mutations + [later, change])
                }
              }
            }
          }
        }
      }
    }
    return result
  }

  static func report(_ ops: [RelOp], _ failure: RelFailure) -> String {
    ops.enumerated().map { "  \($0.offset). \($0.element)" }.joined(separator: "\n") + "\n  \(failure)"
  }
}

/// A state whose collection's elements hold children, and a stack.
struct Shelf: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var items: IdentifiedArrayOf<ShelfItem> = []
    var stack = StackState<Child>()
  }
  var _$fields = Observed(Fields())
}

struct ShelfItem: ObservableState, Identifiable, Equatable, Sendable {
  struct Fields: Identifiable, Equatable, Sendable {
    var id: Int
    var child = Child()
  }
  var _$fields: Observed<Fields>
}

extension ShelfItem {
  init(id: Int) { _$fields = Observed(Fields(id: id)) }
}
