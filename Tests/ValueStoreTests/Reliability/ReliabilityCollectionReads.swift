@testable import ValueStore

// The ways a user reads a collection, for the randomized runs: every read API a view or a computed
// property might use (issue 12: `isEmpty` and `filter` recorded nothing, and the model never read a
// collection any way but `count`, `contains`, `map` and a loop). Each returns the same text from
// the library's array and from the model's, so the runner can check what was read.

/// Reads of a collection's structure only (its count, ids, order).
enum RelStructureRead: CaseIterable, Hashable, Sendable {
  case isEmpty, endIndex, indices, underestimatedCount, ids, containsElement

  func read(_ rows: IdentifiedArrayOf<Row>) -> String {
    switch self {
    case .isEmpty: "\(rows.isEmpty)"
    case .endIndex: "\(rows.endIndex)"
    case .indices: "\(rows.indices.count)"
    case .underestimatedCount: "\(rows.underestimatedCount)"
    case .ids: "\(rows.ids.count)"
    case .containsElement: "\(rows.contains(Row(id: 1)))"
    }
  }

  func read(_ rows: MRows) -> String {
    switch self {
    case .isEmpty: "\(rows.rows.isEmpty)"
    case .endIndex, .indices, .underestimatedCount, .ids: "\(rows.rows.count)"
    case .containsElement: "\(rows.index(1) != nil)"
    }
  }
}

/// Reads of every element's `count`, in order, through each bulk path of the standard library and
/// of the array itself.
enum RelCountsRead: CaseIterable, Hashable, Sendable {
  case filter, reduce, array, elements, lazy, contiguousStorage, slice, enumerated, compactMap, sorted, sliceInit

  func read(_ rows: IdentifiedArrayOf<Row>) -> String {
    let counts: [Int] =
      switch self {
      case .filter: rows.filter { _ in true }.map(\.count)
      case .reduce: rows.reduce(into: []) { $0.append($1.count) }
      case .array: Array(rows).map(\.count)
      case .elements: rows.elements.map(\.count)
      case .lazy: Array(rows.lazy.map(\.count))
      case .contiguousStorage: rows.withContiguousStorageIfAvailable { $0.map(\.count) } ?? []
      case .slice: rows[rows.startIndex..<rows.endIndex].map(\.count)
      case .enumerated: rows.enumerated().map { $1.count }
      case .compactMap: rows.compactMap { $0.count }
      case .sorted: rows.sorted { _, _ in false }.map(\.count)
      case .sliceInit: IdentifiedArray(rows[...]).map(\.count)
      }
    return "\(counts)"
  }
}
