import Observation
import ValueStore

// In the loops that call nothing else, `blackHole(i)` is a call the optimizer cannot see through:
// every write must reach memory before it, so no column's loop is folded into a single `+= n`.

/// Writing a field: with nobody to tell, with one one-shot observer that fires, and re-firing a
/// continuous observer.
enum WriteScenarios {
  static var all: [Scenario] {
    [
      Scenario(
        name: "write `+=`, 0 observers",
        note: "`count += 1` on a bare value / an @Observable object / a plain struct.",
        ours: Workload("ours.write.bare", setUp: { Counter() }) { state, n in
          for i in 0..<n {
            state.count += 1
            blackHole(i)
          }
        },
        apple: appleWrite,
        plain: plainWrite
      ),
      Scenario(
        name: "write `=`, 0 observers",
        note: "`count = i` (a setter, where `+= 1` is a modify accessor) on each of the three.",
        ours: Workload("ours.assign.bare", setUp: { Counter() }) { state, n in
          for i in 0..<n {
            state.count = i
            blackHole(i)
          }
        },
        apple: Workload("apple.assign", setUp: { AppleCounter() }) { object, n in
          for i in 0..<n {
            object.count = i
            blackHole(i)
          }
        },
        plain: Workload("plain.assign", setUp: { PlainCounter() }) { plain, n in
          for i in 0..<n {
            plain.count = i
            blackHole(i)
          }
        }
      ),
      Scenario(
        name: "write, 0 observers, root.mutate",
        note: "`root.mutate { $0.count += 1 }`: a transaction, the root's lock and its slot check.",
        ours: Workload("ours.write.root", setUp: { ObservedRoot(Counter()) }) { root, n in
          for _ in 0..<n { root.mutate { $0.count += 1 } }
        },
        apple: appleWrite
      ),
      Scenario(
        name: "write, 1 observer fires, root.mutate",
        note: """
          Arm a one-shot observer of `count` (withTracking { root.count } / \
          withObservationTracking), then write it (root.mutate / property set): arm + fire.
          """,
        ours: Workload("ours.fire.root", setUp: { ObservedRoot(Counter()) }) { root, n in
          let fired = FireCounter()
          for _ in 0..<n {
            withTracking { _ = root.count } onChange: { _ in fired.fire() }
            root.mutate { $0.count += 1 }
          }
          fired.expect(n, in: "ours.fire.root")
        },
        apple: appleFire
      ),
      Scenario(
        name: "write, 1 observer fires, bare",
        note: "As above on a bare value: withTracking { state.count }, then `state.count += 1`.",
        ours: Workload("ours.fire.bare", setUp: { Counter() }) { state, n in
          let fired = FireCounter()
          for _ in 0..<n {
            withTracking { _ = state.count } onChange: { _ in fired.fire() }
            state.count += 1
          }
          fired.expect(n, in: "ours.fire.bare")
        },
        apple: appleFire
      ),
      Scenario(
        name: "observe re-fire cycle",
        note: """
          A continuous observer of `count` (observe { root.count } / withObservationTracking \
          re-armed in its onChange); one write: the write, the call and the re-tracking.
          """,
        ours: Workload(
          "ours.observe.root",
          setUp: {
            let (root, fired) = (ObservedRoot(Counter()), FireCounter())
            let token = observe {
              _ = root.count
              fired.fire()
            }
            return (root: root, fired: fired, token: token)
          },
          body: { observed, n in
            for _ in 0..<n { observed.root.mutate { $0.count += 1 } }
            observed.fired.expect(n + 1, in: "ours.observe.root")  // + the first run, by `observe`
            observed.token.cancel()
          }),
        apple: Workload(
          "apple.observe",
          setUp: {
            let (object, fired) = (AppleCounter(), FireCounter())
            observeContinuously(object, fired)
            return (object: object, fired: fired)
          },
          body: { observed, n in
            for _ in 0..<n { observed.object.count += 1 }
            observed.fired.expect(n, in: "apple.observe")
          })
      ),
    ]
  }

  /// `count += 1` on an @Observable object; also the comparison for other bare-value writes.
  static var appleWrite: Workload {
    Workload("apple.write", setUp: { AppleCounter() }) { object, n in
      for i in 0..<n {
        object.count += 1
        blackHole(i)
      }
    }
  }

  /// `count += 1` on a plain struct; also the floor for other bare-value writes.
  static var plainWrite: Workload {
    Workload("plain.write", setUp: { PlainCounter() }) { plain, n in
      for i in 0..<n {
        plain.count += 1
        blackHole(i)
      }
    }
  }

  private static var appleFire: Workload {
    Workload("apple.fire", setUp: { AppleCounter() }) { object, n in
      let fired = FireCounter()
      for _ in 0..<n {
        withObservationTracking { _ = object.count } onChange: { fired.fire() }
        object.count += 1
      }
      fired.expect(n, in: "apple.fire")
    }
  }
}

/// Apple's equivalent of `observe`: tracks `count`, and re-tracks from each `onChange`.
private func observeContinuously(_ object: AppleCounter, _ fired: FireCounter) {
  withObservationTracking { _ = object.count } onChange: {
    fired.fire()
    observeContinuously(object, fired)
  }
}
