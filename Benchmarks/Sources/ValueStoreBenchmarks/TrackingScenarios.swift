import Observation
import ValueStore

/// The cost of a tracking call that registers interest and never fires, by the number of fields
/// it reads, and with registrations piling up on a long-lived value.
///
/// Neither side can cancel a one-shot observer that never fires: its registrations stay until
/// the observed value (or object) dies. So every operation here tracks a value that is then
/// dropped, and its number includes making it and tearing it down with its registrations, on
/// both sides alike. Tracking one value for ever would measure an ever-growing registration table.
enum TrackingScenarios {
  static var all: [Scenario] {
    [1, 10, 100].map { fields in
      Scenario(
        name: "tracking call, \(fields) field\(fields == 1 ? "" : "s")",
        note: """
          withTracking / withObservationTracking reading \(fields) distinct field(s) of a value \
          made for the call, then dropping it; nothing fires.
          """,
        ours: Workload("ours.track.\(fields)") { n in
          for _ in 0..<n {
            let wide = Wide()
            withTracking { blackHole(wide.sum(ofFirst: fields)) } onChange: { _ in }
          }
        },
        apple: Workload("apple.track.\(fields)") { n in
          for _ in 0..<n {
            let wide = AppleWide()
            withObservationTracking { blackHole(wide.sum(ofFirst: fields)) } onChange: {}
          }
        })
    } + [
      Scenario(
        name: "tracking call, 10 fields, 100 per value",
        note: """
          As "tracking call, 10 fields", but each value is tracked by 100 calls before it is \
          dropped: registrations of observers that never fired pile up to 1,000 on it.
          """,
        ours: Workload("ours.track.10.pileup") { n in
          var wide = Wide()
          for i in 0..<n {
            if i % 100 == 0 { wide = Wide() }
            withTracking { blackHole(wide.sum(ofFirst: 10)) } onChange: { _ in }
          }
        },
        apple: Workload("apple.track.10.pileup") { n in
          var wide = AppleWide()
          for i in 0..<n {
            if i % 100 == 0 { wide = AppleWide() }
            withObservationTracking { blackHole(wide.sum(ofFirst: 10)) } onChange: {}
          }
        }),
    ]
  }
}
