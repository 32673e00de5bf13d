/// A view of a parent core: a child field, an optional child, or one element of a collection.
///
/// It owns nothing: reads go through the root (anchored), actions are embedded and sent to the
/// parent. When the scoped-to value is gone, reads return the last state seen and sends are
/// dropped with a runtime warning. A presented child's store (`standsForItsValue`) is gone too
/// once another value has taken its place (a child dismissed and presented anew, with the same id
/// or not: ``ObservationIdentity/valueID``) and never drives its successor; an element's store
/// follows its id, as SwiftUI's `ForEach` identifies rows (and TCA's element stores do).
///
/// Keeping the last state means the scoped value is shared with this copy, so its first write
/// after each read forks (one extent allocation); only scopes that can disappear pay it.
@MainActor
final class ScopedCore<BaseState, BaseAction, State, Action>: StoreCore {
  let base: any StoreCore<BaseState, BaseAction>
  let toState: (BaseState) -> State?
  let fromAction: (Action) -> BaseAction
  let path: String
  /// The last state read, for a scope that can disappear (nil for one that cannot).
  private var last: State?
  private let canDisappear: Bool
  /// The value this store was made for, and how to tell a state's (a scope that can disappear, of
  /// an observable state).
  private let valueID: ObservationIdentity.ValueID?
  private let valueIDOf: ((State) -> ObservationIdentity.ValueID)?

  init(
    base: any StoreCore<BaseState, BaseAction>,
    path: String,
    initial: State,
    canDisappear: Bool,
    standsForItsValue: Bool = false,
    toState: @escaping (BaseState) -> State?,
    fromAction: @escaping (Action) -> BaseAction
  ) {
    self.base = base
    self.path = path
    self.toState = toState
    self.fromAction = fromAction
    self.canDisappear = canDisappear
    self.last = canDisappear ? initial : nil
    if standsForItsValue, let kind = ObservationKind.of(State.self) {
      let valueIDOf = { (state: State) in kind._identity(of: state).valueID }
      self.valueIDOf = valueIDOf
      valueID = valueIDOf(initial)
    } else {
      valueIDOf = nil
      valueID = nil
    }
  }

  /// Whether `state` is the value this store was made for.
  private func isOwn(_ state: State) -> Bool {
    guard let valueID, let valueIDOf else { return true }
    return valueIDOf(state) == valueID
  }

  func withState(_ body: (State) -> Void) {
    var found = false
    base.withState { state in
      guard let state = toState(state), isOwn(state) else { return }
      if canDisappear { last = state }
      found = true
      body(state)
    }
    if !found { body(last!) }
  }

  var effectErrorHandler: @Sendable (any Error) -> Void {
    get { base.effectErrorHandler }
    set { base.effectErrorHandler = newValue }
  }

  var effectExecutor: (any TaskExecutor)? {
    get { base.effectExecutor }
    set { base.effectExecutor = newValue }
  }

  var dismissal: (@MainActor @Sendable () -> Void)? {
    get { base.dismissal }
    set { base.dismissal = newValue }
  }

  var dependencies: DependencyValues {
    get { base.dependencies }
    set { base.dependencies = newValue }
  }

  var isPresent: Bool { base.read { toState($0).map(isOwn) ?? false } && base.isPresent }

  func send(_ action: Action) -> StoreTask? {
    guard isPresent else {
      RuntimeWarning.report(
        "\(action) was sent to a store of \(path), whose state no longer exists; the action was ignored."
      )
      return nil
    }
    return base.send(fromAction(action))
  }
}
