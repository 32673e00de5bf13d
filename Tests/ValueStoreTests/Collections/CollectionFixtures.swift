@testable import ValueStore

struct Row: ObservableState, Identifiable, Equatable, Sendable {
  struct Fields: Identifiable, Equatable, Sendable {
    var id: Int
    var count = 0
    var title = ""
  }
  var _$fields: Observed<Fields>
}

struct ListState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row> = []
    var plain: [Row] = []
  }
  var _$fields = Observed(Fields())
}

extension Row {
  init(id: Int, count: Int = 0, title: String = "") {
    _$fields = Observed(Fields(id: id, count: count, title: title))
  }
}

extension ListState {
  init(rows: Int) {
    self.rows = IdentifiedArray(uniqueElements: (1...max(rows, 1)).prefix(rows).map { Row(id: $0) })
    self.plain = (1...max(rows, 1)).prefix(rows).map { Row(id: $0) }
  }
}
