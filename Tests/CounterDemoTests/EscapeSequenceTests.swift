import Testing

@testable import CounterDemo

/// What reaches the line from escape sequences and control characters: only what is typed.
@Suite struct EscapeSequenceTests {
  /// Expects typing `input` to type `text` (printable ASCII), echoed character by character and
  /// nothing else shown.
  private func expect(_ input: String, types text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let (events, typed, _) = typing(input)
    #expect(typed == text, "\(input.debugDescription)", sourceLocation: sourceLocation)
    #expect(events == text.utf8.map { .echo([$0]) }, "\(input.debugDescription)", sourceLocation: sourceLocation)
  }

  @Test func keysTheEditorDoesNotUseAreDropped() {
    expect("\u{1B}[A\u{1B}[B\u{1B}OP\u{1B}[2~\u{1B}[15~ok", types: "ok")  // up, down, F1, Insert, F5
  }

  @Test func aBareEscapeDropsOnlyItself() {
    expect("\u{1B}inc", types: "inc")
    expect("\u{1B}x", types: "x")  // Alt-x
    expect("\u{1B}\u{1B}[Aok", types: "ok")  // the second escape starts the sequence
    #expect(typing("ok\u{1B}\n").events.last == .line(.text("ok")))
    #expect(typing("ok\u{1B}\u{7F}").typed == "o")
  }

  @Test func oscStringsAreDropped() {
    expect("\u{1B}]0;title\u{7}ok", types: "ok")  // ended by BEL
    expect("\u{1B}]0;title\u{1B}\\ok", types: "ok")  // ended by ST
    expect("\u{1B}]8;;http://example.com/?a=b\u{1B}\\ok", types: "ok")
    expect("\u{1B}]2;café ☕\u{7}ok", types: "ok")  // UTF-8 inside
    expect("\u{9D}0;title\u{9C}ok", types: "ok")  // the C1 forms
  }

  @Test func dcsSosPmAndApcStringsAreDropped() {
    expect("\u{1B}P1$r0m\u{1B}\\ok", types: "ok")
    expect("\u{1B}Xsos\u{1B}\\ok", types: "ok")
    expect("\u{1B}^pm\u{7}ok", types: "ok")
    expect("\u{1B}_Gi=1;OK\u{1B}\\ok", types: "ok")
    expect("\u{90}dcs\u{9C}\u{98}sos\u{9C}\u{9E}pm\u{9C}\u{9F}apc\u{9C}ok", types: "ok")
  }

  @Test func anEscapeInsideAStringEndsItAndStartsASequence() {
    expect("\u{1B}]0;ti\u{1B}[Aok", types: "ok")
  }

  @Test func csiSequencesAreDroppedWhateverTheyAre() {
    expect("\u{1B}[200~ok\u{1B}[201~", types: "ok")  // bracketed paste marks
    expect("\u{1B}[?1;2cok", types: "ok")
    expect("\u{1B}[38;5;196mok", types: "ok")
    expect("\u{1B}[<0;12;40Mok", types: "ok")  // a mouse report
    expect("\u{1B}[1;2;3;4;5;6;7;8;9;10;11;12mok", types: "ok")  // long
    expect("\u{1B}[2 qok", types: "ok")  // an intermediate byte
    expect("\u{1B}[1;5Dok", types: "ok")  // Ctrl-Left
    expect("\u{9B}1;2mok", types: "ok")  // the C1 form
  }

  @Test func aControlCharacterEndsAnUnfinishedSequenceAndStillActs() {
    #expect(typing("inc\u{1B}[1\n").events.last == .line(.text("inc")))
    #expect(typing("inc\u{1B}O\n").events.last == .line(.text("inc")))
    #expect(typing("\u{1B}]0;ti\ninc\n").events.last == .line(.text("inc")))
    #expect(typing("inc\u{1B}[1\u{7F}").typed == "in")
  }

  @Test func c1ControlsAreNeitherTypedNorEchoed() {
    let introducers: Set<UInt32> = [0x8F, 0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F]
    for value in UInt32(0x80)...0x9F where !introducers.contains(value) {
      expect("o\(Unicode.Scalar(value)!)k", types: "ok")
    }
    expect("\u{8F}Pok", types: "ok")  // SS3
  }

  @Test func otherControlCharactersAreDropped() {
    let keys: Set<UInt8> = [0x01, 0x02, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0A, 0x0D, 0x15, 0x17, 0x1B]
    for byte in UInt8(0)...0x1F where !keys.contains(byte) {
      expect("o\(Unicode.Scalar(byte))k", types: "ok")
    }
    #expect(typing("inc\t2").typed == "inc 2")  // Tab types a space
  }

  @Test func invalidUTF8IsTypedAsReplacementCharacters() {
    let (events, typed, _) = typing([0x61, 0xFF, 0x9B, 0xC3, 0x62, 0xE2, 0x82])
    #expect(typed == "a\u{FFFD}\u{FFFD}\u{FFFD}b")  // the unfinished E2 82 waits for its last byte
    #expect(events.allSatisfy { if case let .echo(bytes) = $0 { isPlainText(bytes) } else { false } })
    #expect(typing([0xE2, 0x82, 0xAC]).typed == "€")
  }
}
