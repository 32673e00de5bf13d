import Testing
import Observation
@testable import ValueStore

@Suite struct DebugTmpTests {
  @Test func b16() {
    let root = ObservedRoot(RelState())
    root.mutate { $0.rows = [Row(id: 2), Row(id: 3)] }
    var snapshot = root.currentValue
    snapshot.rows[id: 3]?.count -= 1
    let contains = Recorder()
    _ = withTracking { root.read { $0.rows.contains(id: 4) } } onChange: { contains.record($0); print("FIRED", $0) }
    print("A")
    root.mutate {
      $0 = snapshot
      print("B")
      $0.rows[id: 2]?.count -= 1
      print("C")
    }
    print("D", contains.count)
  }
}
