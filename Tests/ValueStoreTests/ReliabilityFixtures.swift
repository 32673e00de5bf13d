import Foundation
@testable import ValueStore

// The small app state the reliability suite drives: plain fields, a child, an optional child, an
// enum whose case carries a child, and an identified collection. Separate from the other suites'
// fixtures so that their changes cannot silently change what the randomized tests explore.

struct RelChild: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var count = 0
    var title = ""
  }
  var _$fields: Observed<Fields>

  init(count: Int = 0, title: String = "") { _$fields = Observed(Fields(count: count, title: title)) }

  mutating func reset() { self = RelChild() }
}

struct RelRow: ObservableState, Identifiable, Equatable, Sendable {
  struct Fields: Identifiable, Equatable, Sendable {
    var id: Int
    var count = 0
    var title = ""
  }
  var _$fields: Observed<Fields>

  init(id: Int, count: Int = 0, title: String = "") {
    _$fields = Observed(Fields(id: id, count: count, title: title))
  }
}

/// Conformed exactly as `ObservationIdentity.init(case:_:)` documents it (identity only).
enum RelMode: Equatable, Sendable, ObservationIdentifiable {
  case idle
  case editing(RelChild)

  var observationIdentity: ObservationIdentity {
    switch self {
    case .idle: ObservationIdentity(case: 0)
    case let .editing(child): ObservationIdentity(case: 1, child)
    }
  }

  mutating func _detach() {
    if case var .editing(child) = self {
      child._detach()
      self = .editing(child)
    }
  }

  var payload: RelChild? {
    if case let .editing(child) = self { return child }
    return nil
  }

  /// Mutates the payload in place the only way an enum allows: copy out, mutate, write back.
  mutating func modifyEditing(_ body: (inout RelChild) -> Void) {
    guard case var .editing(child) = self else { return }
    body(&child)
    self = .editing(child)
  }
}

struct RelState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var count = 0
    var name = ""
    var child = RelChild()
    var optional: RelChild?
    var mode = RelMode.idle
    var rows: IdentifiedArrayOf<RelRow> = []
  }
  var _$fields = Observed(Fields())

  var isEven: Bool { self.count.isMultiple(of: 2) }
}

/// Counts how many times an observer fired (thread-safe: observers fire on the mutating thread).
final class FireCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func tick() { lock.withLock { value += 1 } }
  var count: Int { lock.withLock { value } }
}
