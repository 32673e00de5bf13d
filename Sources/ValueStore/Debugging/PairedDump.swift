/// Dumps two values side by side for a diff, each line as ``Swift/String/init(customDumping:)``
/// prints it, except that a run of at least `minimumFoldedRun` elements equal in both values is
/// one ``ElementFold`` on each side, never dumped.
///
/// The walk goes down both values together where they have the same shape — structs of the same
/// type, tuples, optionals both wrapping a value, collections that pair their elements
/// (``DumpedElements``) — and dumps each side whole anywhere else. Paired elements are compared
/// with `==` where they are `Equatable` (in O(1) for observable values that share storage), by
/// their dumps otherwise. So a diff of two states that differ in one row of many costs what the
/// row costs, plus one comparison per element.
struct PairedDumper {
  /// Runs shorter than this print element by element, as in a plain dump, so a small collection
  /// keeps its neighbouring lines as context.
  static let minimumFoldedRun = 16

  typealias Sides = (old: [DiffLine], new: [DiffLine])

  var minimumFoldedRun: Int
  private var dumper = ValueDumper()
  private var foldCount = 0

  init(minimumFoldedRun: Int = Self.minimumFoldedRun) {
    self.minimumFoldedRun = minimumFoldedRun
  }

  /// Both values' lines; as everywhere in a dump, the first line continues the caller's line and
  /// later lines carry absolute indentation, closing at `indent` spaces.
  mutating func render(_ old: Any, _ new: Any, indent: Int) -> Sides {
    if let sides = renderPaired(old, new, indent: indent) { return sides }
    return (dumpedLines(old, indent: indent), dumpedLines(new, indent: indent))
  }

  /// Both sides, when the values have a shape walked together; nil otherwise. The cases mirror
  /// `ValueDumper.render`'s, so each side prints as that does.
  private mutating func renderPaired(_ old: Any, _ new: Any, indent: Int) -> Sides? {
    guard type(of: old) == type(of: new), type(of: old) != AnyHashable.self else { return nil }
    // Values of one type are leaves alike.
    if let oldText = ValueDumper.leafText(of: old, indent: indent),
      let newText = ValueDumper.leafText(of: new, indent: indent)
    {
      return (Self.lines(oldText), Self.lines(newText))
    }
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    guard oldMirror.displayStyle == newMirror.displayStyle else { return nil }
    switch oldMirror.displayStyle {
    case .optional:
      guard let oldWrapped = oldMirror.children.first, let newWrapped = newMirror.children.first else { return nil }
      return render(oldWrapped.value, newWrapped.value, indent: indent)
    case .tuple:
      return renderFields("(", Array(oldMirror.children), Array(newMirror.children), ")", indent: indent)
    case .collection:
      guard let elements = old as? any DumpedElements else { return nil }
      return renderElements(elements, old, new, oldMirror, indent: indent)
    case .struct:
      guard !(old is any SharedDumpable) else { return nil }
      let oldChildren = Array(ValueDumper.structChildren(oldMirror))
      let newChildren = Array(ValueDumper.structChildren(newMirror))
      // A struct without children prints a description of its own.
      guard !oldChildren.isEmpty else { return nil }
      let name = dumper.typeName(oldMirror.subjectType)
      return renderFields("\(name)(", oldChildren, newChildren, ")", indent: indent)
    default:
      return nil
    }
  }

  private mutating func renderFields(
    _ open: String, _ old: [Mirror.Child], _ new: [Mirror.Child], _ close: String, indent: Int
  ) -> Sides? {
    guard old.count == new.count, zip(old, new).allSatisfy({ $0.label == $1.label }) else { return nil }
    var items: (old: [Item], new: [Item]) = ([], [])
    for (offset, (oldChild, newChild)) in zip(old, new).enumerated() {
      let prefix = ValueDumper.fieldPrefix(oldChild.label)
      let isLast = offset == old.count - 1
      let child = render(oldChild.value, newChild.value, indent: indent + 2)
      items.old.append(.value(prefix: prefix, lines: child.old, isLast: isLast))
      items.new.append(.value(prefix: prefix, lines: child.new, isLast: isLast))
    }
    return (Self.block(open, items.old, close, indent: indent), Self.block(open, items.new, close, indent: indent))
  }

