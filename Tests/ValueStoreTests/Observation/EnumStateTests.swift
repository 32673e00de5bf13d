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

/// An enum case with a plain payload (`note(String)`) has an opaque identity: its case alone
/// cannot tell `.note("a")` from `.note("b")`. Every way a value enters the place is a change when
/// it differs, and none when it is equal.
@Suite struct PlainPayloadEnumTests {
  enum Screen: Equatable, Sendable, ObservationIdentifiable {
    case counter(Child), note(String), idle
    var observationIdentity: ObservationIdentity {
      switch self {
      case let .counter(child): ObservationIdentity(caseOf: self, child)
      case .note, .idle: ObservationIdentity(caseOf: self)
      }
    }
    mutating func _detach() {
      if case var .counter(child) = self {
        child._detach()
        self = .counter(child)
      }
    }
  }
  struct Holder: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var screen = Screen.note("a"); var screens: [Screen] = [.note("a"), .idle] }
    var _$fields = Observed(Fields())
  }

  /// Each write, applied to the field and to the whole state, and whether it is a change.
  static var writes: [(String, Screen, (inout Screen) -> Void, Bool)] {[
    ("assign another payload", .note("a"), { $0 = .note("b") }, true),
    ("assign the same payload", .note("a"), { $0 = .note("a") }, false),
    ("edit the payload in place", .note("a"), { if case let .note(text) = $0 { $0 = .note(text + "!") } }, true),
    ("edit it back to equal", .note("a"), { if case let .note(text) = $0 { $0 = .note(text) } }, false),
    ("to another case", .note("a"), { $0 = .idle }, true),
    ("from a payload-less case", .idle, { $0 = .note("a") }, true),
    ("payload-less, unchanged", .idle, { $0 = .idle }, false),
    ("to an observable payload", .note("a"), { $0 = .counter(Child()) }, true),
  ]}

  @Test func aFieldHearsEveryChangeOfAPlainPayloadAndNoneOfAnEqualOne() {
    for (name, initial, write, isChange) in Self.writes {
      for inPlace in [false, true] {
        var state = Holder()
        state.screen = initial
        let root = ObservedRoot(state)
        let screen = tracking { root.screen }
        root.mutate {
          if inPlace {
            write(&$0.screen)  // through the field's `_modify`
          } else {
            var value = $0.screen
            write(&value)
            $0.screen = value  // through its setter
          }
        }
        #expect(screen.count == (isChange ? 1 : 0), "\(name), in place: \(inPlace)")
      }
    }
  }

  @Test func aWholeStateHearsEveryChangeOfAPlainPayloadAndNoneOfAnEqualOne() {
    for (name, initial, write, isChange) in Self.writes {
      let root = ObservedRoot(initial)
      let whole = tracking { root.currentValue }
      root.mutate { write(&$0) }
      #expect(whole.count == (isChange ? 1 : 0), "\(name)")
    }
  }

  @Test func anArrayOfSuchEnumsHearsItsElementsChanges() {
    let root = ObservedRoot(Holder())
    let screens = tracking { root.screens }
    root.mutate { $0.screens[0] = .note("b") }
    #expect(screens.count == 1)
    let again = tracking { root.screens }
    root.mutate { $0.screens[0] = .note("b") }
    #expect(again.count == 0)
  }
}
