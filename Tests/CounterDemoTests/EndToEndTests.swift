import Foundation
import ValueStore
import Testing

/// Runs the built `CounterDemo` executable with piped input. Scripted runs use virtual time, so
/// nothing here depends on how fast the machine is.
@Suite(.timeLimit(.minutes(1))) struct EndToEndTests {
  @Test func pipedInputPrintsTheExpectedTranscript() throws {
    let input = """
      inc
      inc
      dec
      fact
      wait

      add
      add   add
      inc 2
      inc 2
      dec 1
         inc    abc\("   ")
      remove 9
      frobnicate now
      remove 1
      reset 2
      timer on
      wait 3
      timer off
      fact 12 fact 13
      wait 1 show
      timer on
      fact
      """
    let run = try runDemo(input: Array(input.utf8))
    #expect(run.status == 0)
    #expect(run.errors == "")
    #expect(run.output == Self.transcript)
  }

  @Test func scriptOptionRunsCommandsLikePipedInput() throws {
    let commands = "add inc 1 inc fact timer on wait 2 inc 7"
    let scripted = try runDemo(["--script", commands])
    let piped = try runDemo(input: Array("add\ninc 1 inc\nfact timer on\nwait 2\ninc 7\n".utf8))
    #expect(scripted.status == 0)
    #expect(scripted.output == piped.output)
    #expect(scripted.output.hasSuffix("""
      > inc 7
        error: inc: there is no counter #7; the list has #1
      -- end of input: stopping the timer
        ↻ timer: off, 2s

      """))
  }

  @Test func undoAndRedoRedrawOnlyWhatTheyChangeAndLeaveTheTimerAlone() throws {
    let run = try runDemo(["--script", "add add inc 2 inc 1 timer on undo wait 1 redo remove 1 undo undo undo undo undo undo redo"])
    #expect(run.status == 0)
    #expect(run.output.contains("""
      > undo
        ↻ counter #1: 0
        ↻ total: 1
      > wait 1
        ↻ timer: on, 1s
      > redo
        ↻ counter #1: 1
        ↻ total: 2
      > remove 1
        ↻ list: #2
        ↻ total: 1
      > undo
        ↻ list: #1, #2
        ↻ counter #1: 1
        ↻ total: 2
      > undo
        ↻ counter #1: 0
        ↻ total: 1
      > undo
        ↻ counter #2: 0
        ↻ total: 0
      > undo
        ↻ list: #1
      > undo
        ↻ list: empty (try 'add')
      > undo
        error: undo: nothing to undo
      > redo
        ↻ list: #1
        ↻ counter #1: 0
      -- end of input: stopping the timer
        ↻ timer: off, 1s

      """))
  }

  @Test func quitStopsLikeTheEndOfInput() throws {
    let run = try runDemo(["--script", "timer on fact 4 quit inc"])
    #expect(run.status == 0)
    #expect(run.output.hasSuffix("""
      > quit
      -- quit: stopping the timer; waiting for the fact about 4
        ↻ timer: off, 0s
        ↻ fact: 4 is even; 4 = 2².

      """))
  }

  @Test func randomBytesLongLinesAndInvalidUTF8AreReportedNotFatal() throws {
    var generator = SplitMix64(seed: 42)
    let random = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    let longLine = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    let invalidUTF8: [UInt8] = [0xFF, 0xC3, 0x28]
    let input = random + [0x0A] + longLine + [0x0A] + Array("inc ".utf8) + invalidUTF8 + Array("\n\ninc\n".utf8)
    let run = try runDemo(input: input)
    #expect(run.status == 0)
    #expect(run.errors == "")
    #expect(run.output.contains("  error: unknown command '"))
    #expect(run.output.contains("is 1048576 bytes long, over the limit of 4096 bytes; it was ignored"))
    #expect(run.output.contains("> inc \u{FFFD}\u{FFFD}(\n  error: inc: '\u{FFFD}\u{FFFD}(' is not a counter id"))
    #expect(run.output.hasSuffix("> inc\n  ↻ counter: 1\n-- end of input\n"))
    #expect(!run.output.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
  }

  @Test func helpVersionAndBadOptions() throws {
    let help = try runDemo(["--help"])
    #expect(help.status == 0)
    #expect(help.output.contains("usage: CounterDemo [--trace] [--script \"COMMANDS\"]"))
    #expect(help.output.contains("End of input (or 'quit'): a running timer is stopped"))
    #expect(try runDemo(["--version"]).output == "CounterDemo 1.0.0 (ValueStore demo)\n")
    let bad = try runDemo(["--frobnicate"])
    #expect(bad.status == 2)
    #expect(bad.output == "")
    #expect(bad.errors == "CounterDemo: unknown option '--frobnicate'; see --help\n")
  }

  @Test func traceShowsEachActionAndItsStateDiff() throws {
    let run = try runDemo(["--trace", "--script", "inc"])
    #expect(run.output.contains("""
      > inc
        · received action: AppFeature.Action.counter(CounterFeature.Action.increment)
              AppState(
                counter: Counter(
                  id: 0,
            -     count: 0
            +     count: 1
                ),
      """))
  }

  private static let transcript = """
      counter: 0
      timer: off, 0s
      fact: none yet (try 'fact')
      list: empty (try 'add')
      total: 0
    > inc
      ↻ counter: 1
    > inc
      ↻ counter: 2
    > dec
      ↻ counter: 1
    > fact
      ↻ fact: working out a fact about 1…
    > wait
      ↻ fact: 1 is odd and neither prime nor composite.
    > add
      ↻ list: #1
      ↻ counter #1: 0
    > add
      ↻ list: #1, #2
      ↻ counter #2: 0
    > add
      ↻ list: #1, #2, #3
      ↻ counter #3: 0
    > inc 2
      ↻ counter #2: 1
      ↻ total: 1
    > inc 2
      ↻ counter #2: 2
      ↻ total: 2
    > dec 1
      ↻ counter #1: -1
      ↻ total: 1
    > inc abc
      error: inc: 'abc' is not a counter id; use 'inc' for the counter or 'inc ID' for list counter #ID
    > remove 9
      error: remove: there is no counter #9; the list has #1, #2, #3
    > frobnicate now
      error: unknown command 'frobnicate' (and the word after it); commands: inc, dec, reset, add, remove, timer, fact, wait, undo, redo, show, help, quit
    > remove 1
      ↻ list: #2, #3
      ↻ total: 2
    > reset 2
      ↻ counter #2: 0
      ↻ total: 0
    > timer on
      ↻ timer: on, 0s
    > wait 3
      ↻ timer: on, 3s
    > timer off
      ↻ timer: off, 3s
    > fact 12
      ↻ fact: working out a fact about 12…
    > fact 13
      ↻ fact: working out a fact about 13…
    > wait 1
      ↻ fact: 13 is odd and prime.
    > show
      counter: 1
      timer: off, 3s
      fact: 13 is odd and prime.
      list: #2, #3
      counter #2: 0
      counter #3: 0
      total: 0
    > timer on
      ↻ timer: on, 3s
    > fact
      ↻ fact: working out a fact about 1…
    -- end of input: stopping the timer; waiting for the fact about 1
      ↻ timer: off, 3s
      ↻ fact: 1 is odd and neither prime nor composite.

    """
}

/// What a run of the demo printed.
private struct Run {
  let status: Int32
  let output: String
  let errors: String
}

/// Runs the demo with `arguments`, `input` on its standard input, and waits for it to exit.
private func runDemo(_ arguments: [String] = [], input: [UInt8] = []) throws -> Run {
  let process = Process()
  process.executableURL = try demoExecutable()
  process.arguments = arguments
  let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  // Written from another thread: a large input fills the pipe while the demo waits for its output
  // to be read. The demo reads its input to the end (none of these inputs says `quit`).
  let writer = stdin.fileHandleForWriting
  DispatchQueue.global().async {
    writer.write(Data(input))
    try? writer.close()
  }
  let errorData = LockIsolated(Data())
  let errorsRead = DispatchSemaphore(value: 0)
  DispatchQueue.global().async {
    let data = stderr.fileHandleForReading.readDataToEndOfFile()
    errorData.withValue { $0 = data }
    errorsRead.signal()
  }
  let output = stdout.fileHandleForReading.readDataToEndOfFile()
  errorsRead.wait()
  process.waitUntilExit()
  return Run(
    status: process.terminationStatus,
    output: String(decoding: output, as: UTF8.self),
    errors: String(decoding: errorData.withValue { $0 }, as: UTF8.self))
}

/// The `CounterDemo` executable built with the tests: next to the test bundle (a directory on
/// Linux, a `.xctest` bundle on macOS), whatever the build path.
func demoExecutable() throws -> URL {
  var directory = Bundle(for: BundleMarker.self).bundleURL
  for _ in 0..<3 {
    let candidate = directory.appendingPathComponent("CounterDemo")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    directory.deleteLastPathComponent()
  }
  throw DemoNotBuilt()
}

private final class BundleMarker {}

private struct DemoNotBuilt: Error, CustomStringConvertible {
  var description: String { "CounterDemo was not found next to the test bundle; run `swift build` first" }
}

/// A small deterministic random number generator, so that the random input is the same each run.
private struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
