@_spi(Reflection) import Swift

/// A binding action a case key path names by its field: `\.binding.title` with `"Blob"` is
/// `.binding(.set(\.title, "Blob"))`, with the very key path the state's dynamic member gives
/// (so `case .binding(\.title)` matches it), and `receive(\.binding.title)` matches that action.
protocol CaseKeyPathBinding {
  static func set(field: String, to value: (any Sendable)?) throws(CaseEmbedFailure) -> Self
  /// The value it sets if it sets the field named `field`.
  func value(ifSets field: String) -> Any?
}

extension BindingAction: CaseKeyPathBinding where Root: ObservableState {
  static func set(field: String, to value: (any Sendable)?) throws(CaseEmbedFailure) -> Self {
    guard let fieldPath = fieldPath(named: field) else { throw .init(description: "\(typeName(Root.self)) has no field \(field)") }
    let valueType = type(of: fieldPath).valueType
    let name = "\(typeName(Root.self)).\(field)"
    guard let value else { throw .init(description: "\(name) is \(typeName(valueType)), but no value was given") }
    func set<Value>(_: Value.Type) throws(CaseEmbedFailure) -> Self {
      guard let writable = fieldPath as? WritableKeyPath<Root.Fields, Value> else {
        throw .init(description: "\(name) is a constant: a binding cannot set it")
      }
      guard let setter = Setter<Value>.self as? any BindingSetter.Type else {
        throw .init(description: "\(name) is not Equatable: a binding cannot set it")
      }
      guard let typed = value as? Value ?? integerLiteral(value, as: Value.self) else {
        throw .init(description: "\(name) is \(typeName(valueType)), not \(typeName(type(of: value)))")
      }
      return setter.set(writable, typed, in: Root.self)
    }
    return try _openExistential(valueType, do: set)
  }

  func value(ifSets field: String) -> Any? {
    guard let fieldPath = Self.fieldPath(named: field) else { return nil }
    func statePath<Value>(_: Value.Type) -> AnyKeyPath? {
      guard let writable = fieldPath as? WritableKeyPath<Root.Fields, Value> else { return nil }
      let path: WritableKeyPath<Root, Value> = \Root.[dynamicMember: writable]
      return path
    }
    let named: AnyKeyPath? = _openExistential(type(of: fieldPath).valueType, do: statePath)
    guard let named, named == keyPath as AnyKeyPath else { return nil }
    return value as Any
  }

  /// The stored field of the state's `Fields` named `name`.
  private static func fieldPath(named name: String) -> AnyKeyPath? {
    var found: AnyKeyPath?
    _ = _forEachFieldWithKeyPath(of: Root.Fields.self, options: .skippingFieldsWithoutKeyPaths) { field, path in
      if String(cString: field) == name { found = path }
      return found == nil
    }
    return found
  }
}

/// A binding action for a field whose type is known only at run time: `Setter<Value>` conforms
/// where `Value` is `Equatable` (the runtime checks that).
private protocol BindingSetter {
  static func set<Root: ObservableState, Value>(
    _ field: WritableKeyPath<Root.Fields, Value>, _ value: Value, in _: Root.Type
  ) -> BindingAction<Root>
}

private enum Setter<Value> {}

extension Setter: BindingSetter where Value: Equatable {
  static func set<Root: ObservableState, Field>(
    _ field: WritableKeyPath<Root.Fields, Field>, _ value: Field, in _: Root.Type
  ) -> BindingAction<Root> {
    // `value` came in as `Sendable`; a marker protocol has no run-time form, so `Any` is the same box.
    BindingAction(field: \Root.[dynamicMember: field], unsafeBitCast(value as Any, to: (any Sendable).self))
  }
}
