import Testing
import ValueStore

@testable import CounterDemo

/// Lines typed at a terminal, read as the terminal delivers them: however the bytes are split
/// into reads, the same lines come out and the same is shown.
@MainActor @Suite(.timeLimit(.minutes(1))) struct TerminalInputTests {
  /// The lines read from `reads` (one chunk per read, then the end of input), and what was shown:
  /// echoes, with `⟲` for each redraw.
  private func read(_ reads: [[UInt8]]) async -> (lines: [InputLine], shown: [UInt8]) {
    let pending = LockIsolated(reads[...])
    let shown = Shown()
    let input = TerminalInput(
      read: { pending.withValue { $0.popFirst() } },
      emit: { shown.bytes += Array($0.utf8) },
      emitBytes: { shown.bytes += $0 })
    input.redraw = { shown.bytes += Array("⟲".utf8) }
    var lines: [InputLine] = []
    while let line = await input.next() { lines.append(line) }
    return (lines, shown.bytes)
  }

  private func read(_ reads: String...) async -> (lines: [InputLine], shown: [UInt8]) {
    await read(reads.map { Array($0.utf8) })
  }

  @MainActor private final class Shown {
    var bytes: [UInt8] = []
  }

  @Test func ctrlDAfterTypingKeepsTheLine() async {
    #expect(await read("in", "\u{4}", "c\n", "\u{4}", "inc\n").lines == [.text("inc")])
    #expect(await read("inc\u{4}").lines == [.text("inc", terminated: false)])  // then the terminal went away
    #expect(await read("\u{4}", "inc\n").lines == [])
  }

  @Test func anEscapeReadAloneDropsOnlyItself() async {
    #expect(await read("\u{1B}", "inc\n").lines == [.text("inc")])
    #expect(await read("\u{1B}", "[", "A", "inc\n").lines == [.text("inc")])
  }

  @Test func splittingTheInputIntoReadsChangesNothing() async {
    let input = Array(
      ("\u{1B}[A\u{1B}]0;tïtle\u{7}i\(Keys.delete)n\u{9B}1;2mc\u{1B}]2;x\u{1B}\\ é\(Keys.left)\(Keys.right)\n"
        + "\u{1B}dec\u{4}\u{85}\n").utf8)
    let whole = await read([input])
    #expect(whole.lines == [.text("inc é"), .text("dec")])
    #expect(whole.shown == Array("inc é⟲⟲\ndec\n".utf8))
    for split in 1..<input.count {
      let parts = await read([Array(input[..<split]), Array(input[split...])])
      #expect(parts.lines == whole.lines && parts.shown == whole.shown, "split at \(split)")
    }
    #expect(await read(input.map { [$0] }).shown == whole.shown)  // a byte per read
  }

  @Test func whatIsShownIsNeverAControlCharacter() async {
    var bytes = (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }
    bytes.removeAll { $0 == 0x04 }  // Ctrl-D on an empty line would end the input
    let shown = await read([bytes + [0x0A]]).shown
    #expect(isPlainText(shown, allowing: ["\n", "\u{8}"]))
  }
}
