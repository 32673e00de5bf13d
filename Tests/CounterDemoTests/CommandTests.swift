import Testing
@testable import CounterDemo

@Suite struct CommandTests {
  private func commands(_ line: String) -> [Command?] {
    Command.parse(line).map { try? $0.result.get() }
  }

  private func errors(_ line: String) -> [String] {
    Command.parse(line).compactMap {
      if case let .failure(error) = $0.result { error.message } else { nil }
    }
  }

  @Test func everyCommandParses() {
    #expect(
      commands("inc inc 2 dec dec 3 reset reset 4 add remove 5 timer on timer OFF fact fact -12 wait wait 3 undo redo show help quit")
        == [
          .increment(id: nil), .increment(id: 2), .decrement(id: nil), .decrement(id: 3), .reset(id: nil),
          .reset(id: 4), .add, .remove(id: 5), .timer(on: true), .timer(on: false), .fact(nil), .fact(-12),
          .wait(seconds: 1), .wait(seconds: 3), .undo, .redo, .show, .help, .quit,
        ])
  }

  @Test func anArgumentIsTheNextWordUnlessThatIsACommand() {
    #expect(commands("fact inc") == [.fact(nil), .increment(id: nil)])
    #expect(commands("INC  \t 2   ") == [.increment(id: 2)])
    #expect(Command.parse("inc   2").map(\.text) == ["inc 2"])
  }

  @Test func emptyAndBlankLinesAreNoCommands() {
    #expect(Command.parse("").isEmpty)
    #expect(Command.parse("  \t ").isEmpty)
  }

  @Test func badArgumentsSayWhatIsAccepted() {
    #expect(errors("inc abc") == ["inc: 'abc' is not a counter id; use 'inc' for the counter or 'inc ID' for list counter #ID"])
    #expect(errors("remove") == ["remove: which counter? use 'remove ID', e.g. 'remove 1'"])
    #expect(errors("timer maybe") == ["timer: expected 'on' or 'off', got 'maybe'"])
    #expect(errors("wait 0") == ["wait: '0' is not a number of seconds from 1 to 3600; use 'wait' or 'wait 3'"])
    #expect(errors("fact 1000000000001").count == 1)
    #expect(errors("add 3") == ["add takes no argument, got '3'"])
  }

  @Test func anUnknownCommandIsOneErrorAndTheCommandsAfterItStillParse() {
    let parsed = Command.parse("foo bar inc")
    #expect(parsed.map(\.text) == ["foo bar", "inc"])
    #expect(errors("foo bar inc").first?.hasPrefix("unknown command 'foo' (and the word after it); commands: inc, dec,") == true)
    #expect(commands("foo bar inc").last == .increment(id: nil))
  }

  @Test func wordsAreShownPrintableAndShort() {
    #expect(Command.printable("a\u{1B}[2J\u{0}b") == "a\\u{1B}[2J\\u{0}b")
    #expect(Command.printable(Substring(String(repeating: "x", count: 30))) == String(repeating: "x", count: 24) + "…")
    #expect(Command.printable("\u{FFFD}é") == "\u{FFFD}é")
  }

  @Test func options() throws {
    let options = try Options(["--trace", "--script", "inc inc"])
    #expect(options.trace && options.script == "inc inc" && options.mode == .run)
    #expect(try Options(["--script=fact"]).script == "fact")
    #expect(try Options(["--help"]).mode == .help)
    #expect(try Options(["--version"]).mode == .version)
    #expect(throws: InputError("unknown option '--bogus'; see --help")) { try Options(["--bogus"]) }
    #expect(throws: InputError.self) { try Options(["--script"]) }
  }
}
