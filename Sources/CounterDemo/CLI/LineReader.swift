import Dispatch
import ValueStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A line of input.
enum InputLine: Equatable, Sendable {
  /// A line, decoded leniently: invalid UTF-8 becomes U+FFFD, a trailing `\r` is dropped;
  /// `terminated` is false for a last line that the end of input ended (no newline before it).
  case text(String, terminated: Bool = true)
  /// A line longer than ``LineReader/maxLineBytes``; only its length is kept.
  case tooLong(byteCount: Int)
}

/// Reads lines from a file descriptor as bytes, whatever they are.
///
/// Blocking reads run on a dispatch queue, never on the cooperative thread pool, so the main actor
/// and the effects keep running while an interactive user thinks; a line already read (piped input
/// comes in chunks of up to 64 KiB) is returned at once, without that hop. A line is never kept
/// beyond ``maxLineBytes``: a longer one is skipped and reported by length.
final class LineReader: Sendable {
  /// The longest line accepted, in bytes.
  static let maxLineBytes = 4096

  private struct Buffer {
    var bytes: [UInt8] = []
    /// Bytes before `start` were consumed.
    var start = 0
    var atEnd = false

    /// Whether a whole line is read and not yet consumed.
    var hasLine: Bool { bytes[start...].contains(UInt8(ascii: "\n")) }
  }

  private let descriptor: Int32
  private let queue = DispatchQueue(label: "CounterDemo.LineReader")
  /// Touched only on `queue`, so never contended: the mutex just lets the compiler check that.
  private let buffer = LockIsolated(Buffer())

  init(descriptor: Int32 = STDIN_FILENO) {
    self.descriptor = descriptor
  }

  /// The next line, or nil at the end of input (a read error counts as the end). Runs on the
  /// caller's executor, so a line already read costs no hop.
  nonisolated(nonsending) func next() async -> InputLine? {
    if let line = buffer.withValue({ $0.hasLine ? readLine(&$0) : nil }) { return line }
    return await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: self.buffer.withValue { self.readLine(&$0) }) }
    }
  }

  /// The bytes read next, as they come (a terminal sends them as they are typed), or nil at the
  /// end of input.
  func nextBytes() async -> [UInt8]? {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: self.readBytes()) }
    }
  }

  private func readBytes() -> [UInt8]? {
    buffer.withValue { buffer in
      if buffer.start == buffer.bytes.count {
        if buffer.atEnd { return nil }
        fill(&buffer)
        if buffer.atEnd { return nil }
      }
      defer { buffer.start = buffer.bytes.count }
      return Array(buffer.bytes[buffer.start...])
    }
  }

  /// The next line, reading more (blocking) while the buffer holds none.
  private func readLine(_ buffer: inout Buffer) -> InputLine? {
    var line: [UInt8] = []
    var length = 0
    var sawBytes = false
    while true {
      let pending = buffer.bytes[buffer.start...]
      let newline = pending.firstIndex(of: UInt8(ascii: "\n"))
      let chunk = pending[..<(newline ?? pending.endIndex)]
      sawBytes = sawBytes || newline != nil || !chunk.isEmpty
      length += chunk.count
      // Past the limit the bytes are only counted, never kept.
      line = length <= Self.maxLineBytes ? line + chunk : []
      buffer.start = newline.map { $0 + 1 } ?? pending.endIndex
      if newline != nil || (buffer.atEnd && sawBytes) {
        return Self.decode(line, length: length, terminated: newline != nil)
      }
      if buffer.atEnd { return nil }
      fill(&buffer)
    }
  }

  /// Replaces the buffer, all consumed, with the next bytes read.
  private func fill(_ buffer: inout Buffer) {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        buffer.bytes = Array(chunk[..<count])
        buffer.start = 0
        return
      }
      if count < 0 && errno == EINTR { continue }
      buffer.atEnd = true
      return
    }
  }

  private static func decode(_ line: [UInt8], length: Int, terminated: Bool) -> InputLine {
    guard length <= maxLineBytes else { return .tooLong(byteCount: length) }
    let bytes = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
    return .text(String(decoding: bytes, as: UTF8.self), terminated: terminated)
  }

  /// The longest line a terminal's line editor passes on (Linux's canonical mode: 4,096 bytes
  /// with the newline); it drops what is typed beyond.
  static let terminalLineBytes = 4095
}
