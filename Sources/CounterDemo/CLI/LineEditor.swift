/// Edits the line being typed in an interactive session, byte by byte, in place of the terminal's
/// own line editor.
///
/// The session turns the terminal's editor off (``RawMode``): what it holds is invisible to the
/// program, so a redraw between commands (a timer tick) would wipe a half-typed command from the
/// screen. With this editor the session knows what is typed (``text``) and redraws it after the
/// prompt. It does what the terminal did: echo, backspace (by character, UTF-8 aware), Ctrl-U
/// (erase the line), Ctrl-W (erase a word), Enter, Ctrl-D (the end of input); escape sequences
/// (arrow keys) and other control characters are ignored. A line over ``LineReader/maxLineBytes``
/// is only counted, and reported as too long.
struct LineEditor {
  /// What a byte did.
  enum Event: Equatable {
    /// Show these bytes (the typed character, or a backspace's erasure).
    case echo([UInt8])
    /// The typed line changed in a way an echo cannot show: draw it again.
    case redraw
    /// A line was entered (Enter, or Ctrl-D after typing: the end of input follows).
    case line(InputLine)
    /// The end of input (Ctrl-D on an empty line, or after a line it ended).
    case end
  }

  private var bytes: [UInt8] = []
  /// Bytes typed on this line, kept or not (over the limit they are only counted).
  private var byteCount = 0
  private var inEscape = false
  private var escapeLength = 0
  private var ended = false

  /// What is typed so far, for a redraw (shown as the echo showed it).
  var typed: [UInt8] { bytes }

  mutating func feed(_ byte: UInt8) -> Event? {
    if ended { return .end }
    if inEscape { return skipEscape(byte) }
    switch byte {
    case 0x0A, 0x0D:  // Enter
      return .line(take(terminated: true))
    case 0x04:  // Ctrl-D
      if byteCount == 0 { return .end }
      ended = true
      return .line(take(terminated: false))
    case 0x7F, 0x08:  // backspace
      return eraseCharacter() ? .echo(Array("\u{8} \u{8}".utf8)) : nil
    case 0x15:  // Ctrl-U
      guard byteCount > 0 else { return nil }
      bytes = []
      byteCount = 0
      return .redraw
    case 0x17:  // Ctrl-W
      let before = byteCount
      while bytes.last == UInt8(ascii: " ") || bytes.last == UInt8(ascii: "\t") { eraseLast() }
      while let last = bytes.last, last != UInt8(ascii: " "), last != UInt8(ascii: "\t") { eraseLast() }
      return byteCount == before ? nil : .redraw
    case 0x1B:  // an escape sequence: an arrow key, a function key
      inEscape = true
      escapeLength = 0
      return nil
    case 0x09, 0x20...:
      byteCount += 1
      guard byteCount <= LineReader.maxLineBytes else { return nil }
      bytes.append(byte)
      return .echo([byte])
    default:  // other control characters
      return nil
    }
  }

  private mutating func take(terminated: Bool) -> InputLine {
    defer {
      bytes = []
      byteCount = 0
    }
    guard byteCount <= LineReader.maxLineBytes else { return .tooLong(byteCount: byteCount) }
    return .text(String(decoding: bytes, as: UTF8.self), terminated: terminated)
  }

  /// Erases the last character (a UTF-8 lead byte and its continuation bytes); false if none.
  private mutating func eraseCharacter() -> Bool {
    guard byteCount > 0 else { return false }
    if byteCount > bytes.count {  // past the limit: only counted
      byteCount -= 1
      return false
    }
    while let last = bytes.last, last & 0xC0 == 0x80 { eraseLast() }
    eraseLast()
    return true
  }

  private mutating func eraseLast() {
    guard !bytes.isEmpty else { return }
    bytes.removeLast()
    byteCount -= 1
  }

  /// `ESC [ … final` or `ESC O x` (or ESC and one byte): consumed whole.
  private mutating func skipEscape(_ byte: UInt8) -> Event? {
    escapeLength += 1
    if escapeLength == 1 {
      // CSI and SS3 sequences go on; anything else was ESC and one character.
      inEscape = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O")
      return nil
    }
    // After `[`: parameters and intermediates (0x20–0x3F), then a final byte (0x40–0x7E).
    // After `O`: one byte.
    if !(0x20...0x3F).contains(byte) || escapeLength > 16 { inEscape = false }
    return nil
  }
}
