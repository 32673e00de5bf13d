import Foundation
import Testing
@testable import ValueStore

/// Misuse: duplicate and missing ids, actions sent to stores whose state or parent is gone. Each
/// behaves as documented, and says so in a message asserted here word for word.
@Suite(.timeLimit(.minutes(1))) struct ReliabilityHostileInputTests {
  // MARK: Duplicate ids (programming errors: traps)

  #if os(macOS) || os(Linux) || os(Windows)
    /// The message of the trap a child process died of (`…: Fatal error: <message>`).
    static func trapMessage(_ result: ExitTest.Result?) -> String? {
      let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      for line in output.split(separator: "\n") {
        for marker in [": Fatal error: ", ": Precondition failed: "] {
          if let range = line.range(of: marker) { return String(line[range.upperBound...]) }
        }
      }
      return nil
    }

    @Test func duplicateIDsInUniqueElementsTrap() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = IdentifiedArrayOf<Row>(uniqueElements: [Row(id: 1), Row(id: 2), Row(id: 1)])
      }
      #expect(Self.trapMessage(result) == "IdentifiedArray: duplicate id 1")
    }

    @Test func duplicateIDsInAnArrayLiteralTrap() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let rows: IdentifiedArrayOf<Row> = [Row(id: 7), Row(id: 7)]
        _ = rows
      }
      #expect(Self.trapMessage(result) == "IdentifiedArray: duplicate id 7")
    }

    @Test func duplicateIDsThroughAKeyPathTrap() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = IdentifiedArray(uniqueElements: ["a", "b", "a"], id: \.self)
      }
      #expect(Self.trapMessage(result) == "IdentifiedArray: duplicate id a")
    }

    /// Inside a holder's mutation (its lock held): the same trap, not a deadlock.
    @Test func duplicateIDsInsideAMutationTrap() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let root = ObservedRoot(RelState())
        root.mutate { $0.rows = IdentifiedArray(uniqueElements: [Row(id: 3), Row(id: 3)]) }
      }
      #expect(Self.trapMessage(result) == "IdentifiedArray: duplicate id 3")
    }

    @Test func storingAnElementUnderAnotherIDTraps() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var rows: IdentifiedArrayOf<Row> = [Row(id: 1)]
        rows[id: 1] = Row(id: 2)
      }
      #expect(Self.trapMessage(result) == "IdentifiedArray: element id 2 does not match subscript id 1")
    }
  #endif

  /// Decoding is input, not a programming error: a duplicate is a `DecodingError`, not a trap.
  @Test func duplicateIDsInDecodedDataThrow() throws {
    struct Item: Codable, Identifiable, Equatable { var id: Int }
    let data = Data(#"[{"id": 1}, {"id": 2}, {"id": 1}]"#.utf8)
    #expect {
      try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: data)
    } throws: { error in
      guard case let .dataCorrupted(context)? = error as? DecodingError else { return false }
      return context.debugDescription == "IdentifiedArray: duplicate id 1"
    }
  }

  // MARK: Missing ids (documented no-ops)

  /// Reading, mutating, removing or clearing an absent id changes nothing and notifies nobody.
  @Test func missingIDsAreNoOpsThatNotifyNobody() {
    let root = ObservedRoot(ReliabilityThreadTests.populated())
    let before = root.currentValue
    let observers = [
      tracking { root.read { $0.rows.count } },
      tracking { root.read { $0.rows[id: 1]?.count } },
      tracking { _ = root.rows },
    ]
    root.mutate { state in
      state.rows[id: 99]?.count += 1
      state.rows[id: 99]?.title = "x"
      #expect(state.rows.remove(id: 99) == nil)
      state.rows[id: 99] = nil
      state.rows.move(fromOffsets: [], toOffset: 0)
    }
    #expect(root.currentValue == before)
    #expect(observers.allSatisfy { $0.count == 0 })
    // A read of an absent id observes which ids exist: the id appearing notifies it.
    let absent = tracking { root.read { $0.rows[id: 99]?.count } }
    root.mutate { $0.rows.append(Row(id: 99)) }
    #expect(absent.count == 1)
  }

  // MARK: Actions sent where the state is gone

  /// Reducers for the store tests: `.child` increments the optional child (via `ifLet`), element
  /// actions increment the row (via `forEach`).
  @MainActor
  static func store(_ initial: RelState = ReliabilityThreadTests.populated()) -> Store<RelState, RelAction> {
    Store(initialState: initial) {
      Reduce<RelState, RelAction> { state, action in
        if case let .steps(steps) = action {
          for step in steps { step.apply(to: &state, RelCopies()) }
        }
        return .none
      }
      .ifLet(\.optional, action: CasePath(RelAction.child)) {
        Reduce<Child, RelNoAction> { child, _ in
          child.count += 1
          return .none
        }
      }
      .forEach(\.rows, action: CasePath(RelAction.rows)) {
        Reduce<Row, RelNoAction> { row, _ in
          row.count += 1
          return .none
        }
      }
    }
  }

  @MainActor @Test func actionsForMissingElementsOrANilChildAreReportedAndIgnored() {
    let warnings = Warnings()
    let store = Self.store()
    store.send(.steps([.optionalNil]))
    let before = store.currentState
    RuntimeWarning.withHandler({ warnings.append($0) }) {
      store.send(.rows(.element(id: 99, action: .none)))
      store.send(.child(.none))
    }
    #expect(store.currentState == before)
    #expect(
      warnings.all == [
        "forEach received none for element 99, which is not in the array; ignored.",
        "ifLet received none while its state is nil; ignored.",
      ])
  }

  /// A removed element's store: sending is reported and ignored, reads return the last state seen.
  @MainActor @Test func sendingToARemovedElementsStoreIsReportedAndIgnored() {
    let warnings = Warnings()
    let store = Self.store()
    let row = store.scope(state: \.rows, action: CasePath(RelAction.rows))[id: 2]!
    row.send(.none)
    #expect(row.count == 1)
    store.send(.steps([.rowsRemove(2)]))
    let before = store.currentState
    RuntimeWarning.withHandler({ warnings.append($0) }) { row.send(.none) }
    #expect(store.currentState == before)
    #expect(row.hasState == false)
    #expect(row.count == 1)
    #expect(
      warnings.all == [
        "none was sent to a store of RelState → Row[id: 2], whose state no longer exists; the action was ignored."
      ])
  }

  /// An optional child's store after the child became nil: the same.
  @MainActor @Test func sendingToAVanishedOptionalChildsStoreIsReportedAndIgnored() {
    let warnings = Warnings()
    let store = Self.store()
    let child = store.scope(state: \.optional, action: CasePath(RelAction.child))!
    store.send(.steps([.optionalNil]))
    RuntimeWarning.withHandler({ warnings.append($0) }) { child.send(.none) }
    #expect(store.optional == nil)
    #expect(
      warnings.all == [
        "none was sent to a store of RelState → Child, whose state no longer exists; the action was ignored."
      ])
  }

  /// A child store whose parent store object was released still runs its actions: it holds the
  /// parent's core (the state and the effects), which lives until the child goes too.
  @MainActor @Test func sendingToAReleasedStoresChildStoreStillWorks() {
    let warnings = Warnings()
    weak var weakParent: Store<RelState, RelAction>?
    var child: Store<Child, RelNoAction>?
    do {
      let store = Self.store()
      child = store.scope(state: \.optional, action: CasePath(RelAction.child))
      weakParent = store
    }
    #expect(weakParent == nil)
    RuntimeWarning.withHandler({ warnings.append($0) }) { child?.send(.none) }
    #expect(child?.count == 1)
    #expect(warnings.all.isEmpty)
  }

  /// An effect that outlives its store (here: work it handed to a task of its own, which store
  /// release does not cancel) and then sends is reported and ignored.
  @MainActor @Test func anEffectSendingAfterItsStoreIsGoneIsReportedAndIgnored() async {
    let warnings = Warnings()
    let gate = Gate()
    let handedOff = HandedOff()
    await RuntimeWarning.withHandler({ warnings.append($0) }) {
      do {
        let store = Store(initialState: RelState()) {
          Reduce<RelState, RelAction> { _, action in
            guard case .steps([]) = action else { return .none }
            return .run { send in
              handedOff.task = Task {
                await gate.wait()
                await send.send(.steps([.addCount(1)]))  // the raw sender: `callAsFunction` checks cancellation
              }
            }
          }
        }
        await store.send(.steps([])).finish()
      }
      gate.open()
      await handedOff.task?.value
    }
    #expect(warnings.all == ["An effect sent steps([count += 1]) to a store that no longer exists; ignored."])
  }
}

/// A task an effect started outside its own (so store release does not cancel it).
final class HandedOff: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Task<Void, Never>?
  var task: Task<Void, Never>? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
