import Dispatch
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@testable import CounterDemo

@Suite(.timeLimit(.minutes(1))) struct LineReaderTests {
  /// The lines a reader returns for `bytes`, written into a pipe that is then closed.
  private func lines(_ bytes: [UInt8]) async -> [InputLine] {
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    // Written from another thread, as a large input does not fit in the pipe's buffer. The reader
    // sees the end of input once the writer has closed its end.
    let writeEnd = descriptors[1]
    DispatchQueue.global().async {
      bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = write(writeEnd, buffer.baseAddress! + offset, buffer.count - offset)
          guard written > 0 else { break }
          offset += written
        }
      }
      close(writeEnd)
    }
    let reader = LineReader(descriptor: descriptors[0])
    var lines: [InputLine] = []
    while let line = await reader.next() { lines.append(line) }
    close(descriptors[0])
    return lines
  }

  @Test func splitsLinesAndDropsCarriageReturns() async {
    #expect(await lines(Array("inc\r\n\n  add \nlast".utf8)) == [.text("inc"), .text(""), .text("  add "), .text("last", terminated: false)])
    #expect(await lines(Array("inc\n".utf8)) == [.text("inc")])
    #expect(await lines([]) == [])
  }

  /// Lines already read come from the buffer, the rest from blocking reads: across chunks of 64 KiB,
  /// with lines cut at their boundaries, every line comes back once, in order.
  @Test func linesAcrossManyChunksComeBackInOrder() async {
    let expected = (0..<30_000).map { InputLine.text("line \($0)") }
    let input = (0..<30_000).flatMap { Array("line \($0)\n".utf8) }
    #expect(await lines(input) == expected)
  }

  @Test func decodesInvalidUTF8Leniently() async {
    #expect(await lines([0x69, 0xFF, 0xC3, 0x28, 0x0A]) == [.text("i\u{FFFD}\u{FFFD}(")])
  }

  @Test func skipsLinesOverTheLimitAndKeepsReading() async {
    let long = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
    let limit = [UInt8](repeating: UInt8(ascii: "b"), count: LineReader.maxLineBytes)
    let input = Array("inc\n".utf8) + long + [0x0A] + limit + [0x0A] + Array("add".utf8) + long
    #expect(
      await lines(input) == [
        .text("inc"), .tooLong(byteCount: 1 << 20), .text(String(repeating: "b", count: LineReader.maxLineBytes)),
        .tooLong(byteCount: 3 + (1 << 20)),
      ])
  }
}

/// An interactive session's handling of what a terminal does to input.
@MainActor @Suite(.timeLimit(.minutes(1))) struct InteractiveInputTests {
  final class Output: @unchecked Sendable {  // written on the main actor only
    var lines: [String] = []
  }

  func run(_ input: [InputLine]) async -> [String] {
    let output = Output()
    let session = Session(
      timeline: VirtualTimeline(), isInteractive: true, trace: false, style: Style(usesColor: false),
      write: { line in MainActor.assumeIsolated { output.lines.append(line) } })
    var lines = input[...]
    await session.run { lines.popFirst() }
    return output.lines
  }

  @Test func endOfInputAfterTypingStartsTheOutputOnANewLine() async {
    let output = await run([.text("inc", terminated: false)])
    let typed = output.firstIndex(of: "  ↻ counter: 1")
    #expect(typed != nil)
    #expect(typed.map { output[$0 - 1] } == "")  // the newline that ends the typed text
  }

  @Test func aLineTheTerminalCutIsIgnoredWithAnError() async {
    let cut = String(repeating: "inc ", count: 1250).prefix(LineReader.terminalLineBytes)
    let output = await run([.text(String(cut))])
    #expect(output.contains { $0.contains("terminal's limit of 4095 bytes") })
    #expect(!output.contains("  ↻ counter: 1"))
  }
}
