import StoreTesting
import Testing
import ValueStore

/// Bindings as TCA has them: `BindableAction`, `BindingAction.set`, `BindingReducer`, matching a
/// binding of one field in a reducer, and a store field a view binds to (`$store.name`).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct BindingTests {
  struct Settings: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var name = ""
      var isOn = false
      var edits = 0
    }
    var _$fields = Observed(Fields())
  }

  struct SettingsFeature: Reducer {
    enum Action: BindableAction, Equatable, Sendable { case binding(BindingAction<Settings>), reset }
    var body: some Reducer<Settings, Action> {
      BindingReducer()
      Reduce { state, action in
        switch action {
        case .binding(\.name): state.edits += 1
        case .binding: break
        case .reset: state = Settings()
        }
        return .none
      }
    }
  }

  @Test func aBindingActionSetsItsFieldBeforeTheReducersAfterIt() async {
    let store = TestStore(initialState: Settings()) { SettingsFeature() }
    await store.send(.binding(.set(\.name, "Blob"))) {
      $0.name = "Blob"
      $0.edits = 1
    }
    await store.send(.binding(.set(\.isOn, true))) { $0.isOn = true }
  }

  @Test func bindingActionsAreEqualWhenTheySetTheSameFieldToAnEqualValue() {
    typealias Binding = BindingAction<Settings>
    #expect(Binding.set(\.name, "a") == .set(\.name, "a"))
    #expect(Binding.set(\.name, "a") != .set(\.name, "b"))
    #expect(Binding.set(\.isOn, true) != .set(\.name, "a"))
  }

  @Test func aStoreFieldSetThroughTheStoreSendsABinding() {
    let store = Store(initialState: Settings()) { SettingsFeature() }
    let name = Tracked { _ = store.name }
    store.name = "Blob"
    #expect(store.name == "Blob")
    #expect(store.edits == 1)
    #expect(name.fires == 1)
    // What `@Bindable`'s `$store.name` writes through.
    let keyPath: ReferenceWritableKeyPath<Store<Settings, SettingsFeature.Action>, String> = \.name
    store[keyPath: keyPath] = "Blob 2"
    #expect(store.name == "Blob 2")
    #expect(store.edits == 2)
  }
}

extension BindingTests {
  /// TCA's view actions: the binding case is in a nested action.
  struct ViewFeature: Reducer {
    enum Action: Equatable, Sendable {
      case view(View)
      enum View: BindableAction, Equatable, Sendable { case binding(BindingAction<Settings>), tapped }
    }
    var body: some Reducer<Settings, Action> {
      BindingReducer(action: Action.view)
      Reduce { state, action in
        if case .view(.binding(\.name)) = action { state.edits += 1 }
        return .none
      }
    }
  }

  @Test func aBindingInAViewActionIsApplied() async {
    let store = TestStore(initialState: Settings()) { ViewFeature() }
    await store.send(.view(.binding(.set(\.name, "Blob")))) {
      $0.name = "Blob"
      $0.edits = 1
    }
    await store.send(.view(.tapped))
  }
}

/// Counts the calls of one tracking's `onChange`.
@MainActor final class Tracked {
  nonisolated(unsafe) var fires = 0
  init(_ read: () -> Void) {
    withTracking(read) { [self] _ in fires += 1 }
  }
}
