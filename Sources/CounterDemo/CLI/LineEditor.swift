/// Edits the line being typed in an interactive session, key by key (see ``KeyDecoder``), in place
/// of the terminal's own line editor.
///
/// The session turns the terminal's editor off (``RawMode``): what it holds is invisible to the
/// program, so a redraw between commands (a timer tick) would wipe a half-typed command from the
/// screen. With this editor the session knows what is typed and redraws it after the prompt
/// (``drawn``). The keys work as in a shell (readline): typing inserts at the cursor; Left,
/// Right, Home, End move it by character; Backspace and Delete erase the character before and
/// under it; Ctrl-U and Ctrl-W erase the line and the word before it; Enter enters the whole line;
/// Ctrl-D is the end of input on an empty line and Delete on any other — it never enters or drops
/// what is typed. A line over ``LineReader/maxLineBytes`` is only counted past the limit, and
/// reported as too long.
struct LineEditor {
  /// What a key did.
  enum Event: Equatable {
    /// Show these bytes (a character typed at the end, or a backspace's erasure there).
    case echo([UInt8])
    /// The line or the cursor changed in a way an echo cannot show: draw them again.
    case redraw
    /// A line was entered (Enter).
    case line(InputLine)
    /// The end of input (Ctrl-D on an empty line).
    case end
  }

  /// What is typed and kept.
  private(set) var text = ""
  /// The cursor's UTF-8 offset in `text`, always between characters.
  private var cursor = 0
  /// Bytes typed past the limit: counted, not kept; they are after the end of `text`.
  private var uncounted = 0

  /// What a redraw shows after the prompt: the line, with the cursor saved (DECSC) where it is
  /// and restored (DECRC) after the rest of the line.
  var drawn: [UInt8] {
    let utf8 = Array(text.utf8)
    guard cursor < utf8.count else { return utf8 }
    return Array(utf8[..<cursor]) + Self.saveCursor + utf8[cursor...] + Self.restoreCursor
  }

  /// What `key` did to the line, if anything shows.
  mutating func apply(_ key: Key) -> Event? {
    defer { alignCursor() }
    switch key {
    case let .character(scalar): return insert(scalar)
    case .enter: return .line(take())
    case .backspace: return eraseBefore()
    case .delete: return eraseUnder()
    case .controlD: return text.isEmpty && uncounted == 0 ? .end : eraseUnder()
    case .eraseLine: return eraseBefore { $0.startIndex }
    case .eraseWord: return eraseBefore(to: Self.wordStart)
    case .left: return move(to: cursor == 0 ? nil : text.index(before: cursorIndex))
    case .right: return move(to: isAtEnd ? nil : text.index(after: cursorIndex))
    case .home: return move(to: cursor == 0 ? nil : text.startIndex)
    case .end: return move(to: isAtEnd ? nil : text.endIndex)
    }
  }

  /// The line typed so far, at the end of input (the terminal went away); nil if none.
  mutating func endOfInput() -> InputLine? {
    text.isEmpty && uncounted == 0 ? nil : take(terminated: false)
  }

  /// Characters can join (a combining mark, two flag halves): the cursor goes after what it split.
  private mutating func alignCursor() {
    let index = cursorIndex
    if index.samePosition(in: text) == nil { cursor = offset(of: text.index(after: index)) }
  }

  private var cursorIndex: String.Index { text.utf8.index(text.startIndex, offsetBy: cursor) }

  private var isAtEnd: Bool { cursor == text.utf8.count }

  private func offset(of index: String.Index) -> Int { text.utf8.distance(from: text.startIndex, to: index) }

  private mutating func insert(_ scalar: Unicode.Scalar) -> Event? {
    let width = UTF8.width(scalar)
    guard uncounted == 0, text.utf8.count + width <= LineReader.maxLineBytes else {
      uncounted += width
      return nil
    }
    let atEnd = isAtEnd
    text.unicodeScalars.insert(scalar, at: cursorIndex)
    cursor += width
    return atEnd ? .echo(Array(String(scalar).utf8)) : .redraw
  }

  private mutating func take(terminated: Bool = true) -> InputLine {
    defer {
      text = ""
      cursor = 0
      uncounted = 0
    }
    let byteCount = text.utf8.count + uncounted
    guard byteCount <= LineReader.maxLineBytes else { return .tooLong(byteCount: byteCount) }
    return .text(text, terminated: terminated)
  }

  /// Backspace: at the end of the line, past the limit, uncounts a byte.
  private mutating func eraseBefore() -> Event? {
    if isAtEnd && uncounted > 0 {
      uncounted -= 1
      return nil
    }
    guard cursor > 0 else { return nil }
    let start = text.index(before: cursorIndex)
    // ASCII is one column wide, so an echo can erase it; another character is redrawn.
    let simple = isAtEnd && text.utf8.distance(from: start, to: cursorIndex) == 1
    erase(start..<cursorIndex)
    cursor = offset(of: start)
    return simple ? .echo(Array("\u{8} \u{8}".utf8)) : .redraw
  }

  /// Erases from where `start` says up to the cursor (and, at the end, what was only counted).
  private mutating func eraseBefore(to start: (Substring) -> String.Index) -> Event? {
    if isAtEnd { uncounted = 0 }
    let from = start(text[..<cursorIndex])
    guard from < cursorIndex else { return nil }
    erase(from..<cursorIndex)
    cursor = offset(of: from)
    return .redraw
  }

  /// Delete: erases the character under the cursor, if any.
  private mutating func eraseUnder() -> Event? {
    guard !isAtEnd else { return nil }
    erase(cursorIndex..<text.index(after: cursorIndex))
    return .redraw
  }

  private mutating func erase(_ range: Range<String.Index>) {
    text.unicodeScalars.removeSubrange(range)
  }

  private mutating func move(to index: String.Index?) -> Event? {
    guard let index else { return nil }
    cursor = offset(of: index)
    return .redraw
  }

  /// Where the word before the end of `text` starts, with the blanks after it (Ctrl-W).
  private static func wordStart(_ text: Substring) -> String.Index {
    let isBlank = { (character: Character) in character == " " || character == "\t" }
    let beforeBlanks = text.lastIndex { !isBlank($0) }.map { text.index(after: $0) } ?? text.startIndex
    return text[..<beforeBlanks].lastIndex(where: isBlank).map { text.index(after: $0) } ?? text.startIndex
  }

  /// DECSC and DECRC: save and restore the cursor's position.
  private static let saveCursor = Array("\u{1B}7".utf8)
  private static let restoreCursor = Array("\u{1B}8".utf8)
}
