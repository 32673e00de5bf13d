/// A collection whose elements a diff pairs one by one, so that equal ones fold without being
/// printed (``PairedDumper``): arrays pair elements by offset, identified arrays by id.
///
/// A conforming type's mirror lists exactly its elements, in order, and a dump addresses them as
/// `_dumpedAddress(at:)` does.
protocol DumpedElements {
  var _dumpedCount: Int { get }
  func _dumpedElement(at offset: Int) -> Any
  /// What a dump prints between the brackets before the element: `3`, `id: 7`.
  func _dumpedAddress(at offset: Int) -> String
  /// Which elements of `self` and `other` (a value of the same type) stand for each other: a
  /// `keep` pairs the next element of each, a `remove` is only in `self`, an `insert` only in
  /// `other`.
  func _pairing(with other: Any) -> [LineDiff.Edit]
  /// Whether `self[old] == other[new]` for each pair of offsets; nil when the elements are not
  /// `Equatable`.
  func _equalPairs(with other: Any, _ pairs: [(old: Int, new: Int)]) -> [Bool]?
}

/// An array's elements, paired by offset: the offset is their address, so an element moved to
/// another offset prints differently anyway.
protocol DumpedArray: DumpedElements, RandomAccessCollection where Index == Int {}

extension DumpedArray {
  var _dumpedCount: Int { count }
  func _dumpedElement(at offset: Int) -> Any { self[startIndex + offset] }
  func _dumpedAddress(at offset: Int) -> String { String(offset) }

  func _pairing(with other: Any) -> [LineDiff.Edit] {
    let otherCount = (other as! Self).count
    let paired = Swift.min(count, otherCount)
    return Array(repeating: .keep, count: paired) + Array(repeating: .remove, count: count - paired)
      + Array(repeating: .insert, count: otherCount - paired)
  }

  func _equalPairs(with other: Any, _ pairs: [(old: Int, new: Int)]) -> [Bool]? {
    // Every conforming type stores its elements in one buffer, so both closures run.
    let equal = withContiguousStorageIfAvailable { old in
      (other as! Self).withContiguousStorageIfAvailable { new in equalElements(old, new, pairs) }
    }
    return equal!!
  }
}

extension Array: DumpedArray {}
extension ContiguousArray: DumpedArray {}
extension ArraySlice: DumpedArray {}

extension IdentifiedArray: DumpedElements {
  var _dumpedCount: Int { _elements.count }
  func _dumpedElement(at offset: Int) -> Any { _elements[offset] }
  func _dumpedAddress(at offset: Int) -> String { "id: \(_ids[offset])" }

  func _pairing(with other: Any) -> [LineDiff.Edit] {
    let other = other as! Self
    // The same ids (one buffer when only elements changed) pair in order, without hashing.
    if _ids == other._ids { return Array(repeating: .keep, count: _ids.count) }
    return LineDiff.editScript(from: Array(_ids), to: Array(other._ids))
  }

  func _equalPairs(with other: Any, _ pairs: [(old: Int, new: Int)]) -> [Bool]? {
    equalElements(_elements, (other as! Self)._elements, pairs)
  }
}

/// `old[i] == new[j]` for each pair, as below; a pair at one offset of a chunk both arrays share is
/// equal without a comparison.
private func equalElements<Element>(
  _ old: ChunkedArray<Element>, _ new: ChunkedArray<Element>, _ pairs: [(old: Int, new: Int)]
) -> [Bool]? {
  guard let equatable = Element.self as? any Equatable.Type else { return nil }
  let shared = zip(old._chunkAddresses, new._chunkAddresses).map { $0 == $1 }
  func compare<E: Equatable>(_: E.Type) -> [Bool] {
    // `E` is `Element`, opened as `Equatable`: the same layout.
    let old = unsafeBitCast(old, to: ChunkedArray<E>.self)
    let new = unsafeBitCast(new, to: ChunkedArray<E>.self)
    return pairs.map { pair in
      let chunk = pair.old >> ChunkedArray<E>.shift
      return pair.old == pair.new && chunk < shared.count && shared[chunk] || old[pair.old] == new[pair.new]
    }
  }
  return compare(equatable)
}

/// `old[i] == new[j]` for each pair, through `Element`'s `==` found at run time; nil when `Element`
/// is not `Equatable`. Observable elements that share storage compare in O(1) (``Observed``).
private func equalElements<Element>(
  _ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>, _ pairs: [(old: Int, new: Int)]
) -> [Bool]? {
  guard let equatable = Element.self as? any Equatable.Type else { return nil }
  // Empty buffers may have no address; nothing is paired with them then.
  guard let oldBase = old.baseAddress, let newBase = new.baseAddress else { return [] }
  func compare<E: Equatable>(_: E.Type) -> [Bool] {
    // `E` is `Element`, opened as `Equatable`.
    let old = UnsafeRawPointer(oldBase).assumingMemoryBound(to: E.self)
    let new = UnsafeRawPointer(newBase).assumingMemoryBound(to: E.self)
    return pairs.map { old[$0.old] == new[$0.new] }
  }
  return compare(equatable)
}