  /// Pairs the elements (``DumpedElements/_pairing(with:)``), folds long runs of equal pairs,
  /// walks unequal pairs together and dumps unpaired elements on their side.
  private mutating func renderElements(
    _ elements: some DumpedElements, _ oldValue: Any, _ newValue: Any, _ mirror: Mirror, indent: Int
  ) -> Sides {
    let other = newValue as! any DumpedElements
    let script = elements._pairing(with: newValue)
    var pairs: [(old: Int, new: Int)] = []
    var (oldOffset, newOffset) = (0, 0)
    for edit in script {
      if edit == .keep { pairs.append((oldOffset, newOffset)) }
      if edit != .insert { oldOffset += 1 }
      if edit != .remove { newOffset += 1 }
    }
    let isEqual =
      elements._equalPairs(with: newValue, pairs)
      ?? pairs.map { dumper.render(elements._dumpedElement(at: $0.old), indent: indent + 2)
        == dumper.render(other._dumpedElement(at: $0.new), indent: indent + 2) }

    let counts = (old: elements._dumpedCount, new: other._dumpedCount)
    var items: (old: [Item], new: [Item]) = ([], [])
    func append(_ lines: [DiffLine], at offset: Int, of side: any DumpedElements, to items: inout [Item], count: Int) {
      items.append(.value(prefix: "[\(side._dumpedAddress(at: offset))]: ", lines: lines, isLast: offset == count - 1))
    }
    (oldOffset, newOffset) = (0, 0)
    var pair = 0
    var step = 0
    while step < script.count {
      switch script[step] {
      case .keep:
        var run = 0
        while step + run < script.count, script[step + run] == .keep, isEqual[pair + run] { run += 1 }
        if run >= minimumFoldedRun {
          foldCount += 1
          let fold = ElementFold(
            id: foldCount, count: run, indent: indent + 2, old: (elements, oldOffset), new: (other, newOffset))
          items.old.append(.fold(fold))
          items.new.append(.fold(fold))
        } else if run > 0 {
          for (old, new) in zip(oldOffset..<oldOffset + run, newOffset..<newOffset + run) {
            append(dumpedLines(elements._dumpedElement(at: old), indent: indent + 2), at: old, of: elements, to: &items.old, count: counts.old)
            append(dumpedLines(other._dumpedElement(at: new), indent: indent + 2), at: new, of: other, to: &items.new, count: counts.new)
          }
        } else {
          let sides = render(elements._dumpedElement(at: oldOffset), other._dumpedElement(at: newOffset), indent: indent + 2)
          append(sides.old, at: oldOffset, of: elements, to: &items.old, count: counts.old)
          append(sides.new, at: newOffset, of: other, to: &items.new, count: counts.new)
          run = 1
        }
        oldOffset += run
        newOffset += run
        pair += run
        step += run
      case .remove:
        append(dumpedLines(elements._dumpedElement(at: oldOffset), indent: indent + 2), at: oldOffset, of: elements, to: &items.old, count: counts.old)
        oldOffset += 1
        step += 1
      case .insert:
        append(dumpedLines(other._dumpedElement(at: newOffset), indent: indent + 2), at: newOffset, of: other, to: &items.new, count: counts.new)
        newOffset += 1
        step += 1
      }
    }
    let (open, close) = dumper.collectionDelimiters(oldValue, mirror)
    return (Self.block(open, items.old, close, indent: indent), Self.block(open, items.new, close, indent: indent))
  }

  /// `value` dumped on its own, as lines.
  private mutating func dumpedLines(_ value: Any, indent: Int) -> [DiffLine] {
    Self.lines(dumper.render(value, indent: indent))
  }

  /// The lines of a dump, split on UTF-8 bytes (several times faster than on `Character`s for
  /// large dumps): dumps break lines only with `\n`.
  static func lines(_ dump: String) -> [DiffLine] {
    dump.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { .text(Substring($0)) }
  }

  /// One item of a block: a value after its label (or address), or a fold.
  private enum Item {
    case value(prefix: String, lines: [DiffLine], isLast: Bool)
    case fold(ElementFold)
  }

  /// `ValueDumper.block`'s layout, by lines: items one per line (their first line after the
  /// prefix), separated by commas, one level deeper than `open` and `close`. A fold takes a line
  /// of its own and no comma; an element's comma is where its dump has it.
  private static func block(_ open: String, _ items: [Item], _ close: String, indent: Int) -> [DiffLine] {
    guard !items.isEmpty else { return [.text((open + close)[...])] }
    let margin = String(repeating: " ", count: indent + 2)
    var lines: [DiffLine] = [.text(open[...])]
    for item in items {
      switch item {
      case let .fold(fold):
        lines.append(.fold(fold))
      case .value(let prefix, var body, let isLast):
        // A value's first and last lines are its own text: folds are only ever inside a block.
        body[0] = .text((margin + prefix + body[0].text)[...])
        if !isLast { body[body.count - 1] = .text((body[body.count - 1].text + ",")[...]) }
        lines += body
      }
    }
    lines.append(.text((String(repeating: " ", count: indent) + close)[...]))
    return lines
  }
}
