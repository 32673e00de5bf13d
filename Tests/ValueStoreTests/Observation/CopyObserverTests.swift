import Testing
import Observation
@testable import ValueStore

// Copies never notify each other: a copy taken out of a holder and observed bare hears its own
// changes, never the holder's. (Found by a user-style probe: a holder's write moved on to its own
// fork every registration of the value it forked — also those of the copy, which still holds
// that value — and a root replaced, or an element removed, notified the copy's readers too.)
// Every way to take a copy × every read of it × every write of the holder (and of the copy).

/// A read of a value, and what it saw.
struct CopyRead: CustomTestStringConvertible, Sendable {
  let name: String
  let read: @Sendable (WriteState) -> String
  var testDescription: String { name }

  static let all: [CopyRead] = [
    CopyRead(name: "count") { "\($0.count)" },
    CopyRead(name: "child.count") { "\($0.child.count)" },
    CopyRead(name: "outer.middle.child.count") { "\($0.outer.middle.child.count)" },
    CopyRead(name: "optional?.count") { "\(String(describing: $0.optional?.count))" },
    CopyRead(name: "mode payload") { state in
      if case let .editing(child) = state.mode { return "\(child.count)" }
      return "no payload"
    },
    CopyRead(name: "rows.count") { "\($0.rows.count)" },
    CopyRead(name: "rows[id: 2]?.count") { "\(String(describing: $0.rows[id: 2]?.count))" },
    CopyRead(name: "for row in rows") { $0.rows.map { "\($0.id):\($0.count):\($0.title)" }.joined() },
    CopyRead(name: "plain.first?.count") { "\(String(describing: $0.plain.first?.count))" },
    CopyRead(name: "stack[id: 1]?.count") { "\(String(describing: $0.stack[id: 1]?.count))" },
  ]
}

@MainActor @Suite struct CopyObserverTests {
  /// The ways to take a copy of a holder's value, outside tracking.
  static let takes: [(name: String, take: @MainActor (ObservedRoot<WriteState>, Store<WriteState, WriteFeature.Action>) -> WriteState)] = [
    ("root.currentValue", { root, _ in root.currentValue }),
    ("root.read { $0 }", { root, _ in root.read { $0 } }),
    ("store.currentState", { _, store in store.currentState }),
    ("store.withState { $0 }", { _, store in store.withState { $0 } }),
  ]

  /// What happened on the thread before the copy is taken: nothing; the holder read, tracked (as
  /// any app's holder is: a view read it — marked as the holder's for good by that read, the
  /// copy's own reads counted as the holder's); or an Observation closure that read the holder,
  /// with what it handed out read again after it ended (a view's render leaves its thread so:
  /// left counting as inside the closure, every later copy taken there was the holder's).
  enum Before: String, CaseIterable, Sendable {
    case nothing
    case trackedRead
    case observationClosure
  }

  @Test(arguments: CopyRead.all, Before.allCases)
  func aCopyTakenOutOfAHolderHearsOnlyItsOwnChanges(_ read: CopyRead, before: Before) {
    for (takeName, take) in Self.takes {
      for write in Write.all {
        let root = ObservedRoot(WriteState())
        let store = Store(initialState: WriteState(), reducer: WriteFeature())
        switch before {
        case .nothing: break
        case .trackedRead:
          _ = tracking { root.read { _ = read.read($0) } }
          _ = tracking { store.withState { _ = read.read($0) } }
        case .observationClosure:
          var handedOut: [WriteState] = []
          withObservationTracking {
            handedOut = [root.read { $0 }, store.withState { $0 }]
          } onChange: {}
          for value in handedOut { _ = read.read(value) }
        }
        var copy = take(root, store)
        let seen = read.read(copy)
        let recorder = tracking { _ = read.read(copy) }
        root.mutate { write.apply(&$0) }
        store.send(.apply(write))
        #expect(recorder.count == 0, "\(takeName), holder: \(write.name)")
        // The copy's own change is heard (a replacement by an equal value is a change too, S6).
        write.apply(&copy)
        if read.read(copy) != seen { #expect(recorder.count == 1, "\(takeName), copy: \(write.name)") }
        #expect(recorder.count <= 1)
      }
    }
  }
}

struct WriteFeature: Reducer {
  enum Action: Sendable { case apply(Write) }
  func reduce(into state: inout WriteState, action: Action) -> Effect<Action> {
    if case let .apply(write) = action { write.apply(&state) }
    return .none
  }
}
