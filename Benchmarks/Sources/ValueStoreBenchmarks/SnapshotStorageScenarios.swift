import ValueStore

/// What keeping a snapshot costs an identified array (issue 34, item 3): each operation runs with
/// the array's previous value alive, as under an undo history or a `TestStore`, at 1k, 10k and
/// 100k rows. The plain column does the same to a plain array of rows with an id → offset
/// dictionary (which copies everything on each write with a copy alive). Also: iterating the rows
/// without a snapshot, the cost the chunked storage must not raise.
enum SnapshotStorageScenarios {
  static let sizes = [1_000, 10_000, 100_000]

  static var all: [Scenario] {
    [iteration] + sizes.flatMap { rows in [elementWrite(rows), append(rows), insertAndRemove(rows)] }
  }

  static func label(_ rows: Int) -> String { "\(rows / 1_000)k" }

  /// The operations measured with a snapshot alive, as the rows name them.
  static let kinds = ["element write", "append", "insert + remove"]

  static func name(_ kind: String, rows: Int) -> String { "\(kind) with a snapshot alive, \(label(rows)) rows" }

  static var iteration: Scenario {
    Scenario(
    name: "iterate 10k rows",
    note: "`for row in rows { sum += row.count }` on a bare IdentifiedArrayOf<Row> / a plain array.",
    ours: Workload("ours.rows.iterate.10000", setUp: { identifiedRows(10_000) }) { rows, n in
      for _ in 0..<n {
        var sum = 0
        for row in rows { sum &+= row.count }
        blackHole(sum)
      }
    },
    plain: Workload("plain.rows.iterate.10000", setUp: { PlainRows(count: 10_000) }) { plain, n in
      for _ in 0..<n {
        var sum = 0
        for row in plain.rows { sum &+= row.count }
        blackHole(sum)
      }
    })
  }

  static func elementWrite(_ rows: Int) -> Scenario {
    withSnapshot(
      "element write", key: "write", rows: rows,
      note: "`kept = rows; rows[id: i % \(rows)]?.count += 1`: each write with the previous value alive.",
      ours: { rows, i in rows[id: i % rows.count]?.count += 1 },
      plain: { plain, i in plain.rows[plain.offsets[i % plain.rows.count]!].count += 1 })
  }

  static func append(_ rows: Int) -> Scenario {
    withSnapshot(
      "append", key: "append", rows: rows,
      note: "`kept = rows; rows.append(row)` from \(rows) rows: each append with the previous value alive.",
      ours: { state, i in state.append(Row(id: rows + i)) },
      plain: { plain, i in
        plain.offsets[rows + i] = plain.rows.count
        plain.rows.append(AppleRow(id: rows + i))
      })
  }

  static func insertAndRemove(_ rows: Int) -> Scenario {
    withSnapshot(
      "insert + remove", key: "insertRemove", rows: rows,
      note: """
        `kept = rows; rows.insert(row, at: \(rows / 2))` on even operations, `rows.remove(id:)` of it \
        on odd ones, each with the previous value alive (the ids after the middle move).
        """,
      ours: { state, i in
        if i.isMultiple(of: 2) { state.insert(Row(id: -1), at: rows / 2) } else { state.remove(id: -1) }
      },
      plain: nil)
  }

  /// Runs `ours` (and `plain`) once per operation `i`, each time with the previous value alive.
  private static func withSnapshot(
    _ kind: String, key: String, rows: Int, note: String, ours: @escaping (inout IdentifiedArrayOf<Row>, Int) -> Void,
    plain: ((inout PlainRows, Int) -> Void)?
  ) -> Scenario {
    Scenario(
      name: name(kind, rows: rows), note: note,
      ours: Workload("ours.snapshot.\(key).\(rows)", setUp: { Kept(identifiedRows(rows)) }) { state, n in
        for i in 0..<n {
          state.keep()
          ours(&state.value, i)
        }
      },
      plain: plain.map { plain in
        Workload("plain.snapshot.\(key).\(rows)", setUp: { Kept(PlainRows(count: rows)) }) { state, n in
          for i in 0..<n {
            state.keep()
            plain(&state.value, i)
          }
        }
      })
  }

  private static func identifiedRows(_ count: Int) -> IdentifiedArrayOf<Row> {
    IdentifiedArray(uniqueElements: (0..<count).lazy.map(Row.init(id:)))
  }
}

/// A value and its previous version, kept alive while the value is written.
private struct Kept<Value> {
  var value: Value
  var previous: Value

  init(_ value: Value) {
    self.value = value
    previous = value
  }

  mutating func keep() { previous = value }
}
