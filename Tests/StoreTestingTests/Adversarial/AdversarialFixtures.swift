import Foundation
import StoreTesting
import Testing
import ValueStore

/// A state that only counts the actions reduced: what `send` builds is checked on the log.
struct AdvTally: ObservableState, Equatable {
  struct Fields: Equatable { var count = 0 }
  var _$fields = Observed(Fields())
}

/// Records every action it reduces.
struct AdvRecorder<Action: Sendable>: Reducer {
  let log: LockIsolated<[Action]>
  func reduce(into state: inout AdvTally, action: Action) -> Effect<Action> {
    log.withValue { $0.append(action) }
    state.count += 1
    return .none
  }
}

@MainActor
func advStore<Action: Sendable>(_: Action.Type) -> (TestStore<AdvTally, Action>, LockIsolated<[Action]>) {
  let log = LockIsolated<[Action]>([])
  let store = TestStore(initialState: AdvTally()) { AdvRecorder<Action>(log: log) }
  return (store, log)
}

struct AdvEmptyError: Error, Equatable, Sendable {}
struct AdvOtherError: Error, Equatable, Sendable { var code = 7 }

final class AdvBox: Equatable, Sendable {
  let number: Int
  init(_ number: Int) { self.number = number }
  static func == (lhs: AdvBox, rhs: AdvBox) -> Bool { lhs.number == rhs.number }
}

class AdvAnimal: @unchecked Sendable, Equatable {
  let name: String
  init(name: String) { self.name = name }
  static func == (lhs: AdvAnimal, rhs: AdvAnimal) -> Bool { lhs.name == rhs.name && type(of: lhs) == type(of: rhs) }
}
final class AdvDog: AdvAnimal, @unchecked Sendable {}

/// A payload larger than an existential's inline buffer, holding references.
struct AdvBig: Equatable, Sendable {
  var a = "alpha-alpha-alpha-alpha-alpha"
  var b = "beta-beta-beta-beta-beta-beta"
  var c = [1, 2, 3]
  var d: AdvBox = AdvBox(1)
  var e = 42
  var f: String? = "f-f-f-f-f-f-f-f-f-f-f-f-f-f"
}
