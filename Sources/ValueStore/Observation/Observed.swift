import Synchronization

/// The storage of an observable struct: its fields and the `Extent` that records who observes them.
///
/// Declare it as the struct's only stored property and conform to ``ObservableState``; the fields
/// then read and write like the struct's own:
///
/// ```swift
/// struct Counter: ObservableState, Equatable {
///   struct Fields: Equatable { var count = 0; var fact: String? }
///   var _$fields = Observed(Fields())
///   var isEven: Bool { self.count.isMultiple(of: 2) }
/// }
/// ```
///
/// The extent takes no part in equality, hashing, coding or reflection.
@frozen
public struct Observed<Fields> {
  @usableFromInline var _value: Fields
  @usableFromInline var _extent: Extent

  /// Wraps `fields` with a new extent, detaching observable values that share one
  /// (`Parent(child: c, sibling: c)`): each field is a location of its own from the start.
  @inlinable
  public init(_ fields: Fields) {
    _value = fields
    _extent = Extent()
    detachFields()
  }

  /// All fields, read without recording an access.
  @inlinable
  public var fields: Fields { _value }

  @inlinable
  var identity: ObservationIdentity { ObservationIdentity(_extent) }

  /// Forks a shared extent, keeping the lineage: a copy written back is recognised as a descendant.
  @inlinable
  mutating func makeExtentUnique() {
    if !isKnownUniquelyReferenced(&_extent) { _extent = Extent.fork(of: _extent) }
  }
}

// MARK: - Hot paths

