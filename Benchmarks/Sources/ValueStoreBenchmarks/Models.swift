import Observation
import ValueStore

// The same small state three ways. Every scenario that is not about width uses these. `name` is
// never written: it is there so that, as in real state, copying the fields retains something.

/// ValueStore: a struct observed field by field.
struct Counter: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var count = 0
    var name = ""
    var numbers: [Int] = []
  }
  var _$fields = Observed(Fields())
}

/// Apple's Observation: a class observed property by property.
///
/// `@unchecked Sendable`: `withObservationTracking`'s `onChange` is `@Sendable` and the re-arming
/// scenario captures the object in it. The benchmarks touch it from one thread only.
@Observable
final class AppleCounter: @unchecked Sendable {
  var count = 0
  var name = ""
  var numbers: [Int]

  init(numbers: [Int] = []) { self.numbers = numbers }
}

/// The floor: the same fields with no observation at all.
struct PlainCounter {
  var count = 0
  var name = ""
  var numbers: [Int] = []
}

extension Counter {
  init(numbers: [Int] = []) { _$fields = Observed(Fields(numbers: numbers)) }
}
