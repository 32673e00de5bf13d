import Observation
import ValueStore

/// `IdentifiedArray` on a bare value, nobody observing: the container's own cost.
///
/// Apple's column is an @Observable object holding `[AppleRow]` and indexes by offset (it has no
/// lookup by id); the plain column is a `ContiguousArray` plus an id → offset dictionary, which is
/// what an identified array is without observation.
enum CollectionScenarios {
  static var all: [Scenario] {
    StoreScenarios.rowCounts.map { rows in
      Scenario(
        name: "rows[id:] mutation, \(StoreScenarios.rowsLabel(rows)) rows",
        note: """
          `rows[id: i % \(rows)]?.count += 1` on a bare IdentifiedArrayOf<Row> / \
          `model.rows[i].count += 1` / `rows[offsets[id]!].count += 1`, visiting every row in turn.
          """,
        ours: Workload("ours.rows.mutate.\(rows)", setUp: { identifiedRows(rows) }) { state, n in
          for i in 0..<n {
            state[id: i % rows]?.count += 1
            blackHole(i)
          }
        },
        apple: Workload("apple.rows.mutate.\(rows)", setUp: { AppleRows(count: rows) }) { model, n in
          for i in 0..<n {
            model.rows[i % rows].count += 1
            blackHole(i)
          }
        },
        plain: Workload("plain.rows.mutate.\(rows)", setUp: { PlainRows(count: rows) }) { plain, n in
          for i in 0..<n {
            plain.rows[plain.offsets[i % rows]!].count += 1
            blackHole(i)
          }
        })
    } + [
      Scenario(
        name: "rows[id:] lookup, 10k rows",
        note: """
          `rows[id: i % 10000]?.count` (a copy of the row, then its field) / \
          `model.rows[i].count` / `rows[offsets[id]!].count`.
          """,
        ours: Workload("ours.rows.lookup.10000", setUp: { identifiedRows(10_000) }) { state, n in
          for i in 0..<n { blackHole(state[id: i % 10_000]?.count) }
        },
        apple: Workload("apple.rows.lookup.10000", setUp: { AppleRows(count: 10_000) }) { model, n in
          for i in 0..<n { blackHole(model.rows[i % 10_000].count) }
        },
        plain: Workload("plain.rows.lookup.10000", setUp: { PlainRows(count: 10_000) }) { plain, n in
          for i in 0..<n { blackHole(plain.rows[plain.offsets[i % 10_000]!].count) }
        }),
      Scenario(
        name: "append, amortized",
        note: """
          `rows.append(Row(id: i))` to an IdentifiedArrayOf<Row> that starts empty (making the row \
          allocates its extent) / `model.rows.append(AppleRow(id: i))` / `rows.append(row)` plus \
          `offsets[i] = offset`. Growth (reallocation, rehashing) is included.
          """,
        ours: Workload("ours.rows.append", setUp: { IdentifiedArrayOf<Row>() }) { state, n in
          for i in 0..<n { state.append(Row(id: i)) }
        },
        apple: appleAppend,
        plain: plainAppend
      ),
      Scenario(
        name: "append, amortized, plain elements",
        note: """
          As above with elements that are not observable (`AppleRow`, an Identifiable struct): the \
          identified array's structure bookkeeping without an extent per element.
          """,
        ours: Workload("ours.rows.append.plain", setUp: { IdentifiedArrayOf<AppleRow>() }) { state, n in
          for i in 0..<n { state.append(AppleRow(id: i)) }
        },
        apple: appleAppend,
        plain: plainAppend
      ),
    ]
  }

  private static func identifiedRows(_ count: Int) -> IdentifiedArrayOf<Row> {
    IdentifiedArray(uniqueElements: (0..<count).lazy.map(Row.init(id:)))
  }

  private static var appleAppend: Workload {
    Workload("apple.rows.append", setUp: { AppleRows(count: 0) }) { model, n in
      for i in 0..<n { model.rows.append(AppleRow(id: i)) }
    }
  }

  private static var plainAppend: Workload {
    Workload("plain.rows.append", setUp: { PlainRows(count: 0) }) { plain, n in
      for i in 0..<n {
        plain.offsets[i] = plain.rows.count
        plain.rows.append(AppleRow(id: i))
      }
    }
  }
}

extension AppleRow: Identifiable {}
