// `@_spi(Reflection)`: the only way to get writable key paths to stored properties without macros
// (on every supported platform).
@_spi(Reflection) import Swift

// A *replacement* (anything but a slot's own value written back, an inserted element) may share
// extents with another location at any depth (`state.draft = state.saved`). Two locations sharing
// one cannot be told apart (readers lost or spurious), so a replacement is *detached*: each shared
// extent in it is replaced. Write-backs are not: their extents are the location's own or forks of
// them. See Documentation/Core.md, "Shared values".

extension Extent {
  /// The extent for a value standing on its own at its location: a fresh one if this one is shared
  /// or bound elsewhere (a binding is for life), else this one without its lineage. Either way the
  /// value id stays (a copy, as TCA's `_$id`: a store made for it still stands for it).
  @usableFromInline
  static func detached(_ extent: inout Extent) {
    if !isKnownUniquelyReferenced(&extent) || extent.location.isSet {
      extent = Extent.detached(from: extent)
    } else {
      extent.cutLineage()
    }
  }
}

extension Observed {
  /// Gives this value, and every observable value in its fields, an extent of its own.
  @usableFromInline
  mutating func detach() {
    Extent.detached(&_extent)
    detachFields()
  }

  @usableFromInline
  mutating func detachFields() {
    let fields = ObservableFields.of(Fields.self)
    guard !fields.detachers.isEmpty else { return }
    withUnsafeMutablePointer(to: &_value) { value in
      for detach in fields.detachers { detach(UnsafeMutableRawPointer(value)) }
    }
  }
}

extension _EachFieldOptions {
  /// `.ignoreUnknown` (a `static var` Swift 6 will not read from here): a field with no key path
  /// (`weak`, a function) is skipped rather than stopping the walk.
  static let skippingFieldsWithoutKeyPaths = _EachFieldOptions(rawValue: 1 << 1)
}

/// The observable fields of a `Fields` type, found by reflection once per type and thread (a
/// per-thread cache needs no lock). Not generic, with raw-pointer closures, so that a lookup from
/// unspecialized code instantiates no metadata.
final class ObservableFields {
  let detachers: [(UnsafeMutableRawPointer) -> Void]
  /// The key and the identity of each observable field (a whole read hands them out).
  let identities: [(key: FieldKey, identity: (UnsafeRawPointer) -> ObservationIdentity)]
  /// The key of each observable field and what is below it (to reconcile a copy written back).
  let belows: [(key: FieldKey, below: (UnsafeRawPointer) -> Below)]

  private init<Fields>(_: Fields.Type) {
    var detachers: [(UnsafeMutableRawPointer) -> Void] = []
    var identities: [(key: FieldKey, identity: (UnsafeRawPointer) -> ObservationIdentity)] = []
    var belows: [(key: FieldKey, below: (UnsafeRawPointer) -> Below)] = []
    _ = _forEachFieldWithKeyPath(of: Fields.self, options: .skippingFieldsWithoutKeyPaths) { _, keyPath in
      let valueType = type(of: keyPath).valueType
      if let kind = ObservationKind.of(valueType) {
        func detacher<Value>(_: Value.Type) -> ((UnsafeMutableRawPointer) -> Void)? {
          // A `let` field gives a read-only key path: it cannot be detached, nor assigned either.
          guard let writable = keyPath as? WritableKeyPath<Fields, Value> else { return nil }
          return { kind._detach(&$0.assumingMemoryBound(to: Fields.self).pointee[keyPath: writable]) }
        }
        if let detach = _openExistential(valueType, do: detacher) { detachers.append(detach) }
        func identity<Value>(_: Value.Type) -> (UnsafeRawPointer) -> ObservationIdentity {
          let path = keyPath as! KeyPath<Fields, Value>
          return { kind._identity(of: $0.assumingMemoryBound(to: Fields.self).pointee[keyPath: path]) }
        }
        identities.append((FieldKey.field(keyPath), _openExistential(valueType, do: identity)))
        func below<Value>(_: Value.Type) -> (UnsafeRawPointer) -> Below {
          let path = keyPath as! KeyPath<Fields, Value>
          return { pointer in
            let value = pointer.assumingMemoryBound(to: Fields.self).pointee[keyPath: path]
            return Below(identity: kind._identity(of: value)) { kind._below(of: value, at: $0) }
          }
        }
        belows.append((FieldKey.field(keyPath), _openExistential(valueType, do: below)))
      }
      return true
    }
    self.detachers = detachers
    self.identities = identities
    self.belows = belows
  }

  static func of<Fields>(_ type: Fields.Type) -> ObservableFields {
    let context = ThreadContext.current
    let key = ObjectIdentifier(type)
    if let found = context.observableFields[key] { return found }
    let made = ObservableFields(type)
    context.observableFields[key] = made
    return made
  }
}
