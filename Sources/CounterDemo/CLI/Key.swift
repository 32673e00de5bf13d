/// A key that edits the typed line, as ``KeyDecoder`` decodes it from what a terminal sends.
enum Key: Equatable {
  /// A printable character (never a control character: C0, DEL or C1).
  case character(Unicode.Scalar)
  /// Enter (CR or LF).
  case enter
  /// Backspace (DEL or BS): erases the character before the cursor.
  case backspace
  /// Delete: erases the character under the cursor.
  case delete
  /// Ctrl-D: the end of input on an empty line, Delete on any other.
  case controlD
  /// Ctrl-U: erases the line before the cursor.
  case eraseLine
  /// Ctrl-W: erases the word before the cursor.
  case eraseWord
  /// Left arrow, Ctrl-B.
  case left
  /// Right arrow, Ctrl-F.
  case right
  /// Home, Ctrl-A.
  case home
  /// End, Ctrl-E.
  case end
}
