import Testing

@testable import CounterDemo

/// The interactive line editor: what each key does to the line and to the screen.
@Suite struct LineEditorTests {
  @Test func typingEchoesAndEnterEndsTheLine() {
    let (events, typed, _) = typing("inc 2\n")
    #expect(events == Array("inc 2".utf8).map { .echo([$0]) } + [.line(.text("inc 2"))])
    #expect(typed == "")
    #expect(typing("add\r").events.last == .line(.text("add")))
    #expect(typing("ad").typed == "ad")
  }

  @Test func backspaceErasesACharacterNotAByte() {
    let (events, typed, _) = typing("aé\u{7F}\u{7F}\u{7F}b")
    #expect(typed == "b")
    // Non-ASCII is redrawn (an echo cannot erase a wide character); the third had nothing to erase.
    #expect(events.dropFirst(2) == [.redraw, .echo(Array("\u{8} \u{8}".utf8)), .echo([UInt8(ascii: "b")])])
  }

  @Test func ctrlUAndCtrlWEraseTheLineAndAWord() {
    #expect(typing("inc 2\u{15}add\n").events.last == .line(.text("add")))
    #expect(typing("inc 2\u{15}").events.last == .redraw)
    #expect(typing("timer on  \u{17}").typed == "timer ")
    #expect(typing("\u{17}").events == [])
  }

  @Test func ctrlDOnAnEmptyLineEndsTheInput() {
    #expect(typing("\u{4}").events == [.end])
    #expect(typing("inc\n\u{4}").events.suffix(2) == [.line(.text("inc")), .end])
    #expect(typing("a\u{7F}\u{4}").events.last == .end)  // erased: empty again
  }

  @Test func ctrlDAfterTypingNeitherEntersNorLosesTheLine() {
    let (events, typed, _) = typing("inc\u{4}")
    #expect(typed == "inc")
    #expect(events == Array("inc".utf8).map { .echo([$0]) })  // at the end of the line it does nothing
    #expect(typing("in\u{4}\u{4}c\n").events.last == .line(.text("inc")))
  }

  @Test func ctrlDAndDeleteEraseTheCharacterUnderTheCursor() {
    let ctrlD = typing("incx\(Keys.left)\u{4}")
    #expect(ctrlD.typed == "inc")
    #expect(ctrlD.events.last == .redraw)
    #expect(typing("xinc\(Keys.home)\u{4}\n").events.last == .line(.text("inc")))
    #expect(typing("incx\(Keys.left)\(Keys.delete)").typed == "inc")
    #expect(typing("inc\(Keys.delete)").typed == "inc")  // at the end: nothing to delete
    #expect(typing(Keys.delete).events == [])  // on an empty line Delete is not the end of input
    #expect(typing("ab\(Keys.home)\(Keys.delete)\(Keys.delete)\u{4}").events.last == .end)
  }

  @Test func cursorKeysMoveWhereTypingGoes() {
    #expect(typing("ic\(Keys.left)n").typed == "inc")
    #expect(typing("nc\(Keys.home)i\(Keys.end)\(Keys.left)\(Keys.right) 2").typed == "inc 2")
    #expect(typing("nc\u{1}i\u{5} 2").typed == "inc 2")  // Ctrl-A, Ctrl-E
    #expect(typing("ic\u{2}\u{2}\u{6}n").typed == "inc")  // Ctrl-B, Ctrl-F
    #expect(typing("nc\u{1B}OHi\u{1B}OF\u{1B}OD\u{1B}OC 2").typed == "inc 2")  // SS3 forms
    #expect(typing("nc\u{1B}[1~i\u{1B}[4~ 2").typed == "inc 2")  // VT220 forms
    #expect(typing("é\(Keys.left)x").typed == "xé")  // by character, not byte
    #expect(typing(Keys.left + Keys.right + Keys.home + Keys.end).events == [])
  }

  @Test func theCursorStaysBetweenCharactersWhenTheyJoin() {
    // Two regional indicators make one flag: typed before the other, or joined by an erasure.
    #expect(typing("🇸\(Keys.left)🇺\(Keys.left)x").typed == "x🇺🇸")
    #expect(typing("🇸\(Keys.left)🇺\u{7F}x").typed == "x")
    #expect(typing("🇺x🇸\(Keys.left)\u{7F}\(Keys.left)\(Keys.left)y").typed == "y🇺🇸")
  }

  @Test func anyEditingKeepsTheCursorInTheLine() {
    // Keys at random, among characters that join: no trap, and Enter enters what is shown.
    let pieces = [
      "a", "é", "e", "\u{301}", "🇺", "🇸", "👍", "\u{200D}", " ", Keys.left, Keys.right, Keys.home, Keys.end,
      Keys.delete, "\u{7F}", "\u{4}", "\u{15}", "\u{17}",
    ]
    var state: UInt64 = 42
    var decoder = KeyDecoder()
    var editor = LineEditor()
    for _ in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      for key in decoder.decode(Array(pieces[Int(state >> 33) % pieces.count].utf8)) { _ = editor.apply(key) }
    }
    let text = editor.text
    _ = editor.apply(.end)
    #expect(editor.drawn == Array(text.utf8))
    #expect(editor.apply(.enter) == .line(.text(text)))
  }

  @Test func editingKeysActAtTheCursor() {
    #expect(typing("inxc\(Keys.left)\u{7F}").typed == "inc")
    #expect(typing("xx inc\(Keys.left)\(Keys.left)\(Keys.left)\u{15}").typed == "inc")  // Ctrl-U: before the cursor
    #expect(typing("foo inc\(Keys.left)\(Keys.left)\(Keys.left)\u{17}").typed == "inc")  // Ctrl-W: the word before
    #expect(typing("inc\(Keys.home)\n").events.last == .line(.text("inc")))  // Enter enters the whole line
  }

  @Test func echoesAtTheEndAndRedrawsInTheMiddle() {
    #expect(typing("ic\(Keys.left)n").events.suffix(2) == [.redraw, .redraw])
    #expect(typing("incx\(Keys.left)").drawn == "inc\u{1B}7x\u{1B}8")  // the cursor saved before the x
    #expect(typing("inc").drawn == "inc")
  }

  @Test func aLineOverTheLimitIsReportedByLength() {
    let long = [UInt8](repeating: UInt8(ascii: "a"), count: LineReader.maxLineBytes + 10)
    let (events, _, _) = typing(long + [0x0A])
    #expect(events.last == .line(.tooLong(byteCount: LineReader.maxLineBytes + 10)))
    #expect(events.count == LineReader.maxLineBytes + 1)  // echoes stop at the limit
  }
}
