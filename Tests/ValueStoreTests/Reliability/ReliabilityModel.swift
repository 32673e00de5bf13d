// The reference model of the randomized tests: plain values plus, for every observable value, the
// history of writes that made it. It knows nothing of extents, forks or slots; it encodes the
// contract (Design.md, section 3) in terms of *locations*:
//
// - A value's identity is its lineage: the value at a location, mutated in place or through a copy
//   that is then written back, keeps it (S5, S12, S13, T8, T9). Its history grows by one entry per
//   write; a copy shares the history up to the moment it was taken.
// - Writing value `v` where `u` was is "the same value, mutated" iff `u`'s history is a prefix of
//   `v`'s; then exactly the fields written since `u` changed (S13: "exactly the written fields").
//   Otherwise the location holds a different value (S6, S7, S9, S10, T6): every path through it
//   changed, even if the values are equal, and the location starts a new lineage.
// - Writing an equal value to a trivial or `Equatable` field is no write (S3); mutating a non-trivial
//   field in place (`title += ""`) is a write (Documentation/Store.md, "Declaring state": only trivial fields compare).
// - A write through a field holding observable state is a write of the parent (its copy-on-write
//   identity moves on), even when the child ends unchanged; only root replacements care.

/// What a write touched.
enum MField: Hashable, Sendable {
  case birth, count, title, name, structure, slot
}

/// Hands out unique tokens for one run (one per write and per new value).
final class MTokens {
  private var next = 0
  func make() -> Int {
    next += 1
    return next
  }
}

/// The writes that made a value, starting with its birth.
struct MHist: Equatable {
  struct Write: Equatable {
    let token: Int
    let field: MField
  }
  private(set) var writes: [Write]

  init(_ tokens: MTokens) { writes = [Write(token: tokens.make(), field: .birth)] }

  mutating func record(_ field: MField, _ tokens: MTokens) {
    writes.append(Write(token: tokens.make(), field: field))
  }

  /// Whether `later` is this value, possibly written since. Tokens are unique and each is made by
  /// one write of one value, so sharing the last token means sharing the whole prefix.
  func isAncestor(of later: MHist) -> Bool {
    later.writes.count >= writes.count && later.writes[writes.count - 1] == writes[writes.count - 1]
  }

  /// How a location changed from holding `self` to holding `after`: nil if it was replaced by a
  /// different value, else the fields written in between.
  func written(toReach after: MHist) -> Set<MField>? {
    guard isAncestor(of: after) else { return nil }
    return Set(after.writes[writes.count...].map(\.field))
  }

  /// Whether the location holding `self`, then `after`, changed `field` or its identity.
  func changed(_ field: MField, toReach after: MHist) -> Bool {
    written(toReach: after).map { $0.contains(field) } ?? true
  }
}

/// A child or a row: two observable fields.
struct MChild: Equatable {
  var id = 0
  var count = 0
  var title = ""
  var hist: MHist
  /// Not part of the contract: the library extent this value would have, then the extents it was
  /// forked from (see `ReliabilityExtentSimulation.swift`). Used only to recognise the situations
  /// of known bugs, never by the model's expectations.
  var extents: [Int]

  init(id: Int = 0, count: Int = 0, title: String = "", _ tokens: MTokens) {
    (self.id, self.count, self.title) = (id, count, title)
    hist = MHist(tokens)
    extents = [tokens.make()]
  }

  mutating func add(_ delta: Int, _ tokens: MTokens) {
    guard delta != 0 else { return }  // `count += 0` writes nothing (S3)
    count += delta
    hist.record(.count, tokens)
  }

  mutating func setTitle(_ value: String, _ tokens: MTokens) {
    guard value != title else { return }  // an equal value writes nothing (S3)
    title = value
    hist.record(.title, tokens)
  }

  mutating func appendTitle(_ suffix: String, _ tokens: MTokens) {
    title += suffix
    hist.record(.title, tokens)  // in-place mutation of a non-trivial field is a write
  }
}

enum MMode: Equatable {
  case idle
  case editing(MChild)
  case note(String)

  /// The case (0, 1, 2) and a plain payload: what tells two values apart besides the child.
  var plainPart: String {
    switch self {
    case .idle: "idle"
    case .editing: "editing"
    case let .note(text): "note(\(text))"
    }
  }

  var payload: MChild? {
    if case let .editing(child) = self { return child }
    return nil
  }
}

/// The identified collection: its structure (ids and order) has a history of its own.
struct MRows: Equatable {
  var rows: [MChild] = []
  var hist: MHist
  var extents: [Int]

  init(_ tokens: MTokens) {
    hist = MHist(tokens)
    extents = [tokens.make()]
  }

  var ids: [Int] { rows.map(\.id) }
  func index(_ id: Int) -> Int? { rows.firstIndex { $0.id == id } }
  subscript(id id: Int) -> MChild? { index(id).map { rows[$0] } }

  /// Applies a structural change; records it only if ids or order changed (T10: a sort that keeps
  /// the order, a move in place, are no change).
  mutating func restructure(_ tokens: MTokens, _ body: (inout [MChild]) -> Void) {
    let before = ids
    body(&rows)
    if ids != before { hist.record(.structure, tokens) }
  }
}

struct MState: Equatable {
  var count = 0
  var name = ""
  var child: MChild
  var optional: MChild?
  var mode = MMode.idle
  var rows: MRows
  var maybeMode: MMode?
  var hist: MHist
  var extents: [Int]

  init(_ tokens: MTokens) {
    child = MChild(tokens)
    rows = MRows(tokens)
    hist = MHist(tokens)
    extents = [tokens.make()]
  }
}

// MARK: - Writing a value into a location

// A value written into a location keeps its history: if it descends from what the location held,
// it is that value written back; otherwise the location now holds a different value, and copies of
// it written back later are write-backs of *that* value (S13 applies to them).

extension MChild {
  /// `self` as stored by a field setter: same history. (The library gives it an extent of its own,
  /// `_makeIdentityUnique`, and the slot cuts its lineage.)
  func assignedToField(_ tokens: MTokens) -> MChild {
    var result = self
    result.extents = [tokens.make()]
    return result
  }
}

extension MRows {
  func assignedToField(_ tokens: MTokens) -> MRows {
    var result = self
    result.extents = [tokens.make()]
    return result
  }
}
