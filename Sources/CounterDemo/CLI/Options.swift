/// What the command line asks for.
struct Options: Equatable {
  enum Mode: Equatable {
    case run
    case help
    case version
  }

  static let version = "CounterDemo 1.0.0 (ValueStore demo)"

  var mode = Mode.run
  /// Commands to run instead of reading standard input.
  var script: String?
  /// Print every action and the state change it made.
  var trace = false

  /// Parses the arguments after the program name.
  ///
  /// ```swift
  /// try Options(["--trace", "--script", "inc inc"])  // trace: true, script: "inc inc"
  /// ```
  init(_ arguments: [String]) throws(InputError) {
    var arguments = arguments[...]
    while let argument = arguments.popFirst() {
      switch argument {
      case "-h", "--help": mode = .help
      case "--version": mode = .version
      case "--trace": trace = true
      case "--script":
        guard let script = arguments.popFirst() else {
          throw InputError("--script needs the commands to run, e.g. --script \"inc inc fact\"")
        }
        self.script = script
      case _ where argument.hasPrefix("--script="):
        script = String(argument.dropFirst("--script=".count))
      default:
        throw InputError("unknown option \(Command.quoted(argument[...])); see --help")
      }
    }
  }

  /// `--help`'s text.
  static let usage = """
    \(version)
    A counter, a timer, number facts and a list of counters, run as reducers over observed
    state. After each command, only the parts of the screen whose state changed are redrawn,
    marked ↻.

    usage: CounterDemo [--trace] [--script "COMMANDS"]
           CounterDemo --help | --version

      --script "…"  run these commands instead of reading standard input
      --trace       print every action and the state change it made, as a diff
      --help        print this help; --version prints the version

    \(commandHelp)
    """

  /// The `help` command's text: the commands, and how time and the end of input work.
  static let commandHelp: String = {
    let width = Command.grammar.map(\.usage.count).max()!
    let commands = Command.grammar.map { command in
      "  " + command.usage.padding(toLength: width + 2) + command.summary
    }
    return """
      Commands (several may share a line; an argument follows its command):
      \(commands.joined(separator: "\n"))

      A bad command prints one error line and changes nothing; the commands after it still run.
      Lines longer than \(LineReader.maxLineBytes) bytes are ignored with an error. At a terminal the demo edits the line
      itself, as a shell does (Left, Right, Home, End, Delete, backspace, Ctrl-U, Ctrl-W; Ctrl-D on
      an empty line ends the input), so what you type stays on screen when the timer redraws. Where
      it cannot, the terminal's own editor cuts what is typed at \(LineReader.terminalLineBytes) bytes; a line it cut is ignored
      with an error too (pipe long input instead).

      Time: when standard input is a terminal, the session is interactive and time is real.
      Otherwise (piped input, or --script) the session is scripted and time is virtual: it stands
      still except during 'wait', so 'timer on' then 'wait 3' ticks exactly 3 times and every run
      prints the same transcript.

      End of input (or 'quit'): a running timer is stopped, since it would never finish; a pending
      fact is waited for and shown. The demo then exits with status 0.
      """
  }()
}

extension String {
  fileprivate func padding(toLength length: Int) -> String {
    self + String(repeating: " ", count: max(0, length - count))
  }
}