extension Observed {
  /// Reads a field, recording the access when a tracking scope is open anywhere (the key is derived
  /// here, where the key path is a literal). A computed property of `Fields` reads storage directly:
  /// it is a read of the whole value, whose observable fields are handed out before it runs.
  @inlinable
  func read<T>(_ keyPath: KeyPath<Fields, T>) -> T {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) {
      let key = FieldKey.field(keyPath)
      if key == .any { recordWholeRead() }
      let value = _value[keyPath: keyPath]
      if key != .any { recordRead(keyPath, key, value) }
      return value
    }
    return load(keyPath)
  }

  /// Records a tracked read of field `key` (derived by the caller, where the key path is a literal).
  /// An observable `value` is handed out, so reads made on it belong where this one's do.
  @inlinable
  func recordRead<T>(_ keyPath: KeyPath<Fields, T>, _ key: FieldKey, _ value: T) {
    _extent.recordRead(key, keyPath, value)
  }

  /// The field at `keyPath`, untracked. A stored field is loaded at its offset: a key path not
  /// known at compile time costs a metadata lookup to apply.
  @inlinable
  func load<T>(_ keyPath: KeyPath<Fields, T>) -> T {
    withField(keyPath) { copy $0 }
  }

  /// Runs `body` on the field at `keyPath` where it is stored (untracked, as ``load(_:)``).
  @inlinable
  func withField<T, R>(_ keyPath: KeyPath<Fields, T>, _ body: (borrowing T) -> R) -> R {
    guard let offset = MemoryLayout<Fields>.offset(of: keyPath) else { return body(_value[keyPath: keyPath]) }
    return withUnsafePointer(to: _value) { body(UnsafeRawPointer($0).advanced(by: offset).assumingMemoryBound(to: T.self).pointee) }
  }

  /// Makes the extent this value's own (forking a shared one); true if the write needs bookkeeping.
  @inlinable
  mutating func prepareToWrite() -> Bool {
    if _fastPath(isKnownUniquelyReferenced(&_extent)) { return _extent.willWrite() }
    _extent = Extent.fork(of: _extent)
    return true
  }

  @inlinable
  func didWrite(_ keyPath: PartialKeyPath<Fields>) {
    _extent.didChange(.field(keyPath), keyPath)
  }

  /// Writes a field, recording the change for its observers.
  @inlinable
  subscript<T>(unconditional keyPath: WritableKeyPath<Fields, T>) -> T {
    get { read(keyPath) }
    set {
      let bookkeeping = prepareToWrite()
      _value[keyPath: keyPath] = newValue
      if _slowPath(bookkeeping) { didWrite(keyPath) }
    }
    _modify {
      let bookkeeping = prepareToWrite()
      yield &_value[keyPath: keyPath]
      if _slowPath(bookkeeping) { didWrite(keyPath) }
    }
  }

  /// Reads and writes a field as its type calls for (`FieldKind`): a trivial `Equatable` (`Int`, a
  /// small enum) is compared after the write (`count += 0` is no change); an observable value by
  /// identity, through a ``Slot``; another `Equatable` on assignment; anything else always changes.
  /// One accessor, not an overload per kind: the type checker would try every overload at every hop
  /// of a chain (`s.a.b.c.count += 1`), exponentially; the kind folds to a constant. `_modify` has
  /// one `yield`: with two it is not inlined and the key path is applied at run time.
  @inlinable
  subscript<T>(field keyPath: WritableKeyPath<Fields, T>) -> T {
    get { read(keyPath) }
    @inline(__always) set {
      if let observable = FieldKind<T>.observable {
        _ = prepareToWrite()
        let before = observable._identity(of: _value[keyPath: keyPath])
        // An identity that does not describe its value (a plain enum payload) is compared by value.
        if before.isOpaque, FieldKind<T>.isEqual(_value[keyPath: keyPath], newValue) == true { return }
        let slot = Slot(replacing: before, below: _extent.openingSlot(), at: .field(.field(keyPath)))
        _value[keyPath: keyPath] = newValue
        let placed = observable._identity(of: _value[keyPath: keyPath])
        observable._makeIdentityUnique(&_value[keyPath: keyPath])
        reconcile(keyPath, slot, placed: placed)
        return
      }
      if FieldKind<T>.isEqual(_value[keyPath: keyPath], newValue) == true { return }
      self[unconditional: keyPath] = newValue
    }
    _modify {
      let isObservable = FieldKind<T>.observable != nil
      // Compared after the write: the slot's identity, or the old value (trivial, or opaque).
      var slot: Slot?
      var old: T?
      var bookkeeping = false
      if isObservable {
        (slot, old) = openSlot(keyPath)
      } else if FieldKind<T>.isTrivialEquatable {
        old = _value[keyPath: keyPath]
      } else {
        bookkeeping = prepareToWrite()
      }
      yield &_value[keyPath: keyPath]
      if let slot {
        if old == nil || FieldKind<T>.isEqual(old!, _value[keyPath: keyPath]) == false {
          reconcile(keyPath, slot)
        }
      } else if let old {
        if FieldKind<T>.isEqual(old, _value[keyPath: keyPath]) == false, prepareToWrite() { didWrite(keyPath) }
      } else if _slowPath(bookkeeping) {
        didWrite(keyPath)
      }
    }
  }

  /// Before a write through an observable field: its slot, and the old value if its identity does
  /// not describe it (a plain enum payload). Not inlined: keeps the accessor small enough to inline.
  @inlinable @inline(never)
  mutating func openSlot<T>(_ keyPath: WritableKeyPath<Fields, T>) -> (Slot, T?) {
    let observable = FieldKind<T>.observable!
    _ = prepareToWrite()
    let slot = Slot(&_value[keyPath: keyPath], as: observable, below: _extent.openingSlot(), at: .field(.field(keyPath)))
    let old = slot.before.isOpaque && T.self is any Equatable.Type ? _value[keyPath: keyPath] : nil
    return (slot, old)
  }

  /// After a write through an observable field, reconciles its slot; a replacement is detached,
  /// placed and written. `T`'s kind is looked up, not passed: specialized, it folds to a constant.
  @inlinable @inline(never)
  mutating func reconcile<T>(_ keyPath: WritableKeyPath<Fields, T>, _ slot: Slot, placed: ObservationIdentity? = nil) {
    guard case let .replaced(history) = reconciled(keyPath, slot, placed: placed) else { return }
    // A replacement: the new value may come from another location (Detach.swift).
    let observable = FieldKind<T>.observable!
    observable._detach(&_value[keyPath: keyPath])
    slot.place(&_value[keyPath: keyPath], as: observable, history: history)
    if !_extent.isQuiet { didWrite(keyPath) }
  }

  /// What the field's slot finds after the write. A function of its own: the copy it reads through
  /// is gone before a replacement is detached. `placed`: the assigned value's identity before the
  /// setter made it unique (if that forked it, the fork is the field's alone).
  @inlinable
  func reconciled<T>(_ keyPath: WritableKeyPath<Fields, T>, _ slot: Slot, placed: ObservationIdentity?) -> Reconciled {
    let observable = FieldKind<T>.observable!
    return withField(keyPath) { value in
      observable._adoptForks(of: value, in: _ObservationPlace(slot.location))
      let after = observable._identity(of: value)
      return slot.reconcile(
        after, owner: _extent, at: .field(.field(keyPath)), below: { observable._below(of: value, at: $0) },
        exclusive: placed.map { $0.serial != after.serial } ?? false)
    }
  }
}

