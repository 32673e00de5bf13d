import Foundation
import Testing
@testable import ValueStore

/// A store runs each action with its own dependencies in force, whatever the code sending it runs
/// with. A store with the defaults binds them only where others are in force, which it learns from
/// a flag bound beside the values (or, while no task ever bound others, from nothing at all).
/// Checked in a fresh process, where nothing was bound yet, and in this one.
@Suite(.timeLimit(.minutes(1))) struct StoreDependenciesInForceTests {
  @Test func aStoreWithTheDefaultsRunsWithThemWhereverItIsSentFrom() async {
    await #expect(processExitsWith: .success) {
      await MainActor.run { DependenciesInForce.exitsOnFailure = true }
      await MainActor.run { DependenciesInForce.check() }
      await DependenciesInForce.checkFromAnInheritingTask()
    }
  }

  /// The same checks in this process, where other tests have bound values before.
  @MainActor @Test func andAfterOtherValuesWereBound() async {
    DependenciesInForce.check()
    await DependenciesInForce.checkFromAnInheritingTask()
  }
}

@MainActor
enum DependenciesInForce {
  static let store = Store(initialState: Probed()) { ProbeReader() }
  /// In an exit test's process: a failure ends it (the parent sees the exit status).
  static var exitsOnFailure = false

  static func expect(_ value: String, _ expected: String, _ what: String) {
    if exitsOnFailure, value != expected {
      FileHandle.standardError.write(Data("\(what): read \(value), not \(expected)\n".utf8))
      exit(1)
    }
    #expect(value == expected, "\(what)")
  }

  static func check() {
    store.send(.read)
    expect(store.value, "default", "a plain send")
    withDependencies { $0.probe = "other" } operation: { store.send(.read) }
    expect(store.value, "default", "a send from code running with other values")
    store.send(.read)
    expect(store.value, "default", "a send after other values were bound")
    let overridden = Store(initialState: Probed()) { ProbeReader() } withDependencies: { $0.probe = "own" }
    overridden.send(.read)
    expect(overridden.value, "own", "a store's own values")
  }

  nonisolated static func checkFromAnInheritingTask() async {
    await withDependencies { $0.probe = "inherited" } operation: {
      await Task { @MainActor in store.send(.read) }.value
    }
    await MainActor.run { expect(store.value, "default", "a send from a task that inherited other values") }
  }
}

struct Probed: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable { var value = "" }
  var _$fields = Observed(Fields())
}

struct ProbeReader: Reducer {
  enum Action: Sendable { case read }
  @Dependency(\.probe) var probe
  func reduce(into state: inout Probed, action: Action) -> Effect<Action> {
    state.value = probe
    return .none
  }
}

private enum ProbeKey: DependencyKey {
  static let liveValue = "default"
  static let testValue = "default"
}

extension DependencyValues {
  fileprivate var probe: String {
    get { self[ProbeKey.self] }
    set { self[ProbeKey.self] = newValue }
  }
}
