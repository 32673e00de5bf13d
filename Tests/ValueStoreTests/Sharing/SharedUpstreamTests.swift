import Foundation
import Observation
import Testing
@_spi(Testing) @testable import ValueStore

/// swift-sharing's own tests (Tests/SharingTests: SharedTests, InMemoryTests, EquatableTests,
/// ObservationTests, ParametrizedTests) and the plain-sharing cases of TCA's SharedTests, translated
/// to our API. Each test is named after the upstream case; what upstream tests with an API we do not
/// have (derived shared values, `SharedReader`, `Shared(require:)`, key defaults, publishers) is
/// left out.
///
/// Each test has shared values of its own, as upstream's do: the test process's dependency values
/// are kept per Swift Testing test (StoreTesting, linked into the test process, names the running
/// test). The tests declare their shared values in the test's body, not in a closure: with Swift
/// 6.3.1, `#expect` on a local property-wrapped variable declared inside a closure can read
/// another variable (Documentation/Core.md, "Toolchain bugs worked around").
@Suite(.timeLimit(.minutes(1)))
struct SharedUpstreamTests {
  /// What the tests here rely on: each test has dependency values — and shared values — of its own.
  @Test func eachTestHasSharedValuesOfItsOwn() {
    #expect(TestSupport.linked != nil)
    @Shared(.inMemory("count")) var count = 0
    #expect(count == 0)
  }

  // MARK: - SharedTests

  /// Upstream: setting `$count` rebinds the copies of the `Shared` made before (its reference is
  /// boxed): `shared.wrappedValue == 42`. Ours is a value: the copy keeps the reference it had.
  @Test func projectedValue() {
    @Shared(.inMemory("count")) var count = 0
    let shared = $count

    $count = Shared(wrappedValue: 42, .inMemory("anotherCount"))
    #expect(count == 42)
    // Our `Shared` is a value: a copy made before keeps its own reference (upstream: 42).
    #expect(shared.wrappedValue == 0)
  }

  @Test func nesting() {
    struct C: Equatable, Sendable {}
    struct B: Sendable {
      @Shared(.inMemory("c")) var c = C()
    }
    struct A: Sendable {
      @Shared(.inMemory("b")) var b = B()
    }

    let a = A()
    #expect(a.b.c == C())
  }

  /// Upstream orders two tasks with sleeps: one makes the key's value through a dependency whose
  /// `init` makes and changes it, the other makes it with a default that is slow to compute. Here
  /// semaphores give the same order: the default is being computed (outside the lock) when the
  /// dependency makes the value; the value the dependency made wins, and nothing deadlocks.
  @Test func lockingOrderWithDependencies() async {
    struct D: TestDependencyKey {
      @Shared(.inMemory("count")) var count = 0
      init() {
        $count.withLock { $0 += 1 }
      }
      static var testValue: D { D() }
    }
    let values = DependencyValues.test
    let inDefault = DispatchSemaphore(value: 0)
    let dependencyMade = DispatchSemaphore(value: 0)
    let dependencyCount = LockIsolated(-1)
    let declaredCount = LockIsolated(-1)
    let finished = DispatchGroup()
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }

    finished.enter()
    Thread {
      DependencyValues.withCurrent(values) {
        inDefault.wait()
        @Dependency(D.self) var d
        dependencyCount.setValue(d.count)
        dependencyMade.signal()
      }
      finished.leave()
    }.start()
    finished.enter()
    Thread {
      DependencyValues.withCurrent(values) {
        @Shared(.inMemory("count")) var count: Int = {
          inDefault.signal()
          dependencyMade.wait()
          return 2
        }()
        declaredCount.setValue(count)
      }
      finished.leave()
    }.start()
    await withCheckedContinuation { done in finished.notify(queue: .global()) { done.resume() } }

