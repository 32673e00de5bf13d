extension Store where State: ObservableState, Action: BindableAction, Action.State == State {
  /// A field of the state, read as any field is, and set by sending it as a binding action: so a
  /// view binds to it (SwiftUI's `$store.name`, with `@Bindable var store`), as in TCA.
  ///
  /// ```swift
  /// store.name = "Blob"   // sends .binding(.set(\.name, "Blob"))
  /// TextField("Name", text: $store.name)
  /// ```
  public subscript<T: Equatable & Sendable>(dynamicMember keyPath: WritableKeyPath<State.Fields, T>) -> T {
    get { self[dynamicMember: keyPath as KeyPath<State.Fields, T>] }
    set { send(.binding(.set(\State.[dynamicMember: keyPath], newValue))) }
  }
}
