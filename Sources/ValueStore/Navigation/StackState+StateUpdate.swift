// `_update(from:)` (Observation/Update.swift): a stack updates its elements by id.

extension StackState {
  /// Updates the elements; the next id stays the larger (ids are never reused).
  public mutating func _update(from other: Self) {
    _elements._update(from: other._elements)
    _nextID = Swift.max(_nextID, other._nextID)
  }
}

extension StackElement where Element: ObservationIdentifiable {
  public mutating func _update(from other: Self) { element._update(from: other.element) }
}

extension ObservedStackElement {
  mutating func _update(from other: Self) { update(&element, from: other.element) }
}

#if VALUESTORE_INTERNAL_CHECKS
  extension StackState: _InvariantParts {
    var _invariantParts: (extent: Extent?, parts: [Any]) { (nil, [_elements]) }
  }
#endif
