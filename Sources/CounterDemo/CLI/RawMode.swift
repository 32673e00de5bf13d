#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal without its line editor and echo, for ``LineEditor``: bytes reach the demo as they
/// are typed. Signals still work (Ctrl-C, Ctrl-Z). The terminal's settings come back at exit,
/// on a signal that ends the demo, and while it is stopped (Ctrl-Z).
enum RawMode {
  /// Turns the terminal's line editor off; false (and nothing changed) if it cannot.
  static func enter() -> Bool {
    var settings = termios()
    guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return false }
    saved = settings
    settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &settings.c_cc) { controls in
      controls[Int(VMIN)] = 1
      controls[Int(VTIME)] = 0
    }
    raw = settings
    guard tcsetattr(STDIN_FILENO, TCSANOW, &settings) == 0 else { return false }
    atexit { RawMode.leave() }
    for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      signal(signalNumber) { number in
        RawMode.leave()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
    signal(SIGTSTP, stopped)
    signal(SIGCONT) { _ in RawMode.resume() }
    return true
  }

  /// The terminal's own settings again (async-signal-safe).
  static func leave() {
    guard var settings = saved else { return }
    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
  }

  /// Back from a stop (Ctrl-Z, then `fg`): the line editor off again.
  private static func resume() {
    guard var settings = raw else { return }
    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    signal(SIGTSTP, stopped)
  }

  // Written once, before any signal handler is installed; read by the handlers.
  nonisolated(unsafe) private static var saved: termios?
  nonisolated(unsafe) private static var raw: termios?
}

/// Ctrl-Z: the terminal's settings back, then stopped as usual (`fg` resumes, see `resume`).
private func stopped(_: Int32) {
  RawMode.leave()
  signal(SIGTSTP, SIG_DFL)
  raise(SIGTSTP)
}
