/// The lines a user types at a terminal whose line editor is off (``RawMode``): read as typed,
/// decoded by a ``KeyDecoder``, edited by a ``LineEditor``, echoed here — so the session knows
/// what is typed and can redraw it.
@MainActor
final class TerminalInput {
  private let read: @Sendable () async -> [UInt8]?
  private var decoder = KeyDecoder()
  private var editor = LineEditor()
  /// Keys read but not yet applied (those after an entered line).
  private var pending: ArraySlice<Key> = []
  private let emit: (String) -> Void
  private let emitBytes: ([UInt8]) -> Void
  /// Draws the prompt and the typed text again, on a cleared line (set by the session).
  var redraw: () -> Void = {}

  /// Input that `read` returns as it is typed (nil at the end), echoed with `emit` and `emitBytes`.
  init(
    read: @escaping @Sendable () async -> [UInt8]?, emit: @escaping (String) -> Void,
    emitBytes: @escaping ([UInt8]) -> Void
  ) {
    self.read = read
    self.emit = emit
    self.emitBytes = emitBytes
  }

  /// What a redraw shows after the prompt: the line typed so far, and where the cursor is.
  var drawn: [UInt8] { editor.drawn }

  /// The next line, or nil at the end of input.
  func next() async -> InputLine? {
    while true {
      while let key = pending.popFirst() {
        switch editor.apply(key) {
        case nil: continue
        case let .echo(bytes)?: emitBytes(bytes)
        case .redraw?: redraw()
        case let .line(line)?:
          emit("\n")
          return line
        case .end?: return nil
        }
      }
      // The terminal went away: what was typed is the last line.
      guard let bytes = await read() else { return editor.endOfInput() }
      pending = decoder.decode(bytes)[...]
    }
  }
}
