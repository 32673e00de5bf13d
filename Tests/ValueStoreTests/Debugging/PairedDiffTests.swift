import Testing
@testable import ValueStore

/// The diff of two values dumps them side by side (`PairedDumper`), folding runs of equal
/// elements without dumping them. Checked against the plain dumps of random states: each side,
/// its folds expanded, is exactly the value's dump, and a fold stands only for equal elements.
@Suite struct PairedDiffTests {
  @Test func withoutFoldsEachSideIsTheDump() {
    var generator = DiffDocGenerator(seed: 1)
    for _ in 0..<200 {
      let (first, second) = generator.pair()
      var dumper = PairedDumper(minimumFoldedRun: .max)
      let sides = dumper.render(first, second, indent: 0)
      #expect(sides.old.map(\.text) == dumpLines(first))
      #expect(sides.new.map(\.text) == dumpLines(second))
    }
  }

  @Test(arguments: [1, 2, PairedDumper.minimumFoldedRun])
  func foldedSidesExpandToTheDumps(minimumFoldedRun: Int) {
    var generator = DiffDocGenerator(seed: UInt64(minimumFoldedRun))
    var folds = 0
    for _ in 0..<200 {
      let (first, second) = generator.pair()
      var dumper = PairedDumper(minimumFoldedRun: minimumFoldedRun)
      let sides = dumper.render(first, second, indent: 0)
      #expect(expanded(sides.old, \.old) == dumpLines(first))
      #expect(expanded(sides.new, \.new) == dumpLines(second))
      for case let .fold(fold) in sides.old {
        folds += 1
        #expect(fold.count >= minimumFoldedRun)
        // Folded elements are the same on both sides (an element's address is part of its line),
        // but for the comma after the last one, if only one side has more elements after it.
        #expect(expandedLines(fold, \.old).map(withoutComma) == expandedLines(fold, \.new).map(withoutComma))
      }
    }
    #expect(folds > 20)
  }

  @Test func aDiffIsNilExactlyWhenTheDumpsAreEqual() {
    var generator = DiffDocGenerator(seed: 3)
    var equal = 0
    for _ in 0..<300 {
      let (first, second) = generator.pair()
      let dumpsEqual = String(customDumping: first) == String(customDumping: second)
      equal += dumpsEqual ? 1 : 0
      #expect((diff(first, second) == nil) == dumpsEqual)
    }
    #expect(equal > 20)
  }

  @Test func oneChangedRowOfManyFoldsTheOthers() {
    let old = DiffDoc(.init(items: IdentifiedArray(uniqueElements: (0..<1_000).map { DiffItem(id: $0) })))
    var new = old
    new.items[id: 400]?.count = 1
    #expect(
      diff(old, new) == """
          … (2 unchanged)
            items: IdentifiedArray([
              … (400 unchanged elements)
              [id: 400]: DiffItem(
                id: 400,
        -       count: 0,
        +       count: 1,
                title: "",
                tags: []
              ),
              … (599 unchanged elements)
          … (5 unchanged)
        """)
  }

  @Test func anInsertedRowIsPairedByID() {
    let old = IdentifiedArray(uniqueElements: (0..<40).map { DiffItem(id: $0) })
    var new = old
    new.insert(DiffItem(id: 100, title: "new"), at: 20)
    new[id: 39]?.tags = [1]
    #expect(
      diff(old, new) == """
          IdentifiedArray([
            … (20 unchanged elements)
        +   [id: 100]: DiffItem(
        +     id: 100,
        +     count: 0,
        +     title: "new",
        +     tags: []
        +   ),
            … (19 unchanged elements)
            [id: 39]: DiffItem(
              id: 39,
              count: 0,
              title: "",
        -     tags: []
        +     tags: [
        +       [0]: 1
        +     ]
            )
          ])
        """)
  }

  @Test func equalElementsWithoutSharedStorageFoldToo() {
    let numbers = Array(0..<50)
    var changed = numbers
    changed[25] = -1
    #expect(
      diff(numbers, changed) == """
          [
            … (25 unchanged elements)
        -   [25]: 25,
        +   [25]: -1,
            … (24 unchanged elements)
          ]
        """)
  }

  // MARK: - Expanding folds

  private func withoutComma(_ line: Substring) -> Substring {
    line.hasSuffix(",") ? line.dropLast() : line
  }

  private func dumpLines(_ value: Any) -> [Substring] {
    String(customDumping: value).split(separator: "\n", omittingEmptySubsequences: false)
  }

  private func expanded(_ lines: [DiffLine], _ side: KeyPath<ElementFold, (elements: any DumpedElements, start: Int)>) -> [Substring] {
    lines.flatMap { line -> [Substring] in
      guard case let .fold(fold) = line else { return [line.text] }
      return expandedLines(fold, side)
    }
  }

  /// The folded elements of one side, as a dump prints them.
  private func expandedLines(
    _ fold: ElementFold, _ side: KeyPath<ElementFold, (elements: any DumpedElements, start: Int)>
  ) -> [Substring] {
    let (elements, start) = fold[keyPath: side]
    let margin = String(repeating: " ", count: fold.indent)
    return (start..<start + fold.count).flatMap { offset in
      var dumper = ValueDumper()
      var text = margin + "[\(elements._dumpedAddress(at: offset))]: "
        + dumper.render(elements._dumpedElement(at: offset), indent: fold.indent)
      if offset < elements._dumpedCount - 1 { text += "," }
      return text.split(separator: "\n", omittingEmptySubsequences: false)
    }
  }
}
