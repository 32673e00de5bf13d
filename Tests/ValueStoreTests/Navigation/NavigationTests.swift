import Testing
@testable import ValueStore

/// A gate any number of effects wait on at once (`Gate` is one waiter's); waiting ends when it
/// opens or when the waiting task is cancelled. Under `LockIsolated`, which the thread sanitizer
/// understands (it reported a contended `Mutex` here as a race: Documentation/Decisions/0004-pthread-lock-not-mutex.md).
final class Latch: Sendable {
  private struct State {
    var isOpen = false
    var next = 0
    var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    var cancelled: Set<Int> = []
  }
  private let state = LockIsolated(State())

  func wait() async {
    let id = state.withValue { state in
      state.next += 1
      return state.next
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resume = state.withValue { state in
          guard !state.isOpen, !state.cancelled.contains(id) else { return true }
          state.waiting[id] = continuation
          return false
        }
        if resume { continuation.resume() }
      }
    } onCancel: {
      let continuation = state.withValue { state in
        state.cancelled.insert(id)
        return state.waiting.removeValue(forKey: id)
      }
      continuation?.resume()
    }
  }

  func open() {
    let waiting = state.withValue { state in
      state.isOpen = true
      defer { state.waiting = [:] }
      return Array(state.waiting.values)
    }
    for continuation in waiting { continuation.resume() }
  }
}

