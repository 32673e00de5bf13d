/// The markers that start each line of a ``diff(_:_:format:)``.
///
/// ```swift
/// let format = DiffFormat(first: "<", second: ">", both: "|")
/// diff(1, 2, format: format)  // "< 1\n> 2"
/// ```
public struct DiffFormat: Sendable {
  /// Marks a line found only in the first (old, or expected) value.
  public var first: String
  /// Marks a line found only in the second (new, or actual) value.
  public var second: String
  /// Marks a line both values share.
  public var both: String

  /// Creates a format from the three line markers.
  ///
  /// ```swift
  /// let format = DiffFormat(first: "<", second: ">", both: "|")
  /// ```
  public init(first: String, second: String, both: String) {
    self.first = first
    self.second = second
    self.both = both
  }

  /// ASCII markers, as in unified diffs: `-`, `+` and a space.
  ///
  /// ```swift
  /// diff(1, 2, format: .default)  // "- 1\n+ 2"
  /// ```
  public static let `default` = DiffFormat(first: "-", second: "+", both: " ")

  /// A minus sign (U+2212) instead of a hyphen: it is as wide as `+` in proportional fonts, so
  /// removed and inserted lines stay aligned in messages such as "(Expected: −, Actual: +)".
  ///
  /// ```swift
  /// diff(1, 2, format: .proportional)  // "− 1\n+ 2"
  /// ```
  public static let proportional = DiffFormat(first: "\u{2212}", second: "+", both: " ")
}

/// Describes how two values differ, as a line-based diff of their dumps.
///
/// Both values are printed with ``Swift/String/init(customDumping:)``. Each line of the result is a
/// line of those dumps after a marker from `format` and a space: ``DiffFormat/first`` for lines
/// only in `old`, ``DiffFormat/second`` for lines only in `new`, and ``DiffFormat/both`` for
/// unchanged lines. A few unchanged lines are kept around each change for orientation; longer
/// unchanged runs fold into one `… (N unchanged)` line. In a collection, a run of 16 or more
/// elements equal in both values (by `==` where they are `Equatable`, else by their dumps) prints
/// as one `… (N unchanged elements)` line and is never dumped, so a diff of large values costs
/// what changed in them. The same inputs always give the same text.
///
/// ```swift
/// struct Counter { var count: Int; var title: String }
/// print(diff(Counter(count: 1, title: "A"), Counter(count: 2, title: "A"))!)
/// //   Counter(
/// // -   count: 1,
/// // +   count: 2,
/// //     title: "A"
/// //   )
/// ```
///
/// - Parameters:
///   - old: The first value, such as the expected one.
///   - new: The second value, such as the actual one.
///   - format: The line markers.
/// - Returns: The diff, or `nil` when both values dump to the same text (apart from equal
///   elements folded).
public func diff<T>(_ old: T, _ new: T, format: DiffFormat = .default) -> String? {
  var dumper = PairedDumper()
  let sides = dumper.render(old, new, indent: 0)
  return diff(lines: sides.old, sides.new, format: format)
}

/// The diff of two dumps (``Swift/String/init(customDumping:)``), or `nil` when they are the same.
public func diff(dumps oldDump: String, _ newDump: String, format: DiffFormat = .default) -> String? {
  guard oldDump != newDump else { return nil }
  return diff(lines: PairedDumper.lines(oldDump), PairedDumper.lines(newDump), format: format)
}

/// The diff of two sides' lines, or `nil` when they are the same.
func diff(lines old: [DiffLine], _ new: [DiffLine], format: DiffFormat) -> String? {
  guard old != new else { return nil }
  var printer = DiffPrinter(format: format)
  printer.layOut(LineDiff.editScript(from: old, to: new), old: old, new: new)
  return printer.lines.joined(separator: "\n")
}

/// Lays out an edit script as marked lines, folding unchanged runs away from changes.
private struct DiffPrinter {
  /// Unchanged lines kept on each side of a change.
  static let contextLineCount = 3

  let format: DiffFormat
  private(set) var lines: [String] = []

  init(format: DiffFormat) {
    self.format = format
  }

  mutating func layOut(_ script: [LineDiff.Edit], old: [DiffLine], new: [DiffLine]) {
    var oldIndex = 0
    var newIndex = 0
    var step = 0
    while step < script.count {
      let isKeep = script[step] == .keep
      let end = script[step...].firstIndex { ($0 == .keep) != isKeep } ?? script.count
      if isKeep {
        let count = end - step
        layOutUnchanged(old[oldIndex..<oldIndex + count], isFirst: step == 0, isLast: end == script.count)
        oldIndex += count
        newIndex += count
      } else {
        // A change prints all its removed lines before all its inserted ones, so the old and the
        // new version each read as one block.
        let removed = script[step..<end].count { $0 == .remove }
        let inserted = end - step - removed
        lines += old[oldIndex..<oldIndex + removed].map { marked(format.first, $0.text) }
        lines += new[newIndex..<newIndex + inserted].map { marked(format.second, $0.text) }
        oldIndex += removed
        newIndex += inserted
      }
      step = end
    }
  }

  /// Keeps the context lines of an unchanged run and folds the rest, indented to the shallowest
  /// folded line so the fold sits at the level of what it hides. Element folds always print and
  /// are no context: the lines hidden on either side of one fold apart.
  private mutating func layOutUnchanged(_ run: ArraySlice<DiffLine>, isFirst: Bool, isLast: Bool) {
    let textCount = run.count { if case .text = $0 { true } else { false } }
    let head = isFirst ? 0 : Self.contextLineCount
    let tail = isLast ? textCount : textCount - Self.contextLineCount
    var hidden: [Substring] = []
    var textIndex = 0
    for line in run {
      guard case let .text(text) = line else {
        foldHidden(&hidden)
        lines.append(marked(format.both, line.text))
        continue
      }
      if textIndex >= head && textIndex < tail {
        hidden.append(text)
      } else {
        foldHidden(&hidden)
        lines.append(marked(format.both, text))
      }
      textIndex += 1
    }
    foldHidden(&hidden)
  }

  /// Prints the hidden lines as one fold, or as they are when there is only one: folding a single
  /// line would not make the output any shorter.
  private mutating func foldHidden(_ hidden: inout [Substring]) {
    defer { hidden.removeAll(keepingCapacity: true) }
    guard hidden.count > 1 else {
      lines += hidden.map { marked(format.both, $0) }
      return
    }
    let indent =
      hidden.lazy
      .filter { !$0.isEmpty }
      .map { $0.utf8.prefix { $0 == UInt8(ascii: " ") }.count }
      .min() ?? 0
    lines.append(marked(format.both, (String(repeating: " ", count: indent) + "… (\(hidden.count) unchanged)")[...]))
  }

  /// `marker`, a space and `line`; an empty line gets the bare marker, without trailing space.
  private func marked(_ marker: String, _ line: Substring) -> String {
    line.isEmpty ? marker : "\(marker) \(line)"
  }
}
