import ValueStore

// A SyncUps app on ValueStore, after TCA's example: a list of sync-ups; a sheet to add one; a
// detail on a navigation stack with an edit sheet and a delete alert; a meeting recorder on the
// stack, with a timer. Its tests (SyncUpsTests.swift) are written as TCA's are.

struct SyncUp: ObservableState, Equatable, Sendable, Identifiable {
  struct Fields: Equatable, Sendable, Identifiable {
    let id: Int
    var title = ""
    var attendees: [String] = []
    var minutes = 5
    var meetings: [String] = []
  }
  var _$fields: Observed<Fields>
}

// MARK: - Form

struct SyncUpForm: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable { var syncUp: SyncUp }
    var _$fields: Observed<Fields>
  }
  enum Action: Equatable, Sendable {
    case setTitle(String), addAttendee(String), removeAttendee(at: Int), closeButtonTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .setTitle(title): state.syncUp.title = title
    case let .addAttendee(name): state.syncUp.attendees.append(name)
    case let .removeAttendee(index): state.syncUp.attendees.remove(at: index)
    case .closeButtonTapped: return .dismiss
    }
    return .none
  }
}

// MARK: - List

struct SyncUpsList: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var syncUps: IdentifiedArrayOf<SyncUp> = []
      var addSyncUp: SyncUpForm.State?
      var nextID = 0
    }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable {
    case addSyncUpButtonTapped, confirmAddButtonTapped, discardButtonTapped
    case addSyncUp(PresentationAction<SyncUpForm.Action>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addSyncUpButtonTapped:
        state.addSyncUp = SyncUpForm.State(.init(syncUp: SyncUp(.init(id: state.nextID))))
        state.nextID += 1
      case .confirmAddButtonTapped:
        guard let form = state.addSyncUp else { break }
        state.syncUps.append(form.syncUp)
        state.addSyncUp = nil
      case .discardButtonTapped:
        state.addSyncUp = nil
      case .addSyncUp:
        break
      }
      return .none
    }
    .ifLet(\.addSyncUp, action: Action.addSyncUp) { SyncUpForm() }
  }
}

// MARK: - Detail

struct SyncUpDetail: Reducer {
  enum Destination: Equatable, Sendable, CasePathable {
    case edit(SyncUpForm.State), alert(AlertState<Alert>)
  }
  enum Alert: Equatable, Sendable { case confirmDeletion }
  enum DestinationAction: Equatable, Sendable { case edit(SyncUpForm.Action), alert(Alert) }

  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var syncUp: SyncUp
      var destination: Destination?
    }
    var _$fields: Observed<Fields>
  }
  enum Action: Equatable, Sendable {
    case editButtonTapped, doneEditingButtonTapped, cancelEditButtonTapped, deleteButtonTapped
    case startMeetingButtonTapped
    case destination(PresentationAction<DestinationAction>)
    case delegate(Delegate)
    enum Delegate: Equatable, Sendable { case deleteSyncUp(id: Int), syncUpUpdated(SyncUp), startMeeting(SyncUp) }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .editButtonTapped:
        state.destination = .edit(SyncUpForm.State(.init(syncUp: state.syncUp)))
      case .doneEditingButtonTapped:
        guard case let .edit(form)? = state.destination else { break }
        state.syncUp = form.syncUp
        state.destination = nil
        return .send(.delegate(.syncUpUpdated(form.syncUp)))
      case .cancelEditButtonTapped:
        state.destination = nil
      case .deleteButtonTapped:
        state.destination = .alert(
          AlertState(title: "Delete?", message: "Are you sure you want to delete this meeting?") {
            ButtonState(role: .destructive, action: .confirmDeletion) { "Yes" }
            ButtonState(role: .cancel) { "Nevermind" }
          })
      case .destination(.presented(.alert(.confirmDeletion))):
        return .merge(.send(.delegate(.deleteSyncUp(id: state.syncUp.id))), .dismiss)
      case .startMeetingButtonTapped:
        return .send(.delegate(.startMeeting(state.syncUp)))
      case .destination, .delegate:
        break
      }
      return .none
    }
    .ifLet(\.destination, action: Action.destination) {
      Scope(state: Destination.edit, action: DestinationAction.edit) { SyncUpForm() }
    }
  }
}

