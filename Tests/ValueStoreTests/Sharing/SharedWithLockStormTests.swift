import Foundation
import Observation
import Testing
@testable import ValueStore

/// Several threads increment one shared counter through `withLock` — through the `Shared` itself,
/// and through states that hold it — while observers (ours and Apple's) are registered, before the
/// storm and again and again during it. No increment is lost, and no registration hears more than
/// one change (each is one-shot); each made before the storm hears exactly one.
@Suite(.timeLimit(.minutes(1)))
struct SharedWithLockStormTests {
  static let writers = 4
  static let increments = 5_000
  static let observersBefore = 16

  typealias Counter = SharedCounter

  /// How many times each registration's `onChange` ran.
  final class Ledger: Sendable {
    private let calls = LockIsolated<[Int]>([])
    func register() -> Int { calls.withValue { $0.append(0); return $0.count - 1 } }
    func called(_ index: Int) { calls.withValue { $0[index] += 1 } }
    var values: [Int] { calls.value }
  }

  @Test func concurrentWithLockStormWithObserversRegistered() async {
    let watchdog = Watchdog(#function)
    defer { watchdog.finish() }
    let count = Shared(value: 0)
    let roots = (0..<2).map { _ in ObservedRoot(Counter(count: count)) }
    let before = Ledger()
    let during = Ledger()

    // Registered before the storm: through the `Shared`, through each holder, ours and Apple's.
    for i in 0..<Self.observersBefore {
      let index = before.register()
      let root = roots[i % roots.count]
      switch i % 4 {
      case 0: withTracking { _ = count.wrappedValue } onChange: { _ in before.called(index) }
      case 1: withTracking { _ = root.count } onChange: { _ in before.called(index) }
      case 2: withObservationTracking { _ = count.wrappedValue } onChange: { before.called(index) }
      default: withObservationTracking { _ = root.count } onChange: { before.called(index) }
      }
    }

    let writing = LockIsolated(Self.writers)
    let start = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    // An observer re-registering while the writers run, as a render loop would.
    finished.enter()
    Thread {
      var round = 0
      while writing.value > 0 {
        let index = during.register()
        let root = roots[round % roots.count]
        if round % 2 == 0 {
          withTracking { _ = root.count } onChange: { _ in during.called(index) }
        } else {
          withObservationTracking { _ = count.wrappedValue } onChange: { during.called(index) }
        }
        if round == 0 { for _ in 0..<Self.writers { start.signal() } }
        round += 1
      }
      finished.leave()
    }.start()
    for writer in 0..<Self.writers {
      finished.enter()
      Thread {
        start.wait()
        for i in 0..<Self.increments {
          if (writer + i) % 3 == 0 {
            roots[writer % roots.count].mutate { $0.$count.withLock { $0 += 1 } }
          } else {
            count.withLock { $0 += 1 }
          }
        }
        writing.withValue { $0 -= 1 }
        finished.leave()
      }.start()
    }
    await withCheckedContinuation { done in finished.notify(queue: .global()) { done.resume() } }

    #expect(count.wrappedValue == Self.writers * Self.increments)
    #expect(roots.allSatisfy { $0.count == Self.writers * Self.increments })
    #expect(before.values == Array(repeating: 1, count: Self.observersBefore))
    let overheard = during.values.enumerated().filter { $0.element > 1 }
    #expect(overheard.isEmpty, "registrations that heard more than one change: \(overheard.prefix(10))")
    #expect(during.values.count > 0)

    // After the storm, a new registration hears the next change, once.
    let after = Ledger()
    let index = after.register()
    withTracking { _ = roots[0].count } onChange: { _ in after.called(index) }
    count.withLock { $0 += 1 }
    count.withLock { $0 += 1 }
    #expect(after.values == [1])
  }
}
