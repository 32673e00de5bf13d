import Testing

@testable import CounterDemo

/// Decoding what a terminal sends into editing keys, byte sequence by byte sequence.
@Suite struct KeyDecoderTests {
  private func keys(_ input: String) -> [Key] {
    var decoder = KeyDecoder()
    return decoder.decode(Array(input.utf8))
  }

  @Test func cursorKeysAndDeleteInTheirCommonForms() {
    let forms: [(String, Key)] = [
      ("\u{1B}[C", .right), ("\u{1B}OC", .right), ("\u{9B}C", .right), ("\u{6}", .right),
      ("\u{1B}[D", .left), ("\u{1B}OD", .left), ("\u{8F}D", .left), ("\u{2}", .left),
      ("\u{1B}[H", .home), ("\u{1B}OH", .home), ("\u{1B}[1~", .home), ("\u{1B}[7~", .home), ("\u{1}", .home),
      ("\u{1B}[F", .end), ("\u{1B}OF", .end), ("\u{1B}[4~", .end), ("\u{1B}[8~", .end), ("\u{5}", .end),
      ("\u{1B}[3~", .delete),
    ]
    for (input, key) in forms { #expect(keys(input) == [key], "\(input.debugDescription)") }
  }

  @Test func controlKeys() {
    #expect(keys("\r\n\u{7F}\u{8}\u{4}\u{15}\u{17}") == [.enter, .enter, .backspace, .backspace, .controlD, .eraseLine, .eraseWord])
  }

  @Test func charactersAreTypedWhole() {
    #expect(keys("aé€😀") == [.character("a"), .character("é"), .character("€"), .character("😀")])
    #expect(keys("\t") == [.character(" ")])
  }

  @Test func modifiedAndOtherKeysAreNone() {
    for input in ["\u{1B}[1;5C", "\u{1B}[A", "\u{1B}OA", "\u{1B}[3;2~", "\u{1B}[33~", "\u{1B}[1;2;3;4;5;6;7;8;9~", "\u{1B}OP"] {
      #expect(keys(input) == [], "\(input.debugDescription)")
    }
  }

  @Test func anySplitOfTheInputDecodesTheSameKeys() {
    let input =
      Array("\u{1B}[1;5D\u{1B}]0;tï\u{1B}\\é\u{9B}3~\u{1B}\u{1B}OH\u{1B}x\u{9D}8;;u\u{7}\u{1B}P1\u{1B}[C".utf8)
      + [0xC2] + Array("\u{1B}[3~\r".utf8)  // C2: a character cut short
    var whole = KeyDecoder()
    let expected = whole.decode(input)
    #expect(expected == [.character("é"), .delete, .home, .character("x"), .right, .character("\u{FFFD}"), .delete, .enter])
    for split in 1..<input.count {
      var decoder = KeyDecoder()
      #expect(decoder.decode(input[..<split]) + decoder.decode(input[split...]) == expected, "split at \(split)")
    }
  }
}
