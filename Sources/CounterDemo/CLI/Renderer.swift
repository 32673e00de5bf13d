import ValueStore

/// Draws the demo's screen: each part is the text of one observer of the store.
///
/// The counter, the timer, the fact, the list's ids and the total are each drawn by an observer of
/// a child store; each list counter by an observer of its element store. An observer reads only
/// the fields its text shows, so it runs again only when one of them changed: the part is then
/// marked changed, and ``flush()`` prints the changed parts in screen order as `↻ part: text`.
/// `inc 2` therefore redraws `counter #2` and `total`, and nothing else.
@MainActor
final class Renderer {
  /// A part of the screen. The order of the cases is the order on screen; list counters follow
  /// each other by id, which is their order in the list (ids only grow, counters are appended).
  enum Part: Hashable, Comparable {
    case counter, timer, fact, list
    case row(id: Int)
    case total
  }

  /// Called after a part changed, so that an interactive session can redraw between commands.
  var onChange: (() -> Void)?

  private let store: Store<AppState, AppFeature.Action>
  private let style: Style
  private let write: @Sendable (String) -> Void
  /// The current text of every part.
  private var screen: [Part: String] = [:]
  /// The parts changed since the last ``flush()``.
  private var changed: Set<Part> = []
  private var tokens: [ObservationToken] = []
  private var rowTokens: [Int: ObservationToken] = [:]
  /// The list's ids when its rows were last observed.
  private var rowIDs: ContiguousArray<Int> = []

  /// Starts observing `store`; ``drawAll()`` then prints the first screen.
  init(store: Store<AppState, AppFeature.Action>, style: Style, write: @escaping @Sendable (String) -> Void) {
    self.store = store
    self.style = style
    self.write = write
    observeParts()
  }

  /// Prints the parts that changed since the last call, marked `↻`.
  func flush() {
    for part in changed.sorted() { write("  \(style.redrawMark) \(screen[part]!)") }
    changed = []
  }

  /// Prints the whole screen.
  func drawAll() {
    for part in screen.keys.sorted() { write("  \(screen[part]!)") }
    changed = []
  }

  private func observeParts() {
    let counter = store.scope(state: \.counter, action: AppFeature.Action.counter)
    let timer = store.scope(state: \.timer, action: AppFeature.Action.timer)
    let fact = store.scope(state: \.fact, action: AppFeature.Action.fact)
    let list = store.scope(state: \.list, action: AppFeature.Action.list)

    observe(.counter, counter) { "counter: \($0.count)" }
    observe(.timer, timer) { "timer: \($0.isOn ? "on" : "off"), \($0.seconds)s" }
    observe(.fact, fact) { fact in
      if let number = fact.pending { return "fact: working out a fact about \(number)…" }
      return "fact: \(fact.fact ?? "none yet (try 'fact')")"
    }
    observe(.total, list) { "total: \($0.total)" }
    // Made once: a key path through an observable state's `Fields` costs microseconds to make
    // (the runtime resolves its generic member by name), and this closure runs on every change.
    let counters: KeyPath<CounterListState, IdentifiedArrayOf<Counter>> = \.counters
    tokens.append(
      list.observe { [weak self] in
        // Reads the list's structure (ids, order, count) and nothing inside its counters.
        let rows = list.scope(state: counters, action: CounterListFeature.Action.counters)
        // Starting and stopping row observers must not add their reads to this observer.
        untracked { self?.observeRows(rows) }
      })
  }

  private func observe<State, Action>(
    _ part: Part, _ store: Store<State, Action>, text: @escaping @MainActor (Store<State, Action>) -> String
  ) {
    tokens.append(store.observe { [weak self] in self?.update(part, text(store)) })
  }

  /// Keeps one observer per list counter, and redraws the list's line. O(1) observers started
  /// per added counter (and an O(n) comparison of ids, without allocating), so n adds cost O(n).
  private func observeRows(_ rows: StoreCollection<Int, Counter, CounterFeature.Action>) {
    let ids = rows.ids
    let appendedOnly = ids.count >= rowIDs.count && ids.starts(with: rowIDs)
    if !appendedOnly {
      let present = Set(ids)
      for id in rowIDs where !present.contains(id) {
        rowTokens[id] = nil
        screen[.row(id: id)] = nil
        changed.remove(.row(id: id))
      }
    }
    for id in ids[(appendedOnly ? rowIDs.count : 0)...] where rowTokens[id] == nil {
      guard let row = rows[id: id] else { continue }
      rowTokens[id] = row.observe { [weak self] in
        // A removed counter's store still reads its last state; the list drops its part.
        guard untracked({ row.hasState }) else { return }
        self?.update(.row(id: id), "counter #\(id): \(row.count)")
      }
    }
    rowIDs = ids
    update(.list, "list: " + Self.describe(ids))
  }

  /// The list's ids, the first and last few of a long list: a line of bounded length.
  static func describe(_ ids: ContiguousArray<Int>) -> String {
    guard !ids.isEmpty else { return "empty (try 'add')" }
    let names = { (ids: ArraySlice<Int>) in ids.map { "#\($0)" }.joined(separator: ", ") }
    guard ids.count > 8 else { return names(ids[...]) }
    return "\(names(ids.prefix(3))), … \(names(ids.suffix(3))) (\(ids.count) counters)"
  }

  private func update(_ part: Part, _ text: String) {
    screen[part] = text
    changed.insert(part)
    onChange?()
  }
}
