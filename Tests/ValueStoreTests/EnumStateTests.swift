import Testing
@testable import ValueStore

/// Enum state: an optional of an enum whose payload-less case is `case: 0` (issue 12, defect 5),
/// and an enum as the whole state of a holder or a store (defect 6).
@Suite struct EnumStateTests {
  struct WithOptionalMode: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var mode: Mode? }
    var _$fields = Observed(Fields())
  }

  @Test func nilAndAPayloadLessCaseAreDifferentValues() {
    let root = ObservedRoot(WithOptionalMode())
    for next in [Mode?.some(.idle), nil, .some(.editing(Child())), .some(.idle), nil] {
      let mode = tracking { root.mode }
      root.mutate { $0.mode = next }
      #expect(mode.count == 1, "\(String(describing: next))")
    }
    let mode = tracking { root.mode }
    root.mutate { $0.mode = nil }
    #expect(mode.count == 0)
  }

  @Test func nilAndAPayloadLessCaseAreDifferentIdentities() {
    // Compared outside `#expect`: it would reflect the identities' unowned(unsafe) extents.
    let nilVersusIdle = Mode?.none.observationIdentity == Mode?.some(.idle).observationIdentity
    let nilVersusCaseZero = Child?.none.observationIdentity == Mode.idle.observationIdentity
    #expect(!nilVersusIdle)
    #expect(!nilVersusCaseZero)
  }

  @Test func anEnumAsTheRootOfAHolder() {
    let root = ObservedRoot(Mode.idle)
    let whole = tracking { root.currentValue }
    let read = tracking { root.read { $0.payload?.count } }
    root.mutate { $0 = .idle }
    #expect(whole.count == 0)
    #expect(read.count == 0)
    root.mutate { $0 = .editing(Child()) }
    #expect(whole.count == 1)
    #expect(read.count == 1)

    let payloadCount = tracking { root.read { $0.payload?.count } }
    let again = tracking { root.currentValue }
    root.mutate { $0.modifyEditing { $0.count += 1 } }
    #expect(payloadCount.count == 1)
    #expect(again.count == 0)
    root.mutate { $0 = .idle }
    #expect(again.count == 1)
  }

  @MainActor @Test func anEnumAsTheStateOfAStore() {
    let store = Store(initialState: Mode.idle) {
      Reduce<Mode, String> { state, action in
        switch action {
        case "edit": state = .editing(Child())
        case "idle": state = .idle
        default: state.modifyEditing { $0.count += 1 }
        }
        return .none
      }
    }
    let state = tracking { store.currentState }
    store.send("idle")
    #expect(state.count == 0)
    store.send("edit")
    #expect(state.count == 1)
    let count = tracking { store.withState { $0.payload?.count } }
    let title = tracking { store.withState { $0.payload?.title } }
    store.send("increment")
    #expect(count.count == 1)
    #expect(title.count == 0)
  }
}
