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
  /// Calls its body with the child in a base state, if the child is there. Not a function
  /// returning `State?`: unspecialized, an optional of `State` costs a metadata lookup per read.
  let withChild: (BaseState, (State) -> Void) -> Void
  let fromAction: (Action) -> BaseAction
  let path: String
  /// The last state read, for a scope that can disappear (nil for one that cannot). Touched only
  /// by `remember` and `readLast`: unspecialized, its optional type costs a metadata lookup.
  private var last: State?
  private let canDisappear: Bool
  /// Whether a state is the value this store was made for (a scope that can disappear, of an
  /// observable state, tells by ``ObservationIdentity/valueID``; others take any).
  private let isOwn: (State) -> Bool

  init(
    base: any StoreCore<BaseState, BaseAction>,
    path: String,
    initial: State,
    canDisappear: Bool,
    standsForItsValue: Bool = false,
    withChild: @escaping (BaseState, (State) -> Void) -> Void,
    fromAction: @escaping (Action) -> BaseAction
  ) {
    self.base = base
    self.path = path
    self.withChild = withChild
    self.fromAction = fromAction
    self.canDisappear = canDisappear
    self.last = canDisappear ? initial : nil
    if standsForItsValue, let kind = ObservationKind.of(State.self) {
      let valueID = kind._identity(of: initial).valueID
      isOwn = { kind._identity(of: $0).valueID == valueID }
    } else {
      isOwn = { _ in true }
    }
  }

  /// A scope to a child that may be absent: `toState` returns nil then.
  convenience init(
    base: any StoreCore<BaseState, BaseAction>, path: String, initial: State, standsForItsValue: Bool = false,
    toState: @escaping (BaseState) -> State?, fromAction: @escaping (Action) -> BaseAction
  ) {
    self.init(
      base: base, path: path, initial: initial, canDisappear: true, standsForItsValue: standsForItsValue,
      withChild: { base, body in toState(base).map(body) }, fromAction: fromAction)
  }

  func withState(_ body: (State) -> Void) {
    var found = false
    base.withState { base in
      withChild(base) { state in
        guard isOwn(state) else { return }
        if canDisappear { remember(state) }
        found = true
        body(state)
      }
    }
    if !found { readLast(body) }
  }

  @inline(never)
  private func remember(_ state: State) { last = state }

  @inline(never)
  private func readLast(_ body: (State) -> Void) { body(last!) }

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

  var isPresent: Bool {
    base.read { base in
      var isOwn = false
      withChild(base) { isOwn = self.isOwn($0) }
      return isOwn
    } && base.isPresent
  }

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
