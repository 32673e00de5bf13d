#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The composition root: options, the mode, the clock, and where input comes from.

let options: Options
do {
  options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
  Terminal.emit("CounterDemo: \(error.message)\n", to: STDERR_FILENO)
  exit(2)
}

switch options.mode {
case .help:
  Terminal.emit(Options.usage + "\n")
case .version:
  Terminal.emit(Options.version + "\n")
case .run:
  // A reader that went away (`| head`) must not kill the demo mid-command.
  signal(SIGPIPE, SIG_IGN)
  let isInteractive = options.script == nil && Terminal.inputIsTerminal
  let session = Session(
    timeline: isInteractive ? RealTimeline() : VirtualTimeline(),
    isInteractive: isInteractive,
    trace: options.trace,
    style: Style(usesColor: Terminal.wantsColor),
    write: { Terminal.emit($0 + "\n") })
  if let script = options.script {
    var lines = script.split(separator: "\n", omittingEmptySubsequences: false).map { InputLine.text(String($0)) }[...]
    await session.run { lines.popFirst() }
  } else if isInteractive && RawMode.enter() {
    // The demo edits the line itself, so that a redraw between commands keeps what is typed.
    let reader = LineReader()
    let input = TerminalInput(
      read: { await reader.nextBytes() }, emit: { Terminal.emit($0) }, emitBytes: { Terminal.emit(bytes: $0) })
    session.typed = { input.drawn }
    session.terminalEditsLines = false
    input.redraw = { session.redrawPrompt() }
    await session.run { await input.next() }
  } else {
    let reader = LineReader()
    await session.run { await reader.next() }
  }
}