/// Presentation and stacks: who runs, when state goes away, and the lifetime and cancellation ids
/// of a presented child's effects. An effect that waits on a `Latch` stays in flight until its
/// gate opens or it is cancelled; `finish()` returning without the gate opening proves the cancel.
@MainActor @Suite(.timeLimit(.minutes(1))) struct NavigationTests {
  struct Job: ObservableState, Equatable, Sendable, Identifiable {
    struct Fields: Equatable, Sendable, Identifiable { let id: Int; var done = 0 }
    var _$fields: Observed<Fields>
  }
  struct JobFeature: Reducer {
    enum Action: Equatable, Sendable {
      case start, restart, finished, close, closeFromEffect, closeTwice, closeThenFinish, saveTapped, delegate(Int)
    }
    let gate: Latch
    func reduce(into state: inout Job, action: Action) -> Effect<Action> {
      switch action {
      case .start, .restart:
        return .run { [gate] send in
          await gate.wait()
          await send(.finished)
        }
        .cancellable(id: "work", cancelInFlight: action == .restart)
      case .finished:
        state.done += 1
        return .none
      case .close:
        return .dismiss
      case .closeFromEffect:
        return .run { send in await send.dismiss() }
      case .closeTwice:
        return .merge(.dismiss, .dismiss)
      case .closeThenFinish:
        return .merge(.dismiss, .send(.finished))
      case .saveTapped:
        return .send(.delegate(state.done))
      case .delegate:
        return .none
      }
    }
  }

  enum Alert: Equatable, Sendable { case confirm }
  enum Destination: Equatable, Sendable, CasePathable {
    case job(Job), alert(AlertState<Alert>)
  }
  enum DestinationAction: Equatable, Sendable { case job(JobFeature.Action), alert(Alert) }
  struct DestinationFeature: Reducer {
    let gate: Latch
    var body: some Reducer<Destination, DestinationAction> {
      Scope(state: Destination.job, action: DestinationAction.job) { JobFeature(gate: gate) }
    }
  }

  struct Screen: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var sheet: Job?
      var other: Job?
      var destination: Destination?
      var path = StackState<Job>()
      var log: [String] = []
    }
    var _$fields = Observed(Fields())
  }
  struct ScreenFeature: Reducer {
    enum Action: Equatable, Sendable {
      case sheet(PresentationAction<JobFeature.Action>), other(PresentationAction<JobFeature.Action>)
      case destination(PresentationAction<DestinationAction>)
      case path(StackAction<Job, JobFeature.Action>)
      case present(Int), presentOther(Int), hide, showAlert, showJob(Int), push(Int)
    }
    let gate: Latch
    var body: some Reducer<Screen, Action> {
      Reduce { state, action in
        switch action {
        case let .present(id): state.sheet = Job(.init(id: id))
        case let .presentOther(id): state.other = Job(.init(id: id))
        case .hide: state.sheet = nil
        case let .showJob(id): state.destination = .job(Job(.init(id: id)))
        case .showAlert:
          state.destination = .alert(AlertState(title: "Sure?") { ButtonState(action: .confirm) { "Yes" } })
        case let .push(id): state.path.append(Job(.init(id: id)))
        case .sheet(.dismiss): state.log.append("dismiss, sheet \(state.sheet?.id ?? -1)")
        case .sheet(.presented(.saveTapped)): state.sheet = nil  // closes on save
        case let .sheet(.presented(.delegate(done))): state.log.append("saved \(done)")
        case .destination(.presented(.alert(.confirm))):
          state.log.append("confirmed, destination \(state.destination == nil ? "nil" : "shown")")
        case let .path(.popFrom(id)): state.log.append("pop \(id), count \(state.path.count)")
        default: break
        }
        return .none
      }
      .ifLet(\.sheet, action: Action.sheet) { JobFeature(gate: gate) }
      .ifLet(\.other, action: Action.other) { JobFeature(gate: gate) }
      .ifLet(\.destination, action: Action.destination) { DestinationFeature(gate: gate) }
      .forEach(\.path, action: Action.path) { JobFeature(gate: gate) }
    }
  }

  func screen(_ gate: Latch = Latch()) -> Store<Screen, ScreenFeature.Action> {
    Store(initialState: Screen()) { ScreenFeature(gate: gate) }
  }

  // MARK: - Presentation

  @Test func aPresentedChildRunsAndItsDismissReachesTheParentBeforeItGoes() {
    let store = screen()
    store.send(.present(1))
    store.send(.sheet(.presented(.finished)))
    #expect(store.sheet?.done == 1)
    store.send(.sheet(.dismiss))
    #expect(store.sheet == nil)
    #expect(store.log == ["dismiss, sheet 1"])
  }

  @Test func aDismissedChildsEffectsAreCancelled() async {
    let store = screen()
    store.send(.present(1))
    let task = store.send(.sheet(.presented(.start)))
    #expect(task.isInFlight)
    store.send(.sheet(.dismiss))
    await task.finish()  // returns: the gate never opened, the effect was cancelled
    #expect(store.sheet == nil)
  }

  @Test func aChildSetToNilOrReplacedByTheParentHasItsEffectsCancelled() async {
    let gate = Latch()
    let store = screen(gate)
    store.send(.present(1))
    let first = store.send(.sheet(.presented(.start)))
    store.send(.present(2))  // replaced by another child (another id)
    await first.finish()
    let second = store.send(.sheet(.presented(.start)))
    store.send(.hide)  // set to nil by the parent
    await second.finish()

    store.send(.present(3))
    let third = store.send(.sheet(.presented(.start)))
    store.send(.sheet(.presented(.finished)))  // changed in place: still the same presentation
    #expect(third.isInFlight)
    gate.open()
    await third.finish()
    #expect(store.sheet?.done == 2)
  }

  @Test func twoPresentationsUsingOneCancellationIDDoNotCancelEachOther() async {
    let gate = Latch()
    let store = screen(gate)
    store.send(.present(1))
    store.send(.presentOther(1))  // the same feature, even the same id, in another place
    let sheet = store.send(.sheet(.presented(.start)))
    let other = store.send(.other(.presented(.start)))
    let restarted = store.send(.sheet(.presented(.restart)))  // cancels the sheet's "work" only
    await sheet.finish()
    #expect(other.isInFlight)
    gate.open()
    await other.finish()
    await restarted.finish()
    #expect(store.other?.done == 1)
    #expect(store.sheet?.done == 1)
  }

  @Test func aChildDismissesItselfFromItsReducerOrFromAnEffect() async {
    let store = screen()
    store.send(.present(1))
    store.send(.sheet(.presented(.close)))
    #expect(store.sheet == nil)
    store.send(.present(2))
    await store.send(.sheet(.presented(.closeFromEffect))).finish()
    #expect(store.sheet == nil)
    #expect(store.log == ["dismiss, sheet 1", "dismiss, sheet 2"])
  }

  @Test func dismissingOutsideAPresentationIsReported() async {
    let warnings = Warnings()
    let store = Store(initialState: Job(.init(id: 0))) { JobFeature(gate: Latch()) }
    await RuntimeWarning.withHandler({ warnings.append($0) }) {
      store.send(.close)
      await store.send(.closeFromEffect).finish()
    }
    #expect(warnings.all.count == 2)
    #expect(warnings.all.allSatisfy { $0.contains("not presented") })
  }

  @Test func anAlertIsDismissedByAnyOfItsButtonsBeforeTheParentSeesTheAction() {
    let store = screen()
    store.send(.showAlert)
    #expect(store.destination?.is(Destination.alert) == true)
    store.send(.destination(.presented(.alert(.confirm))))
    #expect(store.destination == nil)
    #expect(store.log == ["confirmed, destination nil"])
  }

  @Test func aDestinationCaseRunsItsReducer() async {
    let store = screen()
    store.send(.showAlert)
    store.withState { _ = $0 }
    var state = Screen()
    state.destination = .job(Job(.init(id: 7)))
    let shown = Store(initialState: state) { ScreenFeature(gate: Latch()) }
    shown.send(.destination(.presented(.job(.finished))))
    #expect(shown.destination?[case: Destination.job]?.done == 1)
    await shown.send(.destination(.presented(.job(.closeFromEffect)))).finish()
    #expect(shown.destination == nil)
  }

  // MARK: - Stacks

  @Test func stackElementsRunAndPopFromRemovesThemAndEverythingAbove() {
    let store = screen()
    store.send(.push(10))
    store.send(.push(11))
    store.send(.push(12))
    #expect(store.path.ids == [0, 1, 2])
    store.send(.path(.element(id: 1, action: .finished)))
    #expect(store.path[id: 1]?.done == 1)
    store.send(.path(.popFrom(id: 1)))
    #expect(store.path.ids == [0])
    #expect(store.log == ["pop #1, count 3"])  // the parent saw the stack before the pop
    store.send(.push(13))
    #expect(store.path.ids == [0, 3])  // ids are never reused
    let warnings = Warnings()
    RuntimeWarning.withHandler({ warnings.append($0) }) {
      store.send(.path(.push(id: 7, state: Job(.init(id: 14)))))  // past the next id: reported in tests
    }
    #expect(warnings.all.count == 1)
    #expect(store.path.ids == [0, 3, 7])
    #expect(store.path.nextID == 8)
  }

  @Test func poppedElementsHaveTheirEffectsCancelledAndOthersKeepTheirs() async {
    let gate = Latch()
    let store = screen(gate)
    store.send(.push(1))
    store.send(.push(1))  // the same feature twice, using the same cancellation id
    let bottom = store.send(.path(.element(id: 0, action: .start)))
    let top = store.send(.path(.element(id: 1, action: .start)))
    _ = store.send(.path(.element(id: 1, action: .restart)))  // cancels the top's "work" only
    await top.finish()
    #expect(bottom.isInFlight)
    store.send(.path(.popFrom(id: 0)))
    await bottom.finish()
    #expect(store.path.isEmpty)
  }

  @Test func anElementDismissingItselfIsPopped() async {
    let store = screen()
    store.send(.push(1))
    store.send(.push(2))
    store.send(.path(.element(id: 1, action: .close)))
    #expect(store.path.ids == [0])
    await store.send(.path(.element(id: 0, action: .closeFromEffect))).finish()
    #expect(store.path.isEmpty)
  }

  @Test func badStackActionsAreIgnoredAndReported() {
    let warnings = Warnings()
    let store = screen()
    store.send(.push(1))
    RuntimeWarning.withHandler({ warnings.append($0) }) {
      store.send(.path(.element(id: 5, action: .finished)))
      store.send(.path(.popFrom(id: 5)))
      store.send(.path(.push(id: 0, state: Job(.init(id: 2)))))
    }
    #expect(store.path.ids == [0])
    #expect(warnings.all.count == 3)
  }

  @Test func aChildDismissingTwiceIsDismissedOnce() {
    let warnings = Warnings()
    let store = screen()
    store.send(.present(1))
    store.send(.push(2))
    RuntimeWarning.withHandler({ warnings.append($0) }) {
      store.send(.sheet(.presented(.closeTwice)))
      store.send(.path(.element(id: 0, action: .closeTwice)))
    }
    #expect(store.sheet == nil && store.path.isEmpty)
    #expect(store.log == ["dismiss, sheet 1", "pop #0, count 1"])
    #expect(warnings.all.isEmpty)
  }

  @Test func whatAChildSentStillArrivesAfterItsDismissal() {
    // As TCA delivers what an effect has sent: a delegate action reaches the parent that closed
    // the child on the action that sent it (the gone child's reducer skips it, with a warning, as
    // TCA's does).
    let warnings = Warnings()
    let store = screen()
    store.send(.present(1))
    RuntimeWarning.withHandler({ warnings.append($0) }) {
      store.send(.sheet(.presented(.saveTapped)))
    }
    #expect(store.sheet == nil)
    #expect(store.log == ["saved 0"])
    #expect(warnings.all == ["ifLet received delegate(0) while its state is nil; ignored."])
    store.send(.present(2))
    RuntimeWarning.withHandler({ warnings.append($0) }) {
      store.send(.sheet(.presented(.closeThenFinish)))
    }
    #expect(store.log == ["saved 0", "dismiss, sheet 2"])
    #expect(warnings.all.last == "ifLet received finished while its state is nil; ignored.")
  }

  @Test func aPoppedIDIsNeverPushedAgain() {
    let warnings = Warnings()
    let store = screen()
    store.send(.push(1))
    store.send(.path(.popFrom(id: 0)))
    RuntimeWarning.withHandler({ warnings.append($0) }) {
      store.send(.path(.push(id: 0, state: Job(.init(id: 2)))))
    }
    #expect(store.path.isEmpty)
    var stack = StackState<Job>()
    stack.append(Job(.init(id: 1)))
    stack.pop(from: 0)
    RuntimeWarning.withHandler({ warnings.append($0) }) { stack[id: 0] = Job(.init(id: 2)) }
    #expect(stack.isEmpty)
    #expect(warnings.all.count == 2)
    stack[id: 5] = Job(.init(id: 3))  // a new id: pushed
    #expect(stack.ids == [5])
  }

  // MARK: - Child stores and observation

  @Test func aChildStoreStandsForThePresentationItWasMadeFor() {
    let warnings = Warnings()
    let store = screen()
    store.send(.present(1))
    let first = store.scope(state: \.sheet, action: ScreenFeature.Action.sheet)!
    first.send(.finished)
    #expect(first.done == 1)
    store.send(.hide)
    store.send(.present(1))  // presented anew, with the same id
    let second = store.scope(state: \.sheet, action: ScreenFeature.Action.sheet)!
    #expect(second !== first)
    RuntimeWarning.withHandler({ warnings.append($0) }) { first.send(.finished) }
    #expect(store.sheet?.done == 0)
    #expect(first.done == 1)  // what it last showed
    #expect(warnings.all.count == 1)
    second.send(.finished)
    #expect(store.sheet?.done == 1)
    #expect(store.scope(state: \.sheet, action: ScreenFeature.Action.sheet) === second)

    // A destination presented anew: the old destination store, and its case stores, are done.
    store.send(.showJob(1))
    let destination = store.scope(state: \.destination, action: ScreenFeature.Action.destination)!
    let job = destination.scope(case: Destination.job, action: DestinationAction.job)!
    store.send(.destination(.dismiss))
    store.send(.showJob(1))
    #expect(destination.scope(case: Destination.job, action: DestinationAction.job) == nil)
    RuntimeWarning.withHandler({ warnings.append($0) }) { job.send(.finished) }
    #expect(store.destination == .job(Job(.init(id: 1))))
    let current = store.scope(state: \.destination, action: ScreenFeature.Action.destination)!
    #expect(current !== destination)
    #expect(current.scope(case: Destination.job, action: DestinationAction.job) != nil)

    // An alert has no identity of its own (plain data): its store stands for the alert case.
    store.send(.showAlert)
    let alertDestination = store.scope(state: \.destination, action: ScreenFeature.Action.destination)!
    #expect(alertDestination.scope(case: Destination.alert, action: DestinationAction.alert) != nil)
    store.send(.showJob(3))
    #expect(!alertDestination.hasState)
    #expect(alertDestination.scope(case: Destination.job, action: DestinationAction.job) == nil)
  }

  @Test func childStoresOfPresentationsCasesAndStacks() {
    let store = screen()
    #expect(store.scope(state: \.sheet, action: ScreenFeature.Action.sheet) == nil)
    store.send(.present(1))
    let sheet = store.scope(state: \.sheet, action: ScreenFeature.Action.sheet)
    sheet?.send(.finished)
    #expect(store.sheet?.done == 1)

    var state = Screen()
    state.destination = .job(Job(.init(id: 7)))
    let shown = Store(initialState: state) { ScreenFeature(gate: Latch()) }
    let job = shown.scope(state: \.destination, action: ScreenFeature.Action.destination)?
      .scope(case: Destination.job, action: DestinationAction.job)
    job?.send(.finished)
    #expect(job?.done == 1)
    #expect(shown.scope(state: \.destination, action: ScreenFeature.Action.destination)?
      .scope(case: Destination.alert, action: DestinationAction.alert) == nil)

    store.send(.push(1))
    store.send(.push(2))
    let path = store.scope(state: \.path, action: ScreenFeature.Action.path)
    #expect(path.count == 2)
    path[id: 1]?.send(.finished)
    #expect(store.path[id: 1]?.done == 1)
    store.send(.path(.popFrom(id: 1)))
    #expect(store.scope(state: \.path, action: ScreenFeature.Action.path)[id: 1] == nil)
  }

  @Test func oneStackElementsChangeNotifiesOnlyItsReaders() {
    let store = screen()
    store.send(.push(1))
    store.send(.push(2))
    let first = tracking { store.path[id: 0]?.done }
    let second = tracking { store.path[id: 1]?.done }
    let count = tracking { store.path.count }
    store.send(.path(.element(id: 1, action: .finished)))
    #expect(first.count == 0)
    #expect(second.count == 1)
    #expect(count.count == 0)
    let countAgain = tracking { store.path.count }
    let firstAgain = tracking { store.path[id: 0]?.done }
    store.send(.push(3))
    #expect(countAgain.count == 1)
    #expect(firstAgain.count == 0)
  }
}

