import StoreTesting
import Testing
import ValueStore

/// The SyncUps app's tests, in TCA's style: every state change and every received action stated.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct SyncUpsTests {
  typealias App = SyncUpsApp
  let engineering = SyncUp(.init(id: 0, title: "Engineering", attendees: ["Blob", "Blob Jr"], minutes: 1))

  func app(path: StackState<App.Path> = [], clock: TestClock = TestClock()) -> TestStore<App.State, App.Action> {
    var state = App.State()
    state.list.syncUps = [engineering]
    state.list.nextID = 1
    state.path = path
    return TestStore(initialState: state) { App() } withDependencies: { $0.continuousClock = clock }
  }

  @Test func addingASyncUp() async {
    let store = TestStore(initialState: SyncUpsList.State()) { SyncUpsList() }
    await store.send(.addSyncUpButtonTapped) {
      $0.addSyncUp = SyncUpForm.State(.init(syncUp: SyncUp(.init(id: 0))))
      $0.nextID = 1
    }
    await store.send(.addSyncUp(.presented(.setTitle("Design")))) { $0.addSyncUp?.syncUp.title = "Design" }
    await store.send(.confirmAddButtonTapped) {
      $0.addSyncUp = nil
      $0.syncUps = [SyncUp(.init(id: 0, title: "Design"))]
    }
  }

  @Test func theAddSheetDismissesItself() async {
    let store = TestStore(initialState: SyncUpsList.State()) { SyncUpsList() }
    await store.send(.addSyncUpButtonTapped) {
      $0.addSyncUp = SyncUpForm.State(.init(syncUp: SyncUp(.init(id: 0))))
      $0.nextID = 1
    }
    await store.send(.addSyncUp(.presented(.closeButtonTapped)))
    await store.receive(.addSyncUp(.dismiss)) { $0.addSyncUp = nil }
  }

  @Test func editingInTheDetail() async {
    let store = app()
    let detail = CasePath(App.Action.path)[id: 0].appending(App.PathAction.detail)
    await store.send(.syncUpTapped(id: 0)) { $0.path.append(.detail(SyncUpDetail.State(.init(syncUp: engineering)))) }
    await store.send(detail, .editButtonTapped) {
      $0.path[id: 0]?.modify(App.Path.detail) {
        $0.destination = .edit(SyncUpForm.State(.init(syncUp: engineering)))
      }
    }
    await store.send(detail, .destination(.presented(.edit(.setTitle("Platform"))))) {
      $0.path[id: 0]?.modify(App.Path.detail) {
        $0.destination?.modify(SyncUpDetail.Destination.edit) { $0.syncUp.title = "Platform" }
      }
    }
    var platform = engineering
    platform.title = "Platform"
    await store.send(detail, .doneEditingButtonTapped) {
      $0.path[id: 0]?.modify(App.Path.detail) {
        $0.destination = nil
        $0.syncUp.title = "Platform"
      }
    }
    await store.receive(detail, .delegate(.syncUpUpdated(platform))) { $0.list.syncUps[id: 0]?.title = "Platform" }
  }

  @Test func deletingAfterTheAlert() async {
    let store = app(path: [.detail(SyncUpDetail.State(.init(syncUp: engineering)))])
    let detail = CasePath(App.Action.path)[id: 0].appending(App.PathAction.detail)
    await store.send(detail, .deleteButtonTapped) {
      $0.path[id: 0]?.modify(App.Path.detail) {
        $0.destination = .alert(
          AlertState(title: "Delete?", message: "Are you sure you want to delete this meeting?") {
            ButtonState(role: .destructive, action: .confirmDeletion) { "Yes" }
            ButtonState(role: .cancel) { "Nevermind" }
          })
      }
    }
    // The alert goes away with its button; the detail then asks to be deleted and dismisses itself.
    await store.send(detail, .destination(.presented(.alert(.confirmDeletion)))) {
      $0.path[id: 0]?.modify(App.Path.detail) { $0.destination = nil }
    }
    await store.receive(detail, .delegate(.deleteSyncUp(id: 0))) { $0.list.syncUps = [] }
    await store.receive(.path(.popFrom(id: 0))) { $0.path = [] }
  }

  @Test func recordingAMeetingTicksAndSavesIt() async {
    let clock = TestClock()
    let store = app(path: [.detail(SyncUpDetail.State(.init(syncUp: engineering)))], clock: clock)
    let detail = CasePath(App.Action.path)[id: 0].appending(App.PathAction.detail)
    let record = CasePath(App.Action.path)[id: 1].appending(App.PathAction.record)
    await store.send(detail, .startMeetingButtonTapped)
    await store.receive(detail, .delegate(.startMeeting(engineering))) {
      $0.path.append(.record(RecordMeeting.State(.init(syncUp: engineering))))
    }
    await store.send(record, .onTask)
    for second in 1...2 {
      await clock.advance(by: .seconds(1))
      await store.receive(record, .timerTick) {
        $0.path[id: 1]?.modify(App.Path.record) { $0.secondsElapsed = second }
      }
    }
    await store.send(record, .endMeetingButtonTapped)
    await store.receive(record, .delegate(.save(transcript: "Ended early"))) {
      $0.path[id: 0]?.modify(App.Path.detail) { $0.syncUp.meetings = ["Ended early"] }
      $0.list.syncUps[id: 0]?.meetings = ["Ended early"]
    }
    await store.receive(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }  // the timer is cancelled
  }

  @Test func leavingAMeetingCancelsItsTimer() async {
    let clock = TestClock()
    let store = app(
      path: [
        .detail(SyncUpDetail.State(.init(syncUp: engineering))),
        .record(RecordMeeting.State(.init(syncUp: engineering))),
      ], clock: clock)
    let record = CasePath(App.Action.path)[id: 1].appending(App.PathAction.record)
    await store.send(record, .onTask)
    await clock.advance(by: .seconds(1))
    await store.receive(record, .timerTick) { $0.path[id: 1]?.modify(App.Path.record) { $0.secondsElapsed = 1 } }
    await store.send(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
    // The test ends with no effect running: popping the recorder cancelled its timer.
  }

  @Test func twoRecordersOnTheStackKeepTheirOwnTimers() async {
    let clock = TestClock()
    let recorder = RecordMeeting.State(.init(syncUp: engineering))
    let store = app(path: [.record(recorder), .record(recorder)], clock: clock)
    let bottom = CasePath(App.Action.path)[id: 0].appending(App.PathAction.record)
    let top = CasePath(App.Action.path)[id: 1].appending(App.PathAction.record)
    await store.send(bottom, .onTask)
    await store.send(top, .onTask)  // the same cancellation id, cancelInFlight: the bottom's survives
    await clock.advance(by: .seconds(1))
    store.exhaustivity = .off  // which timer ticks first is up to the scheduler
    await store.receive(bottom, .timerTick) { $0.path[id: 0]?.modify(App.Path.record) { $0.secondsElapsed = 1 } }
    await store.receive(top, .timerTick) { $0.path[id: 1]?.modify(App.Path.record) { $0.secondsElapsed = 1 } }
    store.exhaustivity = .on
    await store.send(.path(.popFrom(id: 0))) { $0.path = [] }
  }
}
