// Reflection finds a `Fields` type's observable fields once; `@_spi(Reflection)` is the only way
// to get writable key paths to stored properties without macros (it exists on every platform the
// package supports).
@_spi(Reflection) import Swift

// A value placed into a location as a *replacement* (a field assigned something that is not its
// own value written back, an element inserted or replaced) may share extents with another
// location — `state.draft = state.saved`, `second.append(first[0])`, `mode = .editing(child)` —
// down to any depth. Two locations sharing an extent cannot be told apart: the readers of both
// register on it, and a holder adopting a fork of it for one location would move the other's
// readers away (lost) and notify them of this one's change (spurious). So a replacement
// *detaches* the new value: every observable value in it that shares its extent gets a fresh one.
// Write-backs are not detached: their extents are this location's own (or forks of them).
// See Design.md, "Shared values".

extension Extent {
  /// The extent for a value that now stands on its own at its location: a fresh one if this one
  /// is shared or belongs to another location (a binding is for life), else this one without its
  /// lineage. Either way the value keeps its value id: it is the same value, a copy, as TCA's
  /// `_$id` travels with copies — a store made for it still stands for it.
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

  /// Detaches every observable value in the fields.
  @usableFromInline
  mutating func detachFields() {
    let fields = ObservableFields.of(Fields.self)
    guard !fields.detachers.isEmpty else { return }
    withUnsafeMutablePointer(to: &_value) { value in
      for detach in fields.detachers { detach(UnsafeMutableRawPointer(value)) }
    }
  }
}

/// The writable stored fields of a `Fields` type that hold observable values, found by reflection
/// once per type and thread (a per-thread cache needs no lock). Not generic, and its detachers take
/// a raw pointer to the fields, so that looking it up from unspecialized code instantiates no
/// metadata.
extension _EachFieldOptions {
  /// `.ignoreUnknown` (a `static var`, which Swift 6 will not read from here): skip the fields the
  /// runtime has no key path for instead of stopping the walk.
  static let skippingFieldsWithoutKeyPaths = _EachFieldOptions(rawValue: 1 << 1)
}

final class ObservableFields {
  let detachers: [(UnsafeMutableRawPointer) -> Void]
  /// The key and the identity of each observable field (a whole read hands them out).
  let identities: [(key: FieldKey, identity: (UnsafeRawPointer) -> ObservationIdentity)]
  /// The key of each observable field, and what is below it (a copy written back is reconciled
  /// through them).
  let belows: [(key: FieldKey, below: (UnsafeRawPointer) -> Below)]

  private init<Fields>(_: Fields.Type) {
    var detachers: [(UnsafeMutableRawPointer) -> Void] = []
    var identities: [(key: FieldKey, identity: (UnsafeRawPointer) -> ObservationIdentity)] = []
    var belows: [(key: FieldKey, below: (UnsafeRawPointer) -> Below)] = []
    // `.skippingFieldsWithoutKeyPaths`: a field with no key path (`weak`, a function) must not
    // stop the walk before the observable fields after it.
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
