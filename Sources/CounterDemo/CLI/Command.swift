/// A command of the demo's line language, parsed but not yet checked against the state: whether a
/// list counter with an id exists is checked when the command runs.
///
/// Commands are words separated by white space; a command's argument is the word after it unless
/// that word is itself a command, so `inc inc 2 fact` is three commands. See ``Command/grammar``.
enum Command: Equatable, Sendable {
  /// `inc [ID]`: the counter, or list counter #ID.
  case increment(id: Int?)
  /// `dec [ID]`
  case decrement(id: Int?)
  /// `reset [ID]`
  case reset(id: Int?)
  /// `add`
  case add
  /// `remove ID`
  case remove(id: Int)
  /// `timer on|off`
  case timer(on: Bool)
  /// `fact [N]`: a fact about N, or about the counter.
  case fact(Int?)
  /// `wait [SECONDS]`
  case wait(seconds: Int)
  /// `undo`: the last change to the counters.
  case undo
  /// `redo`
  case redo
  /// `show`
  case show
  /// `help`
  case help
  /// `quit`
  case quit

  /// Largest magnitude `fact N` accepts: factorizing it by trial division stays instant.
  static let maxFactNumber = 1_000_000_000_000
  /// Longest `wait`, in seconds.
  static let maxWait = 3600

  /// The commands and their syntax, in the order `help` lists them.
  static let grammar: [(name: String, usage: String, summary: String)] = [
    ("inc", "inc [ID]", "increment the counter, or list counter #ID"),
    ("dec", "dec [ID]", "decrement the counter, or list counter #ID"),
    ("reset", "reset [ID]", "set the counter, or list counter #ID, to 0"),
    ("add", "add", "add a counter to the list"),
    ("remove", "remove ID", "remove list counter #ID"),
    ("timer", "timer on|off", "start or stop the timer, which ticks every second"),
    ("fact", "fact [N]", "a fact about N (default: the counter) in \(FactFeature.delay); replaces a pending one"),
    ("wait", "wait [SECONDS]", "let time pass (default 1 second, at most \(maxWait))"),
    ("undo", "undo", "undo the last change to the counters (inc, dec, reset, add, remove)"),
    ("redo", "redo", "redo what undo undid"),
    ("show", "show", "draw the whole screen"),
    ("help", "help", "list the commands"),
    ("quit", "quit", "stop, as at the end of input"),
  ]

  /// Parses one line into commands, each with its words. A bad command becomes an error and does
  /// not stop the commands after it.
  ///
  /// ```swift
  /// Command.parse("inc  2 timer on")  // inc 2 → .increment(id: 2), timer on → .timer(on: true)
  /// Command.parse("inc abc")          // inc abc → error "inc: 'abc' is not a counter id; …"
  /// ```
  static func parse(_ line: String) -> [ParsedCommand] {
    var words = line.split(whereSeparator: \.isWhitespace)[...]
    var parsed: [ParsedCommand] = []
    while let word = words.popFirst() {
      guard let parse = parsers[word.lowercased()] else {
        // The words up to the next command belong to this mistake: one error, not one per word.
        var unknown = [word]
        while let next = words.first, !isCommand(next) { unknown.append(words.removeFirst()) }
        let more = unknown.count == 1 ? "" : " (and the \(unknown.count == 2 ? "word" : "\(unknown.count - 1) words") after it)"
        let names = grammar.map(\.name).joined(separator: ", ")
        parsed.append(
          ParsedCommand(words: unknown, result: .failure(InputError("unknown command \(quoted(word))\(more); commands: \(names)"))))
        continue
      }
      let argument = words.first.flatMap { isCommand($0) ? nil : words.removeFirst() }
      parsed.append(ParsedCommand(words: [word] + (argument.map { [$0] } ?? []), result: parse(argument)))
    }
    return parsed
  }

  private static func isCommand(_ word: Substring) -> Bool { parsers[word.lowercased()] != nil }

  private typealias Parser = @Sendable (Substring?) -> Result<Command, InputError>