/// An alert presented by itself, with no child reducer (TCA's `.ifLet(\.$alert, action: \.alert)`).
@MainActor @Suite(.timeLimit(.minutes(1))) struct AlertIfLetTests {
  enum Alert: Equatable, Sendable { case confirm }
  struct Deleting: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var alert: AlertState<Alert>?; var deleted = false }
    var _$fields = Observed(Fields())
  }
  struct DeletingFeature: Reducer {
    enum Action: Equatable, Sendable { case deleteTapped, alert(PresentationAction<Alert>) }
    var body: some Reducer<Deleting, Action> {
      Reduce { state, action in
        switch action {
        case .deleteTapped: state.alert = AlertState(title: "Delete?") { ButtonState(action: .confirm) { "Delete" } }
        case .alert(.presented(.confirm)): state.deleted = true
        case .alert: break
        }
        return .none
      }
      .ifLet(\.alert, action: Action.alert)
    }
  }

  @Test func anAlertWithNoChildReducerIsDismissedAfterItsAction() {
    let store = Store(initialState: Deleting()) { DeletingFeature() }
    store.send(.deleteTapped)
    #expect(store.alert != nil)
    store.send(.alert(.presented(.confirm)))
    #expect(store.deleted)
    #expect(store.alert == nil)
  }
}
