import Testing
import ValueStore
@testable import CounterDemo

/// Lines written by the code under test.
final class Lines: Sendable {
  private let lines = LockIsolated<[String]>([])

  func append(_ line: String) { lines.withValue { $0.append(line) } }

  /// The lines written since the last call.
  func take() -> [String] { lines.withValue { lines in defer { lines = [] }; return lines } }
}

@MainActor
@Suite struct RendererTests {
  let store = Store(initialState: AppState(), reducer: AppFeature(clock: ContinuousClock()))
  let output = Lines()
  let renderer: Renderer

  init() {
    renderer = Renderer(store: store, style: Style(usesColor: false), write: output.append)
    renderer.drawAll()
    _ = output.take()
  }

  /// Sends `actions` and returns what the renderer redraws.
  private func redraws(_ actions: AppFeature.Action...) -> [String] {
    for action in actions { store.send(action) }
    renderer.flush()
    return output.take()
  }

  @Test func drawsTheWholeScreenInOrder() {
    _ = redraws(.list(.add), .list(.add))
    renderer.drawAll()
    #expect(
      output.take() == [
        "  counter: 0", "  timer: off, 0s", "  fact: none yet (try 'fact')", "  list: #1, #2", "  counter #1: 0",
        "  counter #2: 0", "  total: 0",
      ])
  }

  @Test func redrawsOnlyThePartsWhoseFieldsChanged() {
    #expect(redraws(.counter(.increment)) == ["  ↻ counter: 1"])
    #expect(redraws(.counter(.reset)) == ["  ↻ counter: 0"])
    #expect(redraws(.counter(.reset)) == [])  // no change, no redraw
    #expect(redraws(.timer(.tick)) == ["  ↻ timer: off, 1s"])
    #expect(redraws(.fact(.response("A fact."))) == ["  ↻ fact: A fact."])
  }

  @Test func aListCounterRedrawsItselfAndTheTotalOnly() {
    #expect(redraws(.list(.add), .list(.add), .list(.add)) == [  // the total stays 0: not redrawn
      "  ↻ list: #1, #2, #3", "  ↻ counter #1: 0", "  ↻ counter #2: 0", "  ↻ counter #3: 0",
    ])
    #expect(redraws(.list(.counters(.element(id: 2, action: .increment)))) == ["  ↻ counter #2: 1", "  ↻ total: 1"])
    #expect(redraws(.list(.counters(.element(id: 3, action: .decrement))), .counter(.increment)) == [
      "  ↻ counter: 1", "  ↻ counter #3: -1", "  ↻ total: 0",
    ])
  }

  @Test func removingACounterRedrawsTheListAndTheTotal() {
    _ = redraws(.list(.add), .list(.add), .list(.counters(.element(id: 1, action: .increment))))
    #expect(redraws(.list(.remove(id: 1))) == ["  ↻ list: #2", "  ↻ total: 0"])
    #expect(redraws(.list(.counters(.element(id: 2, action: .increment)))) == ["  ↻ counter #2: 1", "  ↻ total: 1"])
    renderer.drawAll()
    #expect(output.take().filter { $0.contains("#1") }.isEmpty)
  }
}
