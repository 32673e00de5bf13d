import ValueStore

/// Runs the commands of one session against the app's store and prints what they changed.
///
/// Scripted sessions echo each command (`> inc`) so that a transcript reads on its own; their
/// output depends only on their input. Interactive sessions print a prompt, and redraw parts that
/// change between commands (the timer) as soon as they change.
@MainActor
final class Session {
  let store: Store<AppState, AppFeature.Action>
  /// Undo points of the counters, taken before each command that changes them. The timer and
  /// the fact are not part of it (undo must not stop a running timer), nor the list's next id
  /// (ids are never reused). Undoing writes only what differs, so only those parts are redrawn.
  private let history: StateHistory<AppState, AppFeature.Action>
  private let renderer: Renderer
  private let timeline: any Timeline
  private let isInteractive: Bool
  private let style: Style
  private let write: @Sendable (String) -> Void
  /// Writes to the terminal without a newline (the prompt, redraws).
  private let emit: ([UInt8]) -> Void
  /// What is typed of the next line, as redrawn after the prompt, with the cursor in place (known
  /// when ``LineEditor`` edits).
  var typed: () -> [UInt8] = { [] }
  /// Whether the terminal's own line editor is in use (interactive, and not replaced by
  /// ``LineEditor``): it cuts long lines.
  var terminalEditsLines: Bool
  /// The redraw scheduled between commands, if any (tests await it).
  private(set) var scheduledRedraw: Task<Void, Never>?
  private var lineNumber = 0
  /// Whether the session waits for input: changes then come from effects and are drawn at once.
  private var isAtPrompt = false
  private var isRedrawScheduled = false

  /// A session whose effects run on `timeline`'s clock, writing lines with `write`.
  init(
    timeline: any Timeline, isInteractive: Bool, trace: Bool, style: Style,
    write: @escaping @Sendable (String) -> Void, emit: @escaping ([UInt8]) -> Void = { Terminal.emit(bytes: $0) }
  ) {
    let app = AppFeature(clock: timeline.clock)
    store = Store(initialState: AppState(), reducer: trace ? Self.tracing(app, style: style, write: write) : Reduce(app))
    history = StateHistory(store, parts: \.counter, \.list.counters, \.list.total)
    renderer = Renderer(store: store, style: style, write: write)
    self.timeline = timeline
    self.isInteractive = isInteractive
    self.style = style
    self.write = write
    self.emit = emit
    terminalEditsLines = isInteractive
    if isInteractive { renderer.onChange = { [weak self] in self?.redrawSoon() } }
  }

  /// Why a session stops.
  private enum Ending: String {
    case endOfInput = "end of input"
    case quit
  }

  /// Draws the screen, runs every line `nextLine` returns until it returns nil or a `quit`, then
  /// stops (see ``stop(_:)``).
  func run(_ nextLine: () async -> InputLine?) async {
    renderer.drawAll()
    var ending = Ending.endOfInput
    while true {
      if isInteractive { emit(Array(style.prompt.utf8)) }
      isAtPrompt = true
      let line = await nextLine()
      isAtPrompt = false
      guard let line else { break }
      lineNumber += 1
      guard await handle(line) else {
        ending = .quit
        break
      }
    }
    await stop(ending)
  }

  /// Runs one line; false if it asked to quit.
  private func handle(_ line: InputLine) async -> Bool {
    let text: String
    switch line {
    case let .tooLong(byteCount):
      report("line \(lineNumber) is \(byteCount) bytes long, over the limit of \(LineReader.maxLineBytes) bytes; it was ignored")
      return true
    case let .text(line, terminated):
      // Input ended after typing: the cursor is still on the typed text; output starts on a new line.
      if isInteractive && !terminated { write("") }
      // A terminal cuts a typed line at its limit and drops the rest: a line that long was cut.
      if terminalEditsLines && line.utf8.count >= LineReader.terminalLineBytes {
        report(
          "line \(lineNumber) reached the terminal's limit of \(LineReader.terminalLineBytes) bytes, so the "
            + "terminal cut it; it was ignored (pipe long input instead)")
        return true
      }
      text = line
    }
    let commands = Command.parse(text)
    for parsed in commands {
      // Interactively the user sees what they typed; echo only to tell several commands apart.
      if !isInteractive || commands.count > 1 { write("> \(parsed.text)") }
      switch parsed.result {
      case let .failure(error): report(error.message)
      case .success(.quit): return false
      case let .success(command): await execute(command)
      }
      renderer.flush()
    }
    return true
  }

