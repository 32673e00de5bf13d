import Testing

@testable import CounterDemo

/// The interactive line editor: what each key does to the line and to the screen.
@Suite struct LineEditorTests {
  /// Feeds `input`; returns the events and what is typed at the end.
  private func feed(_ input: [UInt8]) -> (events: [LineEditor.Event], typed: String) {
    var editor = LineEditor()
    let events = input.compactMap { editor.feed($0) }
    return (events, String(decoding: editor.typed, as: UTF8.self))
  }

  private func feed(_ input: String) -> (events: [LineEditor.Event], typed: String) { feed(Array(input.utf8)) }

  @Test func typingEchoesAndEnterEndsTheLine() {
    let (events, typed) = feed("inc 2\n")
    #expect(events == Array("inc 2".utf8).map { .echo([$0]) } + [.line(.text("inc 2"))])
    #expect(typed == "")
    #expect(feed("add\r").events.last == .line(.text("add")))
    #expect(feed("ad").typed == "ad")
  }

  @Test func backspaceErasesACharacterNotAByte() {
    let (events, typed) = feed("aé\u{7F}\u{7F}\u{7F}b")
    #expect(typed == "b")
    #expect(events.filter { $0 == .echo(Array("\u{8} \u{8}".utf8)) }.count == 2)  // the third had nothing to erase
  }

  @Test func ctrlUAndCtrlWEraseTheLineAndAWord() {
    #expect(feed("inc 2\u{15}add\n").events.last == .line(.text("add")))
    #expect(feed("inc 2\u{15}").events.last == .redraw)
    #expect(feed("timer on  \u{17}").typed == "timer ")
    #expect(feed("\u{17}").events == [])
  }

  @Test func ctrlDEndsTheInputAfterWhatIsTyped() {
    #expect(feed("\u{4}").events == [.end])
    #expect(feed("inc\u{4}x").events.suffix(2) == [.line(.text("inc", terminated: false)), .end])
  }

  @Test func escapeSequencesAndControlCharactersAreIgnored() {
    // Up, Left (CSI), F1 (SS3), Alt-x, a bell, then text.
    let (events, typed) = feed("\u{1B}[A\u{1B}[1;5D\u{1B}OP\u{1B}x\u{7}ok")
    #expect(typed == "ok")
    #expect(events == [.echo([UInt8(ascii: "o")]), .echo([UInt8(ascii: "k")])])
  }

  @Test func aLineOverTheLimitIsReportedByLength() {
    let long = [UInt8](repeating: UInt8(ascii: "a"), count: LineReader.maxLineBytes + 10)
    let (events, _) = feed(long + [0x0A])
    #expect(events.last == .line(.tooLong(byteCount: LineReader.maxLineBytes + 10)))
    #expect(events.count == LineReader.maxLineBytes + 1)  // echoes stop at the limit
  }
}