extension Observed {
  @usableFromInline
  func below(at key: FieldKey) -> Below? {
    let fields = ObservableFields.of(Fields.self)
    guard let field = fields.belows.first(where: { $0.key == key }) else { return nil }
    return withUnsafePointer(to: _value) { field.below(UnsafeRawPointer($0)) }
  }
}

/// The value at a step below another, and the way further down (to reconcile a copy written back).
@usableFromInline
struct Below {
  let identity: ObservationIdentity
  let next: (LocationStep) -> Below?
}

extension ObservationIdentifiable {
  /// What is at `step` below `value` (a `Self`): an observable field, or an element by id.
  @usableFromInline
  static func _below<T>(of value: T, at step: LocationStep) -> Below? {
    withUnsafePointer(to: value) { pointer in
      let value = UnsafeRawPointer(pointer).assumingMemoryBound(to: Self.self).pointee
      switch step {
      case let .field(key): return (value as? any ObservableState)?._below(at: key)
      case let .element(id): return (value as? any ElementsByID)?._elementBelow(id: id)
      case .index: return nil
      }
    }
  }
}

/// A collection whose observable elements are located by id (an identified array, a stack).
protocol ElementsByID {
  /// What is at the element with `id`, if there is one.
  func _elementBelow(id: AnyHashable) -> Below?
}

extension ObservableState {
  @usableFromInline
  func _below(at key: FieldKey) -> Below? { _$fields.below(at: key) }
}

// MARK: - Conformances: tracked, each is a read of every field (`.any`); children record their own

extension Observed {
  /// Records a read of every field; callers test `openTrackingScopes` first (untracked stays plain).
  @usableFromInline
  func recordWholeRead() {
    let fields = ObservableFields.of(Fields.self)
    let children = withUnsafePointer(to: _value) { value in
      fields.identities.map { (step: LocationStep.field($0.key), identity: $0.identity(UnsafeRawPointer(value))) }
    }
    _extent.recordRead(.any, nil, child: nil, children: children)
  }
}

/// Two values with the same extent are equal without comparing their fields: a write that changes
/// a field (one its own `==` calls equal may be skipped) makes the extent the value's own, forking
/// one a copy shares, so values that still share one hold equal fields — a snapshot and the state
/// it was taken from compare their untouched parts in O(1). As with `Array`, shared storage is
/// equal even where a field's `==` is not reflexive (a NaN); other values compare their fields.
/// Inside a tracking scope the fields are compared all the same (with the same result): a
/// comparison reads everything below it, and nested values record their reads in their own `==`.
extension Observed: Equatable where Fields: Equatable {
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) { return trackedEquals(lhs, rhs) }
    return lhs._extent === rhs._extent || lhs._value == rhs._value
  }

  @inlinable @inline(never)
  static func trackedEquals(_ lhs: Self, _ rhs: Self) -> Bool {
    lhs.recordWholeRead()
    rhs.recordWholeRead()
    return lhs._value == rhs._value || lhs._extent === rhs._extent
  }
}

extension Observed: Hashable where Fields: Hashable {
  @inlinable
  public func hash(into hasher: inout Hasher) {
    if _slowPath(openTrackingScopes.load(ordering: .relaxed) != 0) { recordWholeRead() }
    hasher.combine(_value)
  }
}

extension Observed: Sendable where Fields: Sendable {}

extension Observed: Encodable where Fields: Encodable {
  public func encode(to encoder: any Encoder) throws {
    if openTrackingScopes.load(ordering: .relaxed) != 0 { recordWholeRead() }
    try _value.encode(to: encoder)
  }
}

extension Observed: Decodable where Fields: Decodable {
  public init(from decoder: any Decoder) throws { self.init(try Fields(from: decoder)) }
}

extension Observed: CustomReflectable {
  public var customMirror: Mirror {
    if openTrackingScopes.load(ordering: .relaxed) != 0 { recordWholeRead() }
    return Mirror(reflecting: _value)
  }
}
