import Foundation
@testable import ValueStore

/// Counts the calls of an `onChange` and keeps what each was told.
final class Recorder: @unchecked Sendable {
  private let lock = NSLock()
  private var changes: [ObservationChange] = []

  func record(_ change: ObservationChange) { lock.withLock { changes.append(change) } }

  var count: Int { lock.withLock { changes.count } }
  var last: ObservationChange? { lock.withLock { changes.last } }
}

/// Tracks `apply` once and returns the recorder its `onChange` writes to.
func tracking<T>(_ apply: () -> T) -> Recorder {
  let recorder = Recorder()
  _ = withTracking(apply) { recorder.record($0) }
  return recorder
}

struct Child: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var count = 0
    var title = ""
  }
  var _$fields = Observed(Fields())

  mutating func reset() { self = Child() }
}

enum Mode: Equatable, Sendable, ObservationIdentifiable {
  case idle
  case editing(Child)
  /// A plain payload: its identity is opaque (`ObservationIdentity(caseOf:)`), compared by value.
  case note(String)

  var observationIdentity: ObservationIdentity {
    switch self {
    case .idle, .note: ObservationIdentity(caseOf: self)
    case let .editing(child): ObservationIdentity(caseOf: self, child)
    }
  }

  mutating func _detach() {
    if case var .editing(child) = self {
      child._detach()
      self = .editing(child)
    }
  }

  var payload: Child? {
    if case let .editing(child) = self { return child }
    return nil
  }

  /// Mutates the `editing` payload in place (copy out, mutate, write back: a fork the slot adopts).
  mutating func modifyEditing(_ body: (inout Child) -> Void) {
    guard case var .editing(child) = self else { return }
    body(&child)
    self = .editing(child)
  }
}

struct AppState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var count = 0
    var name = ""
    var child = Child()
    var a = Child()
    var b = Child()
    var optional: Child?
    var mode = Mode.idle
    var numbers: [Int] = []
  }
  var _$fields = Observed(Fields())

  var isEven: Bool { self.count.isMultiple(of: 2) }
}

extension Child {
  init(count: Int = 0, title: String = "") { _$fields = Observed(Fields(count: count, title: title)) }
}
