/// How a parent reducer reaches a child's state in place: through a key path into the state, or,
/// for an observable state, into its `Fields`.
///
/// A key path into an observable state goes through its dynamic members, which key paths apply
/// with get and set: the child would be copied out, mutated (forking its extent, as a copy is
/// alive) and written back, on every action. A stored-property path into `Fields` is projected in
/// place. Held as `any StatePath` (one key path fits the existential's inline buffer: storing one
/// allocates nothing), so the reducers that hold one keep a single public shape.
@usableFromInline
protocol StatePath<Root, Value> {
  associatedtype Root
  associatedtype Value
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result
}

@usableFromInline
struct KeyPathStatePath<Root, Value>: StatePath {
  @usableFromInline let keyPath: WritableKeyPath<Root, Value>

  @usableFromInline
  init(_ keyPath: WritableKeyPath<Root, Value>) { self.keyPath = keyPath }

  @usableFromInline
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    body(&root[keyPath: keyPath])
  }
}

@usableFromInline
struct FieldStatePath<Root: ObservableState, Value>: StatePath {
  @usableFromInline let keyPath: WritableKeyPath<Root.Fields, Value>

  @usableFromInline
  init(_ keyPath: WritableKeyPath<Root.Fields, Value>) { self.keyPath = keyPath }

  @usableFromInline
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    body(&root._$fields[field: keyPath])
  }
}
