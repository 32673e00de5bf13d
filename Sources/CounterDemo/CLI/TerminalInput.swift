/// The lines a user types at a terminal whose line editor is off (``RawMode``): read as typed,
/// edited by a ``LineEditor``, echoed here — so the session knows what is typed and can redraw it.
@MainActor
final class TerminalInput {
  private let read: @Sendable () async -> [UInt8]?
  private var editor = LineEditor()
  private var pending: ArraySlice<UInt8> = []
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

  /// What is typed of the next line so far.
  var typed: [UInt8] { editor.typed }

  /// The next line, or nil at the end of input.
  func next() async -> InputLine? {
    while true {
      while let byte = pending.popFirst() {
        switch editor.feed(byte) {
        case nil: continue
        case let .echo(bytes)?: emitBytes(bytes)
        case .redraw?: redraw()
        case let .line(line)?:
          if case .text(_, terminated: true) = line { emit("\n") }
          if case .tooLong = line { emit("\n") }
          return line
        case .end?: return nil
        }
      }
      guard let bytes = await read() else {
        // The terminal went away: what was typed is the last line.
        return editor.feed(0x04).flatMap { if case let .line(line) = $0 { line } else { nil } }
      }
      pending = bytes[...]
    }
  }
}
