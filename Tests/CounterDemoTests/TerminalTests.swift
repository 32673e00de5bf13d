import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The demo at a (pseudo-)terminal, as a user types: what is typed survives the timer's redraws.
/// Waits are for output to appear, each bounded by a deadline; the suite by its time limit.
@Suite(.timeLimit(.minutes(1))) struct TerminalTests {
  @Test func typedInputStaysVisibleAcrossRedrawsAndStillRuns() throws {
    let terminal = try PseudoTerminal(running: demoExecutable())
    defer { terminal.close() }
    try terminal.waitFor("total: 0")
    terminal.type("timer on\n")
    try terminal.waitFor("timer: on, 0s")
    terminal.type("inc 5x\u{7F}")  // a typo, erased
    // A tick redraws the timer over the prompt's line, then the prompt and what is typed.
    try terminal.waitFor("timer: on, 1s")
    try terminal.waitFor("\r\u{1B}[K\u{1B}[1m>\u{1B}[0m inc 5")
    terminal.type("\u{15}add\n")  // Ctrl-U: the line erased; another command instead
    try terminal.waitFor("counter #1: 0")
    #expect(!terminal.output.contains("error"))
    terminal.type("\u{4}")  // Ctrl-D: the end of input
    try terminal.waitFor("-- end of input: stopping the timer")
    #expect(terminal.waitForExit() == 0)
  }

  @Test func ctrlDMidLineAndEscapeSequencesKeepWhatIsTyped() throws {
    let terminal = try PseudoTerminal(running: demoExecutable())
    defer { terminal.close() }
    try terminal.waitFor("total: 0")
    terminal.type("in\u{4}c\n")  // Ctrl-D after typing: the line is neither entered nor lost
    try terminal.waitFor("counter: 1\r\n")
    terminal.type("incx\u{1B}[D")  // Left: the line drawn again, the cursor saved before the x
    try terminal.waitFor("\r\u{1B}[K\u{1B}[1m>\u{1B}[0m inc\u{1B}7x\u{1B}8")
    terminal.type("\u{4}\n")  // Ctrl-D deletes the x
    try terminal.waitFor("counter: 2\r\n")
    terminal.type("\u{1B}")  // a bare escape, then a command, in one read or two
    terminal.type("inc\n")
    try terminal.waitFor("counter: 3\r\n")
    // A title (OSC, ended by BEL and by ST), a long unknown CSI, a C1 CSI and a C1 NEL.
    terminal.type("\u{1B}]0;title\u{7}i\u{1B}]2;title\u{1B}\\n\u{1B}[1;2;3;4;5;6;7;8;9;10;11;12mc\u{9B}31m\u{85}\n")
    try terminal.waitFor("counter: 4\r\n")
    terminal.type("add\u{4}")  // at the end of a typed line Ctrl-D does nothing
    terminal.type("\n")
    try terminal.waitFor("counter #1: 0")
    #expect(!terminal.output.contains("error"))
    #expect(!terminal.output.contains("title"))
    #expect(!terminal.output.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
    terminal.type("\u{4}")  // on an empty line: the end of input
    try terminal.waitFor("-- end of input")
    #expect(terminal.waitForExit() == 0)
  }
}

/// A process whose standard streams are the slave side of a pseudo-terminal.
final class PseudoTerminal {
  private let master: Int32
  private let process = Process()
  private(set) var output = ""

  struct Timeout: Error, CustomStringConvertible {
    let expected: String
    let output: String
    var description: String { "no \(expected.debugDescription) in \(output.debugDescription)" }
  }

  init(running executable: URL) throws {
    master = PTY.open(O_RDWR | O_NOCTTY)
    guard master >= 0, PTY.grant(master) == 0, PTY.unlock(master) == 0, let name = PTY.name(master) else {
      throw Timeout(expected: "a pseudo-terminal", output: "")
    }
    let slave = FileHandle(forUpdatingAtPath: String(cString: name))!
    process.executableURL = executable
    process.standardInput = slave
    process.standardOutput = slave
    process.standardError = slave
    var environment = ProcessInfo.processInfo.environment
    environment["TERM"] = "xterm"
    environment["NO_COLOR"] = nil
    process.environment = environment
    try process.run()
    try slave.close()
  }

  func type(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress!, $0.count - 1) }
  }

  /// Reads until `text` has appeared, for at most `seconds`.
  func waitFor(_ text: String, seconds: Double = 10) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !output.contains(text) {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw Timeout(expected: text, output: output) }
      var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(master, &buffer, buffer.count)
      guard count > 0 else { throw Timeout(expected: text, output: output) }
      output += String(decoding: buffer[..<count], as: UTF8.self)
    }
  }

  func waitForExit() -> Int32 {
    process.waitUntilExit()
    return process.terminationStatus
  }

  func close() {
    if process.isRunning { process.terminate() }
    _ = closeDescriptor(master)
  }
}

private let closeDescriptor = close

/// The C library's pseudo-terminal functions. Glibc's module map hides them (they need
/// `_XOPEN_SOURCE`), so on Linux they are looked up by name.
private enum PTY {
  #if canImport(Darwin)
    static let open = posix_openpt
    static let grant = grantpt
    static let unlock = unlockpt
    static let name = ptsname
  #else
    static let open = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    static let grant = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    static let unlock = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    static let name = function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)

    private static func function<F>(_ name: String, as _: F.Type) -> F {
      unsafeBitCast(dlsym(nil, name)!, to: F.self)
    }
  #endif
}
