/// How a parent reducer reaches a child's state in place: through a key path into the state, or,
/// for an observable state, into its `Fields`, or through a case of an enum state.
///
/// A key path into an observable state goes through its dynamic members, which key paths apply
/// with get and set: the child would be copied out, mutated (forking its extent, as a copy is
/// alive) and written back, on every action. A stored-property path into `Fields` is projected in
/// place. An enum rather than a protocol, so that `modify` is specialized with the reducer that
/// holds it (an existential would run it as unspecialized generic code).
@usableFromInline
enum StatePath<Root, Value> {
  case keyPath(WritableKeyPath<Root, Value>)
  /// A `WritableKeyPath<Root.Fields, Value>`; `Root` is `ObservableState` (made by `field(_:)`).
  case fields(AnyKeyPath)
  /// A case of an enum state: the child is there only while the state is in that case.
  case `case`(CasePath<Root, Value>)

  @inlinable
  static func field<Fields>(_ keyPath: WritableKeyPath<Fields, Value>) -> Self
  where Root: ObservableState, Root.Fields == Fields {
    .fields(keyPath)
  }

  /// The child, read without recording a tracked access (reducers run untracked).
  @inlinable
  func get(_ root: Root) -> Value? {
    read(root) { copy $0 }
  }

  /// `body`'s result on the child (untracked), or nil if `root` is in another case than the
  /// child's. A field is read where it is stored, without a copy.
  @inlinable
  func read<Result>(_ root: Root, _ body: (borrowing Value) -> Result) -> Result? {
    switch self {
    case let .keyPath(keyPath):
      return body(root[keyPath: keyPath])
    case let .fields(keyPath):
      let observable = Root.self as! any ObservableState.Type
      return observable._read(root, field: keyPath, body)
    case let .case(casePath):
      return casePath.extract(from: root).map { body($0) }
    }
  }

  /// Where the child lives, for telling presentations apart.
  var location: AnyHashable {
    switch self {
    case let .keyPath(keyPath): keyPath
    case let .fields(keyPath): keyPath
    case let .case(casePath): "\(casePath)"
    }
  }

  /// `body`'s result on the child, or nil if `root` is in another case than the child's.
  @inlinable
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result? {
    switch self {
    case let .keyPath(keyPath):
      return body(&root[keyPath: keyPath])
    case let .fields(keyPath):
      // Folds away where `Root` is concrete: the cast succeeds, and the opened type is `Root`.
      let observable = Root.self as! any ObservableState.Type
      return observable._modify(&root, field: keyPath, body)
    case let .case(casePath):
      return casePath.modify(&root, body)
    }
  }
}

extension ObservableState {
  /// `body`'s result on the field at `keyPath` (a `WritableKeyPath<Fields, Value>`) of `root`, a
  /// `Self` known as `Root` only at run time, read where it is stored.
  @inlinable
  static func _read<Root, Value, Result>(
    _ root: Root, field keyPath: AnyKeyPath, _ body: (borrowing Value) -> Result
  ) -> Result {
    withUnsafePointer(to: root) { root in
      let state = UnsafeRawPointer(root).assumingMemoryBound(to: Self.self)
      return state.pointee._$fields.withField(unsafeDowncast(keyPath, to: WritableKeyPath<Fields, Value>.self), body)
    }
  }

  /// Projects the field at `keyPath` (a `WritableKeyPath<Fields, Value>`) of `root`, a `Self`
  /// known as `Root` only at run time.
  @inlinable @inline(__always)
  static func _modify<Root, Value, Result>(
    _ root: inout Root, field keyPath: AnyKeyPath, _ body: (inout Value) -> Result
  ) -> Result {
    withUnsafeMutablePointer(to: &root) { root in
      let state = UnsafeMutableRawPointer(root).assumingMemoryBound(to: Self.self)
      return body(&state.pointee._$fields[field: unsafeDowncast(keyPath, to: WritableKeyPath<Fields, Value>.self)])
    }
  }
}
