extension Shared {
  /// A part of this shared value, shared with it: changed through it, read from it, and its readers
  /// told only when the part changes.
  ///
  /// ```swift
  /// let volume: Shared<Double> = $settings.volume
  /// volume.withLock { $0 = 0.5 }   // changes settings.volume; readers of settings hear it
  /// ```
  public subscript<Member: Sendable>(dynamicMember keyPath: WritableKeyPath<Value, Member> & Sendable) -> Shared<Member> {
    project(get: { $0[keyPath: keyPath] }, set: { $0[keyPath: keyPath] = $1 })!
  }

  /// A read-only part of this shared value (a `let`, a computed property), as a ``SharedReader``.
  ///
  /// ```swift
  /// let count: SharedReader<Int> = $items.count
  /// ```
  public subscript<Member: Sendable>(dynamicMember keyPath: KeyPath<Value, Member> & Sendable) -> SharedReader<Member> {
    SharedReader(project(get: { $0[keyPath: keyPath] }, set: { _, _ in })!)
  }

  /// The part `get` reads (nil if absent now) and `set` writes, as a `Shared`; nil if absent now.
  func project<Member: Sendable>(
    mayBeAbsent: Bool = false,
    get: @escaping @Sendable (Value) -> Member?, set: @escaping @Sendable (inout Value, Member) -> Void
  ) -> Shared<Member>? {
    guard let initial = get(reference.expectedOrCurrentValue) else { return nil }
    return Shared<Member>(reference: reference.project(initial: initial, mayBeAbsent: mayBeAbsent, get: get, set: set))
  }

  /// The value of `base`, while it is not nil; nil if it is nil now. Once made, it keeps reading
  /// the last value if `base` becomes nil (a child's state outliving its row), as TCA's does.
  ///
  /// ```swift
  /// guard let syncUp = Shared($syncUps[id: id]) else { return .none }
  /// state.destination = .detail(SyncUpDetail.State(syncUp: syncUp))
  /// ```
  public init?(_ base: Shared<Value?>) {
    // Written only while present: a change through it after its element went does not bring it back.
    guard let unwrapped = base.project(mayBeAbsent: true, get: { $0 }, set: { if $0 != nil { $0 = $1 } }) else {
      return nil
    }
    self = unwrapped
  }
}

extension Shared {
  /// The element with `id`, shared with the collection: nil if it is not there now.
  ///
  /// ```swift
  /// guard let syncUp = Shared($syncUps[id: id]) else { return .none }
  /// ```
  public subscript<ID: Hashable & Sendable, Element: Sendable>(id id: ID) -> Shared<Element?>
  where Value == IdentifiedArray<ID, Element> {
    project(get: { .some($0[id: id]) }, set: { array, element in array[id: id] = element })!
  }
}