// MARK: - Record meeting

struct RecordMeeting: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var syncUp: SyncUp
      var secondsElapsed = 0
      var speakerIndex = 0
    }
    var _$fields: Observed<Fields>
  }
  enum Action: Equatable, Sendable {
    case onTask, timerTick, nextButtonTapped, endMeetingButtonTapped
    case delegate(Delegate)
    enum Delegate: Equatable, Sendable { case save(transcript: String) }
  }
  enum CancelID { case timer }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onTask:
      return .run { [clock] send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.timerTick) }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)
    case .timerTick:
      state.secondsElapsed += 1
      let secondsPerSpeaker = state.syncUp.minutes * 60 / max(state.syncUp.attendees.count, 1)
      if state.secondsElapsed.isMultiple(of: secondsPerSpeaker) {
        if state.speakerIndex == state.syncUp.attendees.count - 1 {
          return .merge(.send(.delegate(.save(transcript: ""))), .dismiss)
        }
        state.speakerIndex += 1
      }
      return .none
    case .nextButtonTapped:
      guard state.speakerIndex < state.syncUp.attendees.count - 1 else {
        return .merge(.send(.delegate(.save(transcript: ""))), .dismiss)
      }
      state.speakerIndex += 1
      state.secondsElapsed = state.speakerIndex * state.syncUp.minutes * 60 / max(state.syncUp.attendees.count, 1)
      return .none
    case .endMeetingButtonTapped:
      return .merge(.send(.delegate(.save(transcript: "Ended early"))), .dismiss)
    case .delegate:
      return .none
    }
  }
}

// MARK: - App

struct SyncUpsApp: Reducer {
  enum Path: Equatable, Sendable, CasePathable {
    case detail(SyncUpDetail.State), record(RecordMeeting.State)
  }
  enum PathAction: Equatable, Sendable { case detail(SyncUpDetail.Action), record(RecordMeeting.Action) }

  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var list = SyncUpsList.State()
      var path = StackState<Path>()
    }
    var _$fields = Observed(Fields())
  }
  enum Action: Equatable, Sendable {
    case list(SyncUpsList.Action), path(StackAction<Path, PathAction>), syncUpTapped(id: Int)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.list, action: Action.list) { SyncUpsList() }
    Reduce { state, action in
      switch action {
      case let .syncUpTapped(id):
        guard let syncUp = state.list.syncUps[id: id] else { break }
        state.path.append(.detail(SyncUpDetail.State(.init(syncUp: syncUp))))
      case let .path(.element(_, .detail(.delegate(delegate)))):
        switch delegate {
        case let .deleteSyncUp(id): state.list.syncUps.remove(id: id)
        case let .syncUpUpdated(syncUp): state.list.syncUps[id: syncUp.id] = syncUp
        case let .startMeeting(syncUp): state.path.append(.record(RecordMeeting.State(.init(syncUp: syncUp))))
        }
      case let .path(.element(id, .record(.delegate(.save(transcript))))):
        guard let detailID = state.path.ids.last(where: { $0 < id }),
          case let .detail(detail)? = state.path[id: detailID]
        else { break }
        let meeting = transcript.isEmpty ? "Meeting \(detail.syncUp.meetings.count + 1)" : transcript
        state.path[id: detailID]?.modify(Path.detail) { $0.syncUp.meetings.append(meeting) }
        state.list.syncUps[id: detail.syncUp.id]?.meetings.append(meeting)
      case .list, .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: Action.path) {
      Scope(state: Path.detail, action: PathAction.detail) { SyncUpDetail() }
      Scope(state: Path.record, action: PathAction.record) { RecordMeeting() }
    }
  }
}
