/// One line of one side of a diff: dumped text, or a run of elements both values share, folded
/// without being dumped.
enum DiffLine: Hashable {
  case text(Substring)
  case fold(ElementFold)

  /// The line as printed.
  var text: Substring {
    switch self {
    case let .text(text): text
    case let .fold(fold): fold.text[...]
    }
  }
}

/// A run of elements equal in both values of a diff: the same line on both sides, printed
/// `… (N unchanged elements)`.
struct ElementFold: Hashable {
  /// Tells folds apart, so that a diff pairs each only with itself.
  let id: Int
  let count: Int
  let indent: Int
  /// The collections and where the run starts in each: what the fold stands for.
  let old: (elements: any DumpedElements, start: Int)
  let new: (elements: any DumpedElements, start: Int)

  var text: String { String(repeating: " ", count: indent) + "… (\(count) unchanged elements)" }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
  func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
