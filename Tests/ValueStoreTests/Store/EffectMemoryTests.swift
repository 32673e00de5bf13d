import MallocProbe
import Testing
import ValueStore

/// Effects cancelled before they start give back all their memory, for each way an effect is
/// cancelled before its task runs: over 100,000 of them the allocator's bytes in use grow by less
/// than 4 bytes per effect (one leaked task, context or id entry is hundreds of bytes; what the
/// allocator's own bookkeeping settles to stays under 1). Measured in a process of its own (an exit
/// test), where no other test allocates.
///
/// The effects wait on a stream, which a cancellation ends at once. (A cancelled `Task.sleep`
/// keeps its timer, and its memory, until the deadline: the runtime's, not ours — Documentation/Core.md, "Toolchain bugs worked around".)
/// Not under a sanitizer, whose allocator this does not measure.
@Suite(.timeLimit(.minutes(1)), .enabled(if: malloc_probe_is_sanitized() == 0))
struct EffectMemoryTests {
  @Test func effectsCancelledInFlightGiveBackTheirMemory() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      await EffectMemory.check(.cancelInFlight)
    }
    EffectMemory.expectFlat(result)
  }

  @Test func effectsCancelledByIDInTheSameTurnGiveBackTheirMemory() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      await EffectMemory.check(.cancelByID)
    }
    EffectMemory.expectFlat(result)
  }

  @Test func effectsOfAReleasedStoreGiveBackTheirMemory() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      await EffectMemory.check(.storeReleased)
    }
    EffectMemory.expectFlat(result)
  }
}

@MainActor
enum EffectMemory {
  enum Shape: Sendable { case cancelInFlight, cancelByID, storeReleased }

  nonisolated static let effects = 100_000
  static let perRound = 10_000

  /// Bytes in use before and after the effects.
  struct Report: CustomStringConvertible {
    let before: Int, after: Int
    var perEffect: Double { Double(after - before) / Double(effects) }
    var description: String { "bytes in use \(before) → \(after) over \(effects) effects (\(perEffect) per effect)" }
  }

  /// Expects the report a measuring process printed to show memory flat.
  nonisolated static func expectFlat(_ result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let result else { return }  // the exit test failed, and said so
    let numbers = String(decoding: result.standardOutputContent, as: UTF8.self)
      .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    guard numbers.count == 2 else {
      Issue.record("no report from the measuring process", sourceLocation: sourceLocation)
      return
    }
    let report = Report(before: numbers[0], after: numbers[1])
    #expect(report.perEffect < 4, "\(report)", sourceLocation: sourceLocation)
  }

  /// Prints the bytes in use before and after `effects` effects of `shape`.
  static func check(_ shape: Shape) async {
    for _ in 0..<2 { await round(shape) }  // the tables' high-water mark
    let before = malloc_probe_bytes_in_use()
    for _ in 0..<(effects / perRound) { await round(shape) }
    print(before, malloc_probe_bytes_in_use())
  }

  /// Starts `perRound` effects of `shape` in one main-actor turn, then waits for all to end.
  static func round(_ shape: Shape) async {
    var tasks: [StoreTask] = []
    tasks.reserveCapacity(perRound)
    var store: Store<Tally, TallyAction>? = Store(initialState: Tally()) { Searcher() }
    for _ in 0..<perRound {
      switch shape {
      case .cancelInFlight: tasks.append(store!.send(.search))
      case .cancelByID: tasks.append(store!.send(.searchAndCancel))
      case .storeReleased: tasks.append(Store(initialState: Tally()) { Searcher() }.send(.search))
      }
    }
    store = nil
    for task in tasks { await task.finish() }
  }

  struct Tally: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var queries = 0 }
    var _$fields = Observed(Fields())
  }
  enum TallyAction: Sendable { case search, searchAndCancel }
  enum CancelID { case search }

  /// A search field's feature: each keystroke replaces the search in flight.
  struct Searcher: Reducer {
    func reduce(into state: inout Tally, action: TallyAction) -> Effect<TallyAction> {
      state.queries += 1
      let search = Effect<TallyAction>.run { _ in
        let (results, continuation) = AsyncStream<Int>.makeStream()
        for await _ in results {}  // until cancelled
        continuation.finish()
      }
      switch action {
      case .search: return search.cancellable(id: CancelID.search, cancelInFlight: true)
      case .searchAndCancel: return .merge(search.cancellable(id: CancelID.search), .cancel(id: CancelID.search))
      }
    }
  }
}
