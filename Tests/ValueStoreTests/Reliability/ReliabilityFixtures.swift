import Foundation
@testable import ValueStore

// The small app state the reliability suite drives: plain fields, a child, an optional child, an
// enum whose case carries a child (conformed exactly as `ObservationIdentity.init(case:_:)`
// documents it), and an identified collection. The value types are the other suites' fixtures.

struct RelState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var count = 0
    var name = ""
    var child = Child()
    var optional: Child?
    var mode = Mode.idle
    var rows: IdentifiedArrayOf<Row> = []
    /// An optional enum whose payload-less case is `case: 0`, like `nil` once was (issue 12); of an
    /// enum that does not conform to `ObservationIdentifiable`, observed by reflection.
    var maybeMode: ReflectedEnumTests.PlainMode?
  }
  var _$fields = Observed(Fields())

  var isEven: Bool { self.count.isMultiple(of: 2) }
}

extension RelState.Fields {
  /// A computed property of `Fields` reading a child's field: holders read it under key `.any`.
  var childCountViaFields: Int { child.count }
}

/// Counts how many times an observer fired (thread-safe: observers fire on the mutating thread).
final class FireCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func tick() { lock.withLock { value += 1 } }
  var count: Int { lock.withLock { value } }
}
