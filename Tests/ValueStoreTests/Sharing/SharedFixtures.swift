@testable import ValueStore

/// A state holding a shared count beside a field of its own: what the sharing tests hold in roots,
/// stores and each other.
struct SharedCounter: ObservableState, Equatable {
  struct Fields: Equatable { var title = "" }
  var _$fields = Observed(Fields())
  @Shared var count: Int
  init(_$fields: Observed<Fields>) { self._$fields = _$fields; _count = Shared(value: 0) }
  init(count: Shared<Int>) { _$fields = Observed(Fields()); _count = count }
}
