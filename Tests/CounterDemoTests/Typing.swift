@testable import CounterDemo

/// What typing `input` at a fresh line editor did (decoded into keys): its events, the line it holds at the end, and
/// what a redraw shows after the prompt.
func typing(_ input: [UInt8]) -> (events: [LineEditor.Event], typed: String, drawn: String) {
  var decoder = KeyDecoder()
  var editor = LineEditor()
  let events = decoder.decode(input).compactMap { editor.apply($0) }
  return (events, editor.text, String(decoding: editor.drawn, as: UTF8.self))
}

/// Typing the UTF-8 encoding of `input` (so `"\u{9B}"` is the bytes C2 9B).
func typing(_ input: String) -> (events: [LineEditor.Event], typed: String, drawn: String) {
  typing(Array(input.utf8))
}

/// What the keys the editor knows send (xterm's defaults).
enum Keys {
  static let left = "\u{1B}[D"
  static let right = "\u{1B}[C"
  static let home = "\u{1B}[H"
  static let end = "\u{1B}[F"
  static let delete = "\u{1B}[3~"
}

/// Whether `bytes` are UTF-8 that a terminal shows without acting on it: no control characters
/// (C0, DEL, C1) but `allowed`.
func isPlainText(_ bytes: [UInt8], allowing allowed: Set<Unicode.Scalar> = []) -> Bool {
  guard let text = String(validating: bytes, as: UTF8.self) else { return false }
  return !text.unicodeScalars.contains { $0.properties.generalCategory == .control && !allowed.contains($0) }
}