  private func execute(_ command: Command) async {
    switch command {
    case let .increment(id): send(.increment, toCounter: id, command: "inc")
    case let .decrement(id): send(.decrement, toCounter: id, command: "dec")
    case let .reset(id): send(.reset, toCounter: id, command: "reset")
    case .add: send(.list(.add), undoable: true)
    case let .remove(id):
      if listHas(id, command: "remove") { send(.list(.remove(id: id)), undoable: true) }
    case let .timer(on): send(.timer(on ? .start : .stop))
    case let .fact(number): send(number.map { .fact(.request($0)) } ?? .factAboutCounter)
    case let .wait(seconds): await timeline.wait(.seconds(seconds))
    case .undo:
      if history.canUndo { history.undo() } else { report("undo: nothing to undo") }
    case .redo:
      if history.canRedo { history.redo() } else { report("redo: nothing to redo") }
    case .show: renderer.drawAll()
    case .help: write(Options.commandHelp)
    case .quit: break  // handled by `handle(_:)`
    }
  }

  /// Stops what would never finish, waits for the rest, and says which it did.
  private func stop(_ ending: Ending) async {
    let (timerIsOn, pendingFact) = store.withState { ($0.timer.isOn, $0.fact.pending) }
    var notes: [String] = []
    if timerIsOn { notes.append("stopping the timer") }
    if let pendingFact { notes.append("waiting for the fact about \(pendingFact)") }
    if isInteractive && ending == .endOfInput { write("") }  // ends the prompt's line
    write("-- \(ending.rawValue)" + (notes.isEmpty ? "" : ": " + notes.joined(separator: "; ")))
    if timerIsOn { send(.timer(.stop)) }
    await timeline.drain()
    renderer.flush()
  }

  private func send(_ action: CounterFeature.Action, toCounter id: Int?, command: String) {
    guard let id else { return send(.counter(action), undoable: true) }
    if listHas(id, command: command) { send(.list(.counters(.element(id: id, action: action))), undoable: true) }
  }

  /// Sends `action`; an undoable one records an undo point first.
  private func send(_ action: AppFeature.Action, undoable: Bool = false) {
    if undoable { history.record() }
    timeline.track(store.send(action))
  }

  /// Whether list counter #`id` exists; reports it if not.
  private func listHas(_ id: Int, command: String) -> Bool {
    let ids = store.withState { $0.list.counters.ids }
    guard !ids.contains(id) else { return true }
    let available = ids.isEmpty ? "the list is empty (add one with 'add')" : "the list has " + Renderer.describe(ids)
    report("\(command): there is no counter #\(id); \(available)")
    return false
  }

  private func report(_ message: String) {
    write("  " + style.error("error: \(message)"))
  }

  /// Redraws after changes made between commands by effects, once they are all made: the
  /// changed parts over the prompt's line, then the prompt and what is typed again.
  private func redrawSoon() {
    guard isAtPrompt, !isRedrawScheduled else { return }
    isRedrawScheduled = true
    scheduledRedraw = Task {
      isRedrawScheduled = false
      guard isAtPrompt else { return }
      emit(Array(Self.clearLine.utf8))
      renderer.flush()
      redrawPrompt()
    }
  }

  /// The prompt and what is typed, on the current line (after an edit an echo cannot show).
  func redrawPrompt() {
    emit(Array((Self.clearLine + style.prompt).utf8) + typed())
  }

  /// Back to the start of the line, erasing it.
  static let clearLine = "\r\u{1B}[K"

  /// `app`, printing each action and the state change it made, indented under the command.
  private static func tracing(
    _ app: AppFeature, style: Style, write: @escaping @Sendable (String) -> Void
  ) -> Reduce<AppState, AppFeature.Action> {
    app.printChanges { log in
      write(style.trace("  · " + log.replacing("\n", with: "\n    ")))
    }
  }
}
