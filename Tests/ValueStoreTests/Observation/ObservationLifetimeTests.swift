import Foundation
import Observation
import Testing
@testable import ValueStore

/// What an Observation scope subscribed to through a holder lives as long as the holder, as with
/// an `@Observable` object: a scope that never fires (a view that went away before any change, an
/// `Observations` sequence dropped) is released with the holder. The read asks Observation whether
/// it tracks through an object of the holder's, never a global one, whose registrar would keep
/// every such scope — and whatever its `onChange` captured — for good; and the bridges a thread
/// caches for reads below the top level go with the value they were armed on.
@MainActor @Suite struct ObservationLifetimeTests {
  final class Canary: Sendable {}

  @Test(arguments: 0..<ObservationBridgeTests.shapes.count)
  func aScopeThatNeverFiredGoesWithTheStore(_ index: Int) {
    let shape = ObservationBridgeTests.shapes[index]
    var store: Store<BridgeState, BridgeFeature.Action>? = Store(initialState: BridgeState(), reducer: BridgeFeature())
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      withObservationTracking { shape.read(store!) } onChange: { _ = canary }
    }
    store = nil
    #expect(weakCanary == nil, "kept: \(shape.name)")
  }

  @Test(arguments: 0..<ObservationBridgeTests.shapes.count)
  func aScopeThatNeverFiredGoesWithTheRoot(_ index: Int) {
    let shape = ObservationBridgeTests.shapes[index]
    guard let read = shape.rootRead else { return }
    var root: ObservedRoot<BridgeState>? = ObservedRoot(BridgeState())
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      withObservationTracking { read(root!) } onChange: { _ = canary }
    }
    root = nil
    #expect(weakCanary == nil, "kept: \(shape.name)")
  }

  /// A value made and dropped inside the closure (a filtered copy of a collection: its structure is
  /// read, then it dies): the bridge armed on it stays until the scope has subscribed, and goes
  /// with the root. Dropped while the closure ran, the scope subscribed to a registrar already
  /// gone, which nothing cancels (found by a user-style probe).
  @Test func aValueThatDiedInsideTheClosureDoesNotKeepTheScope() {
    var root: ObservedRoot<BridgeState>? = ObservedRoot(BridgeState())
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      withObservationTracking { _ = root!.rows.filter { $0.count >= 0 }.count } onChange: { _ = canary }
    }
    root = nil
    #expect(weakCanary == nil)
  }

  /// `untracked` asks Observation whether it tracks through the thread's probe, which the scope
  /// records: the thread drops it once Observation is seen not tracking there.
  @Test func aScopeThatWentUntrackedGoesOnceObservationStopsTrackingHere() {
    var store: Store<BridgeState, BridgeFeature.Action>? = Store(initialState: BridgeState(), reducer: BridgeFeature())
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      withObservationTracking {
        _ = store!.count
        untracked { _ = store!.name }
      } onChange: { _ = canary }
    }
    store = nil
    untracked {}  // asks again, with Observation not tracking
    #expect(weakCanary == nil)
  }

  /// Scopes of threads that exited: each thread's cache let go of its bridges as it exited, so
  /// they go with the roots (found by a user-style probe: 50 of 50 kept for good).
  @Test(.timeLimit(.minutes(1))) nonisolated func scopesOfThreadsThatExitedGoWithTheRoots() {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    final class Work: @unchecked Sendable {
      var root: ObservedRoot<BridgeState>? = ObservedRoot(BridgeState())
      weak var canary: Canary?
    }
    let works = (0..<20).map { _ in Work() }
    var threads: [pthread_t] = []
    for (index, work) in works.enumerated() {
      let read = ObservationBridgeTests.shapes.compactMap(\.rootRead)[index % 12]
      threads.append(ThreadBody.start {
        let canary = Canary()
        work.canary = canary
        withObservationTracking { read(work.root!) } onChange: { _ = canary }
      })
    }
    for thread in threads { pthread_join(thread, nil) }  // exited, thread-local storage gone
    for work in works { work.root = nil }
    #expect(works.filter { $0.canary != nil }.count == 0)
  }

  /// A thread whose last holder read was Apple's (a render thread that stops after a render)
  /// exits with its Apple window open: the window closes with the thread. Left open, it counted
  /// as an open tracking scope for good, so every read and write of every holder in the process
  /// stayed on its slow path (under the thread sanitizer the whole suite slowed until tests ran
  /// past their time limits), and no other thread's change moved a key it had recorded.
  @Test(.timeLimit(.minutes(1))) nonisolated func theAppleWindowOfAThreadThatExitedCloses() {
    let root = ObservedRoot(BridgeState())
    let windows = LockIsolated<[AppleWindow]>([])
    let thread = ThreadBody.start {
      withObservationTracking { _ = root.child.count } onChange: {}
      if let window = ThreadContext.current.window { windows.withValue { $0.append(window) } }
    }
    pthread_join(thread, nil)  // exited, thread-local storage gone
    #expect(windows.value.count == 1, "the read opened no window: the test tests nothing")
    #expect(windows.value.allSatisfy { $0.isClosed }, "left open for good")
  }

  /// The same for Apple's own object, as the reference.
  @Test func anObservableObjectsScopeGoesWithIt() {
    var model: AppleModel? = AppleModel()
    weak var weakCanary: Canary?
    do {
      let canary = Canary()
      weakCanary = canary
      withObservationTracking { _ = model!.count } onChange: { _ = canary }
    }
    model = nil
    #expect(weakCanary == nil)
  }
}

/// An `@Observable` class as the macro writes it.
private final class AppleModel: Observable {
  private let registrar = ObservationRegistrar()
  private var _count = 0
  var count: Int {
    registrar.access(self, keyPath: \.count)
    return _count
  }
}

/// A thread's body, handed to `pthread_create`.
/// A body run on a thread of its own (a pthread, so that it exits when the body returns and its
/// thread-local storage goes).
private final class ThreadBody {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }

  /// Starts `body` on a new thread; join it to wait for its exit.
  static func start(_ body: @escaping () -> Void) -> pthread_t {
    let box = Unmanaged.passRetained(ThreadBody(body))
    var thread = pthread_t()
    pthread_create(&thread, nil, { raw in
      let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
      body.run()
      return nil
    }, box.toOpaque())
    return thread
  }
}
