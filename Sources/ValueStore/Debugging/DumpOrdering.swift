/// A stable order for the elements of unordered collections, whose iteration order varies between
/// runs and even between equal instances, so that equal dictionaries and sets always dump alike.
extension ValueDumper {
  /// One rendered dictionary entry or set element.
  struct SortableEntry {
    /// The dictionary key or set element, compared directly when possible.
    var key: Any
    /// The rendered key, compared when the keys are not mutually `Comparable`.
    var keyText: String
    /// The rendered entry as printed.
    var text: String
  }

  /// Orders entries by key when all keys share one `Comparable` type, otherwise by the keys' dumped
  /// text. Ties fall back to the printed text, so the input order never shows through.
  static func sortedForDisplay(_ entries: [SortableEntry]) -> [SortableEntry] {
    let keysAreComparable =
      entries.first.map { first in entries.allSatisfy { isLess($0.key, first.key) != nil } } ?? false
    return entries.sorted { lhs, rhs in
      if keysAreComparable {
        if isLess(lhs.key, rhs.key) == true { return true }
        if isLess(rhs.key, lhs.key) == true { return false }
      }
      return (lhs.keyText, lhs.text) < (rhs.keyText, rhs.text)
    }
  }

  /// `lhs < rhs` when `lhs` is `Comparable` and `rhs` has the same type, otherwise `nil`.
  private static func isLess(_ lhs: Any, _ rhs: Any) -> Bool? {
    guard let lhs = lhs as? any Comparable else { return nil }
    return lhs.isLess(than: rhs)
  }
}

extension Comparable {
  /// Opens `any Comparable` so that two type-erased keys can be compared at runtime.
  fileprivate func isLess(than other: Any) -> Bool? {
    (other as? Self).map { self < $0 }
  }
}
