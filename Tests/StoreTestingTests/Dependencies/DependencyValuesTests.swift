import Foundation
import StoreTesting
import Testing
import ValueStore

/// swift-dependencies' `DependencyValuesTests`, case by case (same names), on this API. Outside
/// any `TestStore`, a test runs in the test context.
@Suite(.timeLimit(.minutes(1))) struct DependencyValuesTests {
  @Test func testMissingLiveValue() async {
    let issues = await recordIssues {
      withDependencies { $0.context = .live } operation: {
        @Dependency(\.missingLiveDependency) var missingLiveDependency: Int
        #expect(missingLiveDependency == 42)  // the test value, reported
      }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.contains("TestOnlyKey has no live value") == true, "\(issues)")
  }

  @Test func testMissingLiveValue_Type() async {
    let issues = await recordIssues {
      withDependencies { $0.context = .live } operation: {
        @Dependency(TestOnlyKey.self) var missingLiveDependency: Int
        _ = missingLiveDependency
      }
    }
    #expect(issues.map(\.message).contains { $0.contains("has no live value, but was used in a live context") })
  }

  @Test func testWithValues() {
    let date = withDependencies { $0.date = .constant(someDate) } operation: { () -> Date in
      @Dependency(\.date) var date
      return date.now
    }
    let defaultDate = withDependencies { $0.context = .live } operation: { () -> Date in
      @Dependency(\.date) var date
      return date.now
    }
    #expect(date == someDate)
    #expect(defaultDate != someDate)
  }

  @Test func testWithValue() {
    withDependencies { $0.context = .live } operation: {
      let date = withDependencies { $0.date = .constant(someDate) } operation: { () -> Date in
        @Dependency(\.date) var date
        return date.now
      }
      #expect(date == someDate)
      #expect(DependencyValues.current.date.now != someDate)
    }
  }

  @Test func testSetDependencyAcrossMultipleLines() {
    withDependencies {
      $0.date = .constant(someDate)
      $0.date = .constant(someDate.addingTimeInterval(10))
    } operation: {
      @Dependency(\.date) var date
      #expect(date.now == someDate.addingTimeInterval(10))
    }
  }

  @Test func testOptionalDependency() {
    for value in [nil, ""] as [String?] {
      withDependencies { $0.optionalDependency = value } operation: {
        @Dependency(\.optionalDependency) var optionalDependency: String?
        #expect(optionalDependency == value)
      }
    }
  }

  @Test func testOptionalDependencyLive() {
    withDependencies { $0.context = .live } operation: {
      @Dependency(\.optionalDependency) var optionalDependency: String?
      #expect(optionalDependency == "live")
    }
    withDependencies {
      $0.context = .live
      $0.optionalDependency = nil
    } operation: {
      @Dependency(\.optionalDependency) var optionalDependency: String?
      #expect(optionalDependency == nil)
    }
  }

  /// Outside any test store, an unimplemented test value fails the running test.
  @Test func testOptionalDependencyUndefined() async {
    #expect(DependencyValues.current.context == .test)
    let line = #line + 2
    let issues = await recordIssues {
      @Dependency(\.optionalDependency) var optionalDependency: String?
      #expect(optionalDependency == nil)
    }
    #expect(issues.count == 1)
    #expect(issues.first?.line == line, "the failure points at the @Dependency used")
    #expect(issues.first?.message.contains(#"Unimplemented: @Dependency(\.optionalDependency) …"#) == true, "\(issues)")
  }

  @Test func testDependencyDefaultIsReused() {
    withDependencies { $0 = DependencyValues() } operation: {
      withDependencies { $0.context = .test } operation: {
        @Dependency(\.reuseClient) var reuseClient: ReuseClient
        #expect(reuseClient.count() == 0)
        reuseClient.setCount(42)
        #expect(reuseClient.count() == 42)
      }
    }
  }

  @Test func testDependencyDefaultIsReused_SegmentedByContext() async {
    let issues = await recordIssues {
      withDependencies { $0 = DependencyValues() } operation: {
        withDependencies { $0.context = .test } operation: {
          @Dependency(\.reuseClient) var reuseClient: ReuseClient
          #expect(reuseClient.count() == 0)
          reuseClient.setCount(42)
          #expect(reuseClient.count() == 42)

          withDependencies { $0.context = .preview } operation: {
            #expect(reuseClient.count() == 0)
            reuseClient.setCount(1729)
            #expect(reuseClient.count() == 1729)
          }
          #expect(reuseClient.count() == 42)

          withDependencies { $0.context = .live } operation: {
            #expect(reuseClient.count() == 0)  // no live value: reported, and cached
            reuseClient.setCount(-42)
            #expect(reuseClient.count() == -42)
          }
          #expect(reuseClient.count() == 42)
        }
      }
    }
    #expect(!issues.isEmpty && issues.allSatisfy { $0.message.contains("ReuseClient has no live value") }, "\(issues)")
  }

  @Test func testUpdatingTestDependencyFromLiveContext_WhenUpdatingDependencies() async {
    @Dependency(\.reuseClient) var reuseClient: ReuseClient
    let issues = await recordIssues {
      withDependencies { $0.context = .live } operation: {
        withDependencies {
          $0.reuseClient.setCount(42)  // not a use: not reported
          #expect($0.reuseClient.count() == 42)
        } operation: {
          #expect(reuseClient.count() == 42)  // a use: reported
        }
      }
    }
    #expect(issues.count == 1, "\(issues)")
    #expect(reuseClient.count() == 0)  // the test context's own value
  }

  @Test func testBinding() {
    withDependencies { $0.context = .test } operation: {
      @Dependency(\.childDependencyEarlyBinding) var childDependencyEarlyBinding: ChildDependencyEarlyBinding
      @Dependency(\.childDependencyLateBinding) var childDependencyLateBinding: ChildDependencyLateBinding

      #expect(childDependencyEarlyBinding.fetch() == 42)
      #expect(childDependencyLateBinding.fetch() == 42)

      withDependencies { $0.someDependency.fetch = { 1729 } } operation: {
        #expect(childDependencyEarlyBinding.fetch() == 1729)
        #expect(childDependencyLateBinding.fetch() == 1729)
      }

      var childDependencyEarlyBindingEscaped: ChildDependencyEarlyBinding!
      var childDependencyLateBindingEscaped: ChildDependencyLateBinding!
      withDependencies { $0.someDependency.fetch = { 999 } } operation: {
        @Dependency(\.childDependencyEarlyBinding) var childDependencyEarlyBinding2: ChildDependencyEarlyBinding
        @Dependency(\.childDependencyLateBinding) var childDependencyLateBinding2: ChildDependencyLateBinding
        childDependencyEarlyBindingEscaped = childDependencyEarlyBinding
        childDependencyLateBindingEscaped = childDependencyLateBinding
        #expect(childDependencyEarlyBinding2.fetch() == 999)
        #expect(childDependencyLateBinding2.fetch() == 999)
      }
      #expect(childDependencyEarlyBindingEscaped.fetch() == 42)
      #expect(childDependencyLateBindingEscaped.fetch() == 42)

      withDependencies { $0.someDependency.fetch = { 1_000 } } operation: {
        #expect(childDependencyEarlyBindingEscaped.fetch() == 1_000)
        #expect(childDependencyLateBindingEscaped.fetch() == 1_000)
      }
    }
  }

  @Test func testWithTestValues() {
    final class FeatureModel {
      @Dependency(\.fullDependency) var fullDependency
    }
    let model = FeatureModel()
    #expect(model.fullDependency.value == 3)
    withDependencies { $0.context = .preview } operation: { #expect(model.fullDependency.value == 2) }
    withDependencies { $0.context = .live } operation: { #expect(model.fullDependency.value == 1) }
    withDependencies { $0.fullDependency.value = -1 } operation: { #expect(model.fullDependency.value == -1) }
  }

  @Test func testNestedWithTestValues() {
    withDependencies { $0.date.now = someDate } operation: {
      withDependencies { $0.uuid = .incrementing } operation: {
        #expect(DependencyValues.current.date.now == someDate)
        #expect(DependencyValues.current.uuid() == UUID(0))
        #expect(DependencyValues.current.context == .test)
      }
    }
  }

  @Test func testNestedWithTestValues_Async() async throws {
    try await withDependencies { $0.date.now = someDate } operation: {
      try await withDependencies { $0.uuid = .incrementing } operation: {
        #expect(DependencyValues.current.date.now == someDate)
        #expect(DependencyValues.current.uuid() == UUID(0))
        #expect(DependencyValues.current.context == .test)
        try await Task.sleep(nanoseconds: 0)
      }
    }
  }

  @Test func testTaskPropagation() async {
    let task = withDependencies { $0.date.now = someDate } operation: { () -> Task<Void, Never> in
      @Dependency(\.date.now) var now: Date
      #expect(now == someDate)
      return Task {
        #expect(now == someDate)
        @Dependency(\.date.now) var now: Date
        #expect(now == someDate)
      }
    }
    await task.value
  }

  @Test func testTaskGroupPropagation() async {
    let value = await withDependencies { $0.fullDependency.value = 42 } operation: {
      await withTaskGroup(of: Int.self, returning: Int?.self) { group in
        group.addTask {
          @Dependency(\.fullDependency.value) var value: Int
          #expect(DependencyValues.current.fullDependency.value == 42)
          return value
        }
        return await group.next()
      }
    }
    #expect(value == 42)
  }

  @Test func testAsyncStreamUnfoldingWithoutEscapedDependencies() async {
    let stream = withDependencies { $0.fullDependency.value = 42 } operation: { () -> AsyncStream<Int> in
      let isDone = LockIsolated(false)
      return AsyncStream(unfolding: {
        defer { isDone.setValue(true) }
        @Dependency(\.fullDependency.value) var value
        return isDone.value ? nil : value
      })
    }
    let values = await stream.reduce(into: []) { $0.append($1) }
    #expect(values == [3], "the override does not reach the stream's closure")
  }

  @Test func testAsyncStreamUnfoldingWithEscapedDependencies() async {
    let stream = withDependencies { $0.fullDependency.value = 42 } operation: { () -> AsyncStream<Int> in
      let isDone = LockIsolated(false)
      return withEscapedDependencies { continuation in
        AsyncStream(unfolding: {
          continuation.yield {
            defer { isDone.setValue(true) }
            @Dependency(\.fullDependency.value) var value
            return isDone.value ? nil : value
          }
        })
      }
    }
    let values = await stream.reduce(into: []) { $0.append($1) }
    #expect(values == [42], "the escaped override reaches the stream's closure")
  }

  @Test func testParentModelWithoutDependencies() {
    final class Child {
      @Dependency(\.date) var date
    }
    final class Parent {
      func child() -> Child { withDependencies(from: self) { Child() } }
    }
    let parent = withDependencies { $0.date.now = someDate } operation: { Parent() }
    let child = parent.child()
    #expect(child.date.now == someDate)
  }

  /// Each Swift Testing test has its own default values: the two tests see a fresh actor each.
  @Test func testCachePollution1() async {
    @Dependency(\.cachedDependency) var cachedDependency: CachedDependency
    #expect(await cachedDependency.increment() == 1)
  }

  @Test func testCachePollution2() async {
    @Dependency(\.cachedDependency) var cachedDependency: CachedDependency
    #expect(await cachedDependency.increment() == 1)
  }

  /// Many tasks using a dependency for the first time at once make its value once.
  @Test func testThreadSafety() async {
    for _ in 1...200 {
      defer { CountInitDependency.initCount.setValue(0) }
      await withDependencies { $0 = .test } operation: {
        await withTaskGroup(of: Void.self) { group in
          for _ in 1...100 {
            group.addTask {
              @Dependency(\.countInitDependency) var countInitDependency: CountInitDependency
              _ = countInitDependency.fetch()
            }
          }
        }
        #expect(CountInitDependency.initCount.value == 1)
      }
    }
  }

  @Test func testPrepareDependencies_setsDependency() {
    prepareDependencies { $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 0) } }
    @Dependency(\.date.now) var now
    #expect(now == Date(timeIntervalSinceReferenceDate: 0))
  }

  @Test func testPrepareDependencies_returnResult() {
    let result = prepareDependencies { _ in 42 }
    #expect(result == 42)
  }

  @Test func testPrepareDependencies_setsLiveContext() {
    prepareDependencies { $0.context = .live }
    @Dependency(\.context) var context
    #expect(context == .live)
    @Dependency(FullDependency.self) var client
    #expect(client.value == FullDependency.liveValue.value)
  }

  @Test func testPrepareDependencies_setsDependency_LiveContext() {
    withDependencies { $0.context = .live } operation: {
      prepareDependencies { $0[ClientWithEndpoint.self] = ClientWithEndpoint(get: { 1729 }) }
      @Dependency(ClientWithEndpoint.self) var client
      #expect(client.get() == 1729)
    }
  }

  @Test func testPrepareDependencies_MultiplePreparesWithNoAccessBetween() async {
    prepareDependencies { $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 0) } }
    let issues = await recordIssues {
      prepareDependencies { $0.date = DateGenerator { Date(timeIntervalSince1970: 0) } }
    }
    #expect(issues.count == 1 && issues[0].message.contains("has already been used or prepared"), "\(issues)")
    @Dependency(\.date.now) var now
    #expect(now == Date(timeIntervalSinceReferenceDate: 0))
  }

  @Test func testPrepareDependencies_setDependencyMultipleTimesInSamePrepare() {
    prepareDependencies {
      $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 42) }
      $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 1729) }
    }
    @Dependency(\.date.now) var now
    #expect(now == Date(timeIntervalSinceReferenceDate: 1729))
  }

  @Test func testPrepareDependencies_DependencyAccessBeforePrepare() async {
    await withDependencies { $0.context = .live } operation: {
      @Dependency(\.date) var date
      _ = date()
      let issues = await recordIssues {
        prepareDependencies { $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 42) } }
      }
      #expect(issues.first?.message.contains("has already been used or prepared") == true, "\(issues)")
      #expect(date() != Date(timeIntervalSinceReferenceDate: 42))
    }
  }

  @Test func testPrepareDependencies_PreviewDependencyAccessBeforePrepare() {
    withDependencies { $0.context = .preview } operation: {
      @Dependency(\.date) var date
      _ = date()
      prepareDependencies { $0.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 42) } }
      #expect(date() == Date(timeIntervalSinceReferenceDate: 42))
    }
  }

  @Test func testPrepareDependencies_setDependencyEndpoint() {
    prepareDependencies { $0[ClientWithEndpoint.self].get = { @Sendable in 42 } }
    @Dependency(ClientWithEndpoint.self) var client
    #expect(client.get() == 42)
  }

  @Test func testPrepareDependencies_WithDependencies() {
    prepareDependencies { $0.date.now = Date(timeIntervalSince1970: 42) }
    withDependencies { $0.date.now = Date(timeIntervalSince1970: 1729) } operation: {
      @Dependency(\.date.now) var now
      #expect(now == Date(timeIntervalSince1970: 1729))
    }
    @Dependency(\.date.now) var now
    #expect(now == Date(timeIntervalSince1970: 42))
  }
}