  private static let parsers: [String: Parser] = [
    "inc": { counter("inc", $0).map(Command.increment) },
    "dec": { counter("dec", $0).map(Command.decrement) },
    "reset": { counter("reset", $0).map(Command.reset) },
    "add": { noArgument("add", $0, .add) },
    "remove": { argument in
      let usage = "use 'remove ID', e.g. 'remove 1'"
      guard let argument else { return .failure(InputError("remove: which counter? \(usage)")) }
      return id("remove", argument, usage: usage).map { Command.remove(id: $0) }
    },
    "timer": { argument in
      guard let argument else { return .failure(InputError("timer: on or off? use 'timer on' or 'timer off'")) }
      switch argument.lowercased() {
      case "on": return .success(.timer(on: true))
      case "off": return .success(.timer(on: false))
      default: return .failure(InputError("timer: expected 'on' or 'off', got \(quoted(argument))"))
      }
    },
    "fact": { argument in
      guard let argument else { return .success(.fact(nil)) }
      guard let number = Int(argument), number.magnitude <= maxFactNumber else {
        return .failure(
          InputError("fact: \(quoted(argument)) is not a whole number from -10^12 to 10^12; use 'fact' for the counter's value or 'fact N'"))
      }
      return .success(.fact(number))
    },
    "wait": { argument in
      guard let argument else { return .success(.wait(seconds: 1)) }
      guard let seconds = Int(argument), (1...maxWait).contains(seconds) else {
        return .failure(InputError("wait: \(quoted(argument)) is not a number of seconds from 1 to \(maxWait); use 'wait' or 'wait 3'"))
      }
      return .success(.wait(seconds: seconds))
    },
    "undo": { noArgument("undo", $0, .undo) },
    "redo": { noArgument("redo", $0, .redo) },
    "show": { noArgument("show", $0, .show) },
    "help": { noArgument("help", $0, .help) },
    "quit": { noArgument("quit", $0, .quit) },
  ]

  /// An optional counter id: none means the standalone counter.
  private static func counter(_ name: String, _ argument: Substring?) -> Result<Int?, InputError> {
    guard let argument else { return .success(nil) }
    return id(name, argument, usage: "use '\(name)' for the counter or '\(name) ID' for list counter #ID").map { $0 }
  }

  private static func id(_ name: String, _ argument: Substring, usage: String) -> Result<Int, InputError> {
    guard let id = Int(argument) else {
      return .failure(InputError("\(name): \(quoted(argument)) is not a counter id; \(usage)"))
    }
    return .success(id)
  }

  private static func noArgument(_ name: String, _ argument: Substring?, _ command: Command) -> Result<Command, InputError> {
    guard let argument else { return .success(command) }
    return .failure(InputError("\(name) takes no argument, got \(quoted(argument))"))
  }

  /// A word from the input as it appears in messages: quoted, shortened, with control characters
  /// escaped, so that random bytes cannot garble the output or the terminal.
  static func quoted(_ word: Substring) -> String { "'\(printable(word))'" }

  /// `word` with control characters escaped and long words cut at 24 characters.
  static func printable(_ word: Substring) -> String {
    let limit = 24
    var text = ""
    for scalar in word.unicodeScalars.prefix(limit) {
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
        text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default:
        text.unicodeScalars.append(scalar)
      }
    }
    return word.unicodeScalars.count > limit ? text + "…" : text
  }
}

/// One command's words and what they parsed to.
struct ParsedCommand: Equatable, Sendable {
  /// The words, printable (see ``Command/printable(_:)``), separated by single spaces.
  let text: String
  /// The command, or what was wrong with the words.
  let result: Result<Command, InputError>

  init(words: [Substring], result: Result<Command, InputError>) {
    self.text = words.map(Command.printable).joined(separator: " ")
    self.result = result
  }
}

/// A one-line message saying what was wrong with some input and what is accepted instead.
struct InputError: Error, Equatable, Sendable {
  let message: String

  init(_ message: String) { self.message = message }
}
