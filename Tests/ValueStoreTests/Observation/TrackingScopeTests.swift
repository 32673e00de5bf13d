import Testing
@testable import ValueStore

/// A tracking scope records a field once however often it is read among its last few reads (the
/// repeat is skipped at the read), and still registers and notifies every field read, whatever
/// the order of reads.
@Suite struct TrackingScopeTests {
  /// Registrations the observer made, per extent.
  private func registrations(_ observer: Observer?) -> [Int] {
    withRegistry { _ in observer?.registrationCounts ?? [] }
  }

  @Test func aFieldReadManyTimesAmongFewOthersIsRecordedOnce() {
    let child = Child()
    let scope = TrackingScope()
    let context = ThreadContext.current
    let outer = context.scope
    context.scope = scope
    openTrackingScopes.add(1, ordering: .relaxed)
    for _ in 0..<100 { _ = child.count }
    _ = child.title
    _ = child.count
    openTrackingScopes.subtract(1, ordering: .relaxed)
    context.scope = outer
    // The 100 reads in a row are one record; the read after `title` may be skipped too.
    let keys = scope.accesses.map(\.key)
    #expect(Array(keys.prefix(2)) == [FieldKey.field(\Child.Fields.count), .field(\Child.Fields.title)])
    #expect(keys.count <= 3)
  }

  @Test func interleavedReadsRegisterEachFieldOnceAndHearEachChange() {
    let root = ObservedRoot(Child())
    let recorder = Recorder()
    let (_, observer) = track({
      for _ in 0..<3 {
        _ = root.count
        _ = root.count
        _ = root.title
      }
    }, onChange: { recorder.record($0) })
    #expect(registrations(observer) == [2])
    root.mutate { $0.title = "new" }
    #expect(recorder.count == 1)
    #expect(recorder.last?.contains(\Child.Fields.title) == true)
  }

  @MainActor @Test func aRepeatedReadThroughAStoreIsTrackedLikeTheFirst() {
    let store = Store(initialState: Child()) {
      Reduce<Child, Bool> { state, countChanges in
        if countChanges { state.count += 1 } else { state.title += "!" }
        return .none
      }
    }
    let recorder = Recorder()
    let (_, observer) = track({ for _ in 0..<10 { _ = store.count } }, onChange: { recorder.record($0) })
    #expect(registrations(observer) == [1])
    store.send(false)
    #expect(recorder.count == 0)
    store.send(true)
    #expect(recorder.count == 1)
  }
}
