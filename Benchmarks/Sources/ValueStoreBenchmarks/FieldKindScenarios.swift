import Observation
import ValueStore

/// Writes whose semantics the field's type decides (`Observed[field:]`): a non-trivial `Equatable`
/// field (its kind is the one not decided at compile time: the failed `ObservationIdentifiable`
/// lookup is made at run time), and a chain through observable children (each hop reconciles the
/// child's slot).
enum FieldKindScenarios {
  static let names = ["a", "b"]

  static var all: [Scenario] {
    [
      Scenario(
        name: "write String `=`, 0 observers",
        note: "`name = names[i & 1]`: a String field assigned a different value each time.",
        ours: Workload("ours.assign.string", setUp: { Counter() }) { state, n in
          for i in 0..<n {
            state.name = names[i & 1]
            blackHole(i)
          }
        },
        apple: Workload("apple.assign.string", setUp: { AppleCounter() }) { object, n in
          for i in 0..<n {
            object.name = names[i & 1]
            blackHole(i)
          }
        },
        plain: Workload("plain.assign.string", setUp: { PlainCounter() }) { plain, n in
          for i in 0..<n {
            plain.name = names[i & 1]
            blackHole(i)
          }
        }
      ),
      Scenario(
        name: "write `+=` 3 levels deep, 0 observers",
        note: "`outer.middle.counter.count += 1` through two observable children / objects / structs.",
        ours: Workload("ours.write.deep", setUp: { Outer() }) { state, n in
          for i in 0..<n {
            state.middle.counter.count += 1
            blackHole(i)
          }
        },
        apple: Workload("apple.write.deep", setUp: { AppleOuter() }) { object, n in
          for i in 0..<n {
            object.middle.counter.count += 1
            blackHole(i)
          }
        },
        plain: Workload("plain.write.deep", setUp: { PlainOuter() }) { plain, n in
          for i in 0..<n {
            plain.middle.counter.count += 1
            blackHole(i)
          }
        }
      ),
    ]
  }
}

struct Outer: ObservableState, Sendable {
  struct Fields: Sendable { var middle = Middle() }
  var _$fields = Observed(Fields())
}

struct Middle: ObservableState, Sendable {
  struct Fields: Sendable { var counter = Counter() }
  var _$fields = Observed(Fields())
}

@Observable
final class AppleOuter: @unchecked Sendable {
  var middle = AppleMiddle()
}

@Observable
final class AppleMiddle: @unchecked Sendable {
  var counter = AppleCounter()
}

struct PlainOuter {
  struct Middle { var counter = PlainCounter() }
  var middle = Middle()
}
