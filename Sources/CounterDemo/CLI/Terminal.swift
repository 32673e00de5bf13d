#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output and what kind of device the standard streams are.
enum Terminal {
  static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
  static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  /// Whether to colour the output: only on a terminal, and neither `NO_COLOR` nor `TERM=dumb` set.
  static var wantsColor: Bool {
    outputIsTerminal && getenv("NO_COLOR") == nil && getenv("TERM").map { String(cString: $0) } != "dumb"
  }

  /// Writes `text` to standard output (or `descriptor`) unbuffered, so that output and prompts
  /// appear in order. Output that cannot be written (a closed pipe) is dropped.
  static func emit(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    var text = text
    text.withUTF8 { emit($0, to: descriptor) }
  }

  /// Writes `bytes` as ``emit(_:to:)`` writes text (typed bytes may end mid-character).
  static func emit(bytes: [UInt8], to descriptor: Int32 = STDOUT_FILENO) {
    bytes.withUnsafeBufferPointer { emit($0, to: descriptor) }
  }

  private static func emit(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return
      }
    }
  }
}

/// ANSI colours for the parts of the output, or none.
struct Style: Sendable {
  let usesColor: Bool

  /// The `↻` that marks a redrawn part.
  var redrawMark: String { paint("↻", "36") }
  /// The prompt of interactive sessions.
  var prompt: String { paint(">", "1") + " " }
  func error(_ text: String) -> String { paint(text, "31") }
  func trace(_ text: String) -> String { paint(text, "2") }

  private func paint(_ text: String, _ code: String) -> String {
    usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
