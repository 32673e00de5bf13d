// `_update(from:)` (Observation/Update.swift): an identified array updates its elements by id.

extension IdentifiedArray {
  /// Removes the elements whose ids `other` lacks, updates the others in place, inserts `other`'s
  /// new ones, then takes `other`'s order (a sort that keeps the order writes nothing).
  public mutating func _update(from other: Self) {
    if _extent === other._extent { return }  // copies with no structural write since
    let id = _id
    if _ids.contains(where: { other._offset(of: $0) == nil }) {
      removeAll { other._offset(of: id($0)) == nil }
    }
    for (offset, id) in other._ids.enumerated() {
      let new = other._elements[offset]
      if let current = _offset(of: id) {
        if let kind = _elementType {
          kind._update(&self[_offset: current]!, from: new)
        } else if FieldKind<Element>.isEqual(_elements[current], new) != true {
          self[id: id] = new
        }
      } else {
        insert(new, at: Swift.min(offset, count))
      }
    }
    if _ids != other._ids {
      sort { other._offset(of: id($0))! < other._offset(of: id($1))! }
    }
  }
}

#if VALUESTORE_INTERNAL_CHECKS
  extension IdentifiedArray: _InvariantParts {
    var _invariantParts: (extent: Extent?, parts: [Any]) { (_extent, _elements.map { $0 as Any }) }
  }
#endif
