import Foundation
@testable import ValueStore

/// Opens once; effects wait on it so tests control when they proceed (no sleeps). Waiting ends
/// early when the waiting task is cancelled, so a cancelled effect really ends.
final class Gate: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() { (stream, continuation) = AsyncStream.makeStream() }

  func open() { continuation.finish() }

  func wait() async {
    for await _ in stream {}
  }
}

/// Collects runtime warnings sent while a test runs.
final class Warnings: @unchecked Sendable {
  private let lock = NSLock()
  private var messages: [String] = []
  func append(_ message: String) { lock.withLock { messages.append(message) } }
  var all: [String] { lock.withLock { messages } }
}

struct Failure: Error, CustomStringConvertible {
  var description: String { "boom" }
}

enum CancelID: Hashable, Sendable { case fact }

/// A feature exercising every kind of effect.
struct AppFeature: Reducer {
  enum Action: Equatable, Sendable {
    case increment
    case setName(String)
    case setAll
    case reset
    case replaceCount(Int)
    case mutateDiscardedCopy
    case writeBack(Child)
    case child(ChildAction)
    case optional(ChildAction)
    case showOptional(Bool)
    case fetch(gate: GateBox)
    case response(Int)
    case cancelFetch
    case fail
    case sendTwice
  }
  enum ChildAction: Equatable, Sendable { case increment }

  /// A gate passed inside an action; equal by identity.
  struct GateBox: Equatable, Sendable {
    let gate: Gate
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.gate === rhs.gate }
  }

  var log: Log?

  final class Log: @unchecked Sendable {
    var actions: [Action] = []
    var depth = 0
    var maxDepth = 0
  }

  func reduce(into state: inout AppState, action: Action) -> Effect<Action> {
    log?.actions.append(action)
    log?.depth += 1
    log.map { $0.maxDepth = max($0.maxDepth, $0.depth) }
    defer { log?.depth -= 1 }
    switch action {
    case .increment:
      state.count += 1
      return .none
    case let .setName(name):
      state.name = name
      return .none
    case .setAll:
      state.count += 1
      state.name += "!"
      state.child.title += "!"
      return .none
    case .reset:
      state = AppState()
      return .none
    case let .replaceCount(count):
      var next = AppState()
      next.count = count
      state = next
      return .none
    case .mutateDiscardedCopy:
      var copy = state
      copy.count += 100
      _ = copy
      return .none
    case let .writeBack(child):
      state.child = child
      return .none
    case .child(.increment):
      state.child.count += 1
      return .none
    case .optional(.increment):
      state.optional?.count += 1
      return .none
    case let .showOptional(show):
      state.optional = show ? Child() : nil
      return .none
    case let .fetch(gate):
      return .run { send in
        await gate.gate.wait()
        try Task.checkCancellation()
        await send(.response(42))
      }
      .cancellable(id: CancelID.fact, cancelInFlight: true)
    case let .response(value):
      state.count = value
      return .none
    case .cancelFetch:
      return .cancel(id: CancelID.fact)
    case .fail:
      return .run { _ in throw Failure() }
    case .sendTwice:
      return .merge(.send(.increment), .send(.increment))
    }
  }
}

extension Store where State == AppState, Action == AppFeature.Action {
  static func app(log: AppFeature.Log? = nil) -> Store {
    Store(initialState: AppState(), reducer: AppFeature(log: log))
  }
}