    #expect(dependencyCount.value == 1)
    #expect(declaredCount.value == 1)
  }

  @Test func mutation() {
    @Shared(value: 0) var count
    $count.withLock { $0 += 1 }
    #expect(count == 1)

    @Shared var copy: Int
    _copy = $count
    $copy.withLock { $0 += 1 }
    #expect(count == 2)
    #expect(copy == 2)
  }

  @Test func task() async {
    @Shared(value: 0) var count

    await Task { [$count] in
      $count.withLock { $0 = 1 }
    }
    .value

    #expect(count == 1)
  }

  /// Upstream: `"Shared<Int>(value: 0)"`. Ours describes a `Shared` as its value (documented).
  @Test func valueDescription() {
    @Shared(value: 0) var count
    #expect($count.description == "0")
  }

  /// Upstream: `Shared<Int>(.appStorage("count"))`. Ours: the value.
  @Test func appStorageDescription() {
    @Shared(.appStorage("count")) var count = 0
    #expect($count.description == "0")
  }

  /// Upstream: `Shared<Int>(.fileStorage(file:///))`. Ours: the value.
  @Test func fileStorageDescription() {
    @Shared(.fileStorage(URL(fileURLWithPath: "/"))) var count = 0
    #expect($count.description == "0")
  }

  /// Upstream's `StringRepresentations.inMemory`: `Shared<Int>(.inMemory("count"))`. Ours: the value.
  @Test func inMemoryDescription() {
    @Shared(.inMemory("count")) var count = 0
    #expect($count.description == "0")
  }

  /// Upstream dumps a reference with an identity (`#1 0`) and elides repeats
  /// (`#1 Int(↩︎)`). Ours dumps a `Shared` as its value, every time.
  @Test func customDump() {
    @Shared(value: 0) var count
    #expect(String(customDumping: $count) == "0")
    #expect(
      String(customDumping: [$count, $count]) == """
        [
          [0]: 0,
          [1]: 0
        ]
        """
    )
  }

  // MARK: - InMemoryTests

  @Test func inMemoryMutation() {
    @Shared(.inMemory("count")) var count = 0

    #expect(count == 0)

    $count.withLock { $0 += 1 }

    #expect(count == 1)

    @Shared(.inMemory("count")) var anotherCount = 0

    #expect(anotherCount == 1)

    $anotherCount.withLock { $0 += 1 }

    #expect(count == 2)
  }

  /// Upstream also reads the value through a `SharedReader` (not here yet).
  @Test func referenceCounting() async {
    do {
      @Shared(.inMemory("count")) var count = 0

      #expect(count == 0)

      $count.withLock { $0 += 1 }

      #expect(count == 1)
    }

    do {
      @Shared(.inMemory("count")) var count = 0
      #expect(count == 1)
    }

    let countInTask = await Task {
      @Shared(.inMemory("count")) var count = 0
      return count
    }
    .value
    #expect(countInTask == 1)
  }

  /// Upstream's `InMemoryTests.default`, with `Shared` for `SharedReader` and without
  /// `SharedReader(require:)`: the first declaration's default is the value, kept after it is gone.
  @Test func `default`() {
    do {
      @Shared(.inMemory("count")) var count = 10
    }
    do {
      @Shared(.inMemory("count")) var count = 0
      #expect(count == 10)
    }
  }

  /// Without upstream's last case (`Shared(require:)` throws for a key with no value).
  @Test func optionalDefault() {
    do {
      @Shared(.inMemory("count")) var count: Int? = 0
      #expect(count == 0)
    }

    do {
      @Shared(.inMemory("nilCount")) var nilCount: Int? = nil
      #expect(nilCount == nil)
    }

    do {
      @Shared(.inMemory("optionalCount")) var optionalCount: Int?? = .some(0)
      #expect(optionalCount == .some(0))
    }

    do {
      @Shared(.inMemory("nestedOptionalCount")) var nestedOptionalCount: Int?? = .some(.none)
      #expect(nestedOptionalCount == .some(.none))
    }
  }

  // MARK: - EquatableTests

  @Test func nonPersisted() {
    @Shared(value: 0) var lhs
    @Shared(value: 0) var rhs
    #expect(lhs == rhs)
    #expect($lhs == $rhs)

    $lhs.withLock { $0 += 1 }
    #expect(lhs != rhs)
    #expect($lhs != $rhs)

    $rhs.withLock { $0 += 1 }
    #expect(lhs == rhs)
    #expect($lhs == $rhs)
  }

  @Test func comparePersistedAndNonPersisted() {
    @Shared(value: 0) var lhs
    @Shared(.inMemory("rhs")) var rhs = 0
    #expect(lhs == rhs)
    #expect($lhs == $rhs)

    $lhs.withLock { $0 += 1 }
    #expect(lhs != rhs)
    #expect($lhs != $rhs)

    $rhs.withLock { $0 += 1 }
    #expect(lhs == rhs)
    #expect($lhs == $rhs)
  }

  /// TCA's `testEquatability_DifferentReference`: references of every kind holding equal values are
  /// equal.
  @Test func testEquatability_DifferentReference() {
    let count = Shared(value: 0)
    @Shared(.appStorage("count")) var appStorageCount = 0
    @Shared(.fileStorage(URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("count.json")))
    var fileStorageCount = 0
    @Shared(.inMemory("count")) var inMemoryCount = 0

    #expect(count == $appStorageCount)
    #expect($appStorageCount == $fileStorageCount)
    #expect($fileStorageCount == $inMemoryCount)
    #expect($inMemoryCount == count)
  }

  // MARK: - ObservationTests (upstream: `withPerceptionTracking`; here Apple's Observation and ours)

  @Test func nonPersistedShared() async {
    @Shared(value: 0) var count: Int
    await confirmation { confirm in
      withObservationTracking {
        _ = count
      } onChange: {
        confirm()
      }

      $count.withLock { $0 += 1 }
    }
    await confirmation { confirm in
      withTracking {
        _ = count
      } onChange: { _ in
        confirm()
      }

      $count.withLock { $0 += 1 }
    }
  }

  @Test func persistedShared() async {
    @Shared(.inMemory("count")) var count = 0
    await confirmation { confirm in
      withObservationTracking {
        _ = count
      } onChange: {
        confirm()
      }

      $count.withLock { $0 += 1 }
    }
    await confirmation { confirm in
      withTracking {
        _ = count
      } onChange: { _ in
        confirm()
      }

      $count.withLock { $0 += 1 }
    }
  }

  /// TCA's `testObservation`.
  @Test func testObservation() async {
    @Shared var count: Int
    _count = Shared(value: 0)
    await confirmation { countDidChange in
      withObservationTracking {
        _ = count
      } onChange: {
        countDidChange()
      }
      $count.withLock { $0 += 1 }
    }
  }

  /// TCA's `testObservation_projected`: a reader of a shared value hears the `Shared` being
  /// replaced by another. Upstream replaces a local's projection; ours has nothing to observe in a
  /// local, so this replaces the `Shared` a state holds, under a reader of that state's value.
  @Test func testObservation_projected() {
    let root = ObservedRoot(Counter(count: Shared(value: 0)))
    let fired = LockIsolated(0)
    withTracking { _ = root.count } onChange: { _ in fired.withValue { $0 += 1 } }
    root.mutate { $0.$count = Shared(value: 1) }
    #expect(root.count == 1)
    #expect(fired.value == 1)
  }

  // MARK: - TCA's default-value cases that apply to plain keys

  /// TCA's `testSharedInitialValueUnused` with a plain key for its `.isOn` default key: the first
  /// declaration's default is computed; a later one's is not.
  @Test func testSharedInitialValueUnused() {
    let accessedIsOn1 = LockIsolated(false)
    let accessedIsOn2 = LockIsolated(false)
    @Shared(.appStorage("isOn")) var isOn1 = {
      accessedIsOn1.setValue(true)
      return false
    }()
    @Shared(.appStorage("isOn")) var isOn2 = {
      accessedIsOn2.setValue(true)
      return true
    }()
    #expect(isOn1 == false)
    #expect(isOn2 == false)
    #expect(accessedIsOn1.value == true)
    #expect(accessedIsOn2.value == false)
  }

  /// TCA's `testSharedDefaults_MultipleWithDifferentDefaults` with the plain key for `.isOn`.
  @Test func testSharedDefaults_MultipleWithDifferentDefaults() {
    @Shared(.appStorage("isOn")) var isOn1 = false
    @Shared(.appStorage("isOn")) var isOn2 = true
    @Shared(.appStorage("isOn")) var isOn3 = true

    #expect(isOn1 == false)
    #expect(isOn2 == false)
    #expect(isOn3 == false)

    $isOn2.withLock { $0 = true }
    #expect(isOn1 == true)
    #expect(isOn2 == true)
    #expect(isOn3 == true)

    $isOn1.withLock { $0 = false }
    #expect(isOn1 == false)
    #expect(isOn2 == false)
    #expect(isOn3 == false)

    $isOn3.withLock { $0 = true }
    #expect(isOn1 == true)
    #expect(isOn2 == true)
    #expect(isOn3 == true)
  }

  // MARK: - Fixtures

  typealias Counter = SharedCounter
}

/// swift-sharing's `ParametrizedTests.testCounterWithArguments`: each argument of a parametrized
/// test starts without the value its key names: each test case gets dependency values of its own. No `inFreshContext` here: what is tested is the
/// per-test dependency values a test gets by default.
@Suite(.timeLimit(.minutes(1))) struct SharedParametrizedUpstreamTests {
  @Test(arguments: 0...10)
  func testCounterWithArguments(initialValue: Int) {
    @Shared(.inMemory("SharedParametrizedUpstreamTests.count")) var counter = initialValue
    #expect(counter == initialValue)
  }
}
