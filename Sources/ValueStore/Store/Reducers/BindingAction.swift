/// An action that sets one field of a state to a value: what a view's binding to a store field
/// sends (`$store.text` in SwiftUI), applied by ``BindingReducer``. TCA's, by name and shape.
///
/// ```swift
/// struct Settings: Reducer {
///   enum Action: BindableAction, Sendable { case binding(BindingAction<SettingsState>), save }
///   var body: some Reducer<SettingsState, Action> {
///     BindingReducer()
///     Reduce { state, action in
///       switch action {
///       case .binding(\.name): state.isDirty = true      // a change of `name`
///       case .binding, .save: break
///       }
///       return .none
///     }
///   }
/// }
/// store.send(.binding(.set(\.name, "Blob")))
/// ```
///
/// Equal when it sets the same field to an equal value.
public struct BindingAction<Root>: Equatable, @unchecked Sendable {  // key paths are immutable
  /// The field it sets.
  public let keyPath: PartialKeyPath<Root>
  /// The value it sets, type-erased.
  public let value: any Sendable
  let set: @Sendable (inout Root) -> Void
  let isEqual: @Sendable (any Sendable) -> Bool

  /// Sets the field at `keyPath` to `value`.
  ///
  /// ```swift
  /// store.send(.binding(.set(\.name, "Blob")))
  /// ```
  public static func set<Value: Equatable & Sendable>(_ keyPath: WritableKeyPath<Root, Value>, _ value: Value) -> Self {
    nonisolated(unsafe) let keyPath = keyPath
    return BindingAction(
      keyPath: keyPath, value: value, set: { $0[keyPath: keyPath] = value },
      isEqual: { ($0 as? Value) == value })
  }

  /// Whether it sets the field at `keyPath`: `case .binding(\.name):` in a reducer.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, bindingAction: Self) -> Bool {
    bindingAction.keyPath == keyPath
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.isEqual(rhs.value)
  }

  /// Applies it to `root`.
  public func apply(to root: inout Root) { set(&root) }
}

extension BindingAction {
  /// `set(keyPath, value)` for a field whose type is known only at run time: `keyPath` is a
  /// `WritableKeyPath<Root, Value>` and `value` an `Equatable` `Value`.
  init(field keyPath: PartialKeyPath<Root>, _ value: any Sendable) {
    nonisolated(unsafe) let (keyPath, equatable) = (keyPath, value as! any Equatable)
    self.init(
      keyPath: keyPath, value: value,
      set: { root in
        func write<Value>(_: Value.Type) {
          root[keyPath: keyPath as! WritableKeyPath<Root, Value>] = value as! Value
        }
        _openExistential(type(of: keyPath).valueType, do: write)
      },
      isEqual: { other in
        func isEqual<Value: Equatable>(_ value: Value) -> Bool { (other as? Value) == value }
        return isEqual(equatable)
      })
  }
}

extension BindingAction: CustomStringConvertible {
  public var description: String { "set(\(keyPath), \(value))" }
}

/// An action with a case for ``BindingAction``s of its feature's state, which ``BindingReducer``
/// applies.
///
/// ```swift
/// enum Action: BindableAction, Sendable { case binding(BindingAction<SettingsState>), save }
/// ```
public protocol BindableAction {
  /// The state its binding actions set.
  associatedtype State
  /// The case that carries a binding action.
  static func binding(_ action: BindingAction<State>) -> Self
}
