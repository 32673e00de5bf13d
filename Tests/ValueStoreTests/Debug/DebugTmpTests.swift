import Testing
@testable import ValueStore

@Suite struct DebugTmpTests {
  @Test func rowCopy() {
    let root = ObservedRoot(WriteState())
    var copy = root.currentValue
    let recorder = Recorder()
    _ = withTracking { copy.rows.count } onChange: { recorder.record($0); print("FIRED", $0) }
    print("before write")
    root.mutate { $0.rows.swapAt(0, 1) }
    print("after write", recorder.count)
    copy.count += 1
  }
}
