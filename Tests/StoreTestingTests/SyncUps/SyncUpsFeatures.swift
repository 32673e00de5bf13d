import Foundation
import ValueStore

// TCA's SyncUps example (Examples/SyncUps) on ValueStore, feature by feature and without views:
// a list of sync-ups persisted to a file (`@Shared(.syncUps)`), an add sheet, a detail on a
// navigation stack that edits and deletes the sync-up it shares with the list, and a meeting
// recorder (timer, speech transcript) that saves the meeting into that same shared sync-up. No
// feature writes back on another's behalf: the list, detail and recorder hold one shared value.
// Its tests (SyncUpsTests.swift) are TCA's.

// MARK: - Models

struct SyncUp: Equatable, Identifiable, Codable, Sendable {
  let id: UUID
  var attendees: IdentifiedArrayOf<Attendee> = []
  var duration: Duration = .seconds(60 * 5)
  var meetings: IdentifiedArrayOf<Meeting> = []
  var theme: Theme = .bubblegum
  var title = ""

  var durationPerAttendee: Duration {
    duration / attendees.count
  }
}

struct Attendee: Equatable, Identifiable, Codable, Sendable {
  let id: UUID
  var name = ""
}

struct Meeting: Equatable, Identifiable, Codable, Sendable {
  let id: UUID
  let date: Date
  var transcript: String
}

enum Theme: String, CaseIterable, Equatable, Identifiable, Codable, Sendable {
  case bubblegum
  case buttercup
  case indigo
  case lavender
  case magenta
  case navy
  case orange
  case oxblood
  case periwinkle
  case poppy
  case purple
  case seafoam
  case sky
  case tan
  case teal
  case yellow

  var id: Self { self }
  var name: String { rawValue.capitalized }
}

extension SyncUp {
  static let mock = Self(
    id: UUID(),
    attendees: [
      Attendee(id: UUID(), name: "Blob"),
      Attendee(id: UUID(), name: "Blob Jr"),
      Attendee(id: UUID(), name: "Blob Sr"),
      Attendee(id: UUID(), name: "Blob Esq"),
      Attendee(id: UUID(), name: "Blob III"),
      Attendee(id: UUID(), name: "Blob I"),
    ],
    duration: .seconds(60),
    meetings: [
      Meeting(
        id: UUID(),
        date: Date().addingTimeInterval(-60 * 60 * 24 * 7),
        transcript: """
          Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor \
          incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud \
          exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure \
          dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. \
          Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt \
          mollit anim id est laborum.
          """
      )
    ],
    theme: .orange,
    title: "Design"
  )

  static let engineeringMock = Self(
    id: UUID(),
    attendees: [
      Attendee(id: UUID(), name: "Blob"),
      Attendee(id: UUID(), name: "Blob Jr"),
    ],
    duration: .seconds(60 * 10),
    theme: .periwinkle,
    title: "Engineering"
  )

  static let productMock = Self(
    id: UUID(),
    attendees: [
      Attendee(id: UUID(), name: "Blob Sr"),
      Attendee(id: UUID(), name: "Blob Jr"),
    ],
    duration: .seconds(60 * 30),
    theme: .poppy,
    title: "Product"
  )
}

extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<SyncUp>>.Default {
  static var syncUps: Self {
    // TCA: `URL.documentsDirectory`, which Foundation on Linux does not have.
    Self[
      .fileStorage(
        FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
          .appending(component: "sync-ups.json")),
      default: []
    ]
  }
}

// MARK: - Dependencies

/// TCA's `SpeechClient`, without Apple's Speech framework (not on Linux): its own authorization
/// status, and a task that takes no recognition request.
struct SpeechClient: Sendable {
  var authorizationStatus: @Sendable () -> SpeechAuthorizationStatus =
    unimplemented("SpeechClient.authorizationStatus", placeholder: .denied)
  var requestAuthorization: @Sendable () async -> SpeechAuthorizationStatus =
    unimplemented("SpeechClient.requestAuthorization", placeholder: .denied)
  var startTask: @Sendable () async -> AsyncThrowingStream<SpeechRecognitionResult, any Error> =
    unimplemented("SpeechClient.startTask", placeholder: .finished())
}

enum SpeechAuthorizationStatus: Sendable {
  case notDetermined, denied, restricted, authorized
}

struct SpeechRecognitionResult: Equatable, Sendable {
  var bestTranscription: Transcription
  var isFinal: Bool
}

struct Transcription: Equatable, Sendable {
  var formattedString: String
}

extension SpeechClient: DependencyKey {
  // No speech recognizer on this platform: recording goes on without a transcript.
  static let liveValue = SpeechClient(
    authorizationStatus: { .restricted },
    requestAuthorization: { .restricted },
    startTask: { .finished() }
  )
  static let testValue = SpeechClient()
}

extension DependencyValues {
  var speechClient: SpeechClient {
    get { self[SpeechClient.self] }
    set { self[SpeechClient.self] = newValue }
  }

  var openSettings: @Sendable () async -> Void {
    get { self[OpenSettingsKey.self] }
    set { self[OpenSettingsKey.self] = newValue }
  }

  private enum OpenSettingsKey: DependencyKey {
    static let liveValue: @Sendable () async -> Void = {}  // no settings app to open here
  }
}

// MARK: - Form

struct SyncUpForm: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var focus: Field? = .title
      var syncUp: SyncUp
    }
    var _$fields: Observed<Fields>

    enum Field: Hashable, Sendable {
      case attendee(Attendee.ID)
      case title
    }
  }

  enum Action: BindableAction, Equatable, Sendable {
    case addAttendeeButtonTapped
    case binding(BindingAction<State>)
    case deleteAttendees(atOffsets: IndexSet)
  }

  @Dependency(\.uuid) var uuid

  var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .addAttendeeButtonTapped:
        let attendee = Attendee(id: uuid())
        state.syncUp.attendees.append(attendee)
        state.focus = .attendee(attendee.id)
        return .none

      case .binding:
        return .none

      case .deleteAttendees(atOffsets: let indices):
        state.syncUp.attendees.remove(atOffsets: indices)
        if state.syncUp.attendees.isEmpty {
          state.syncUp.attendees.append(Attendee(id: uuid()))
        }
        guard let firstIndex = indices.first
        else { return .none }
        let index = min(firstIndex, state.syncUp.attendees.count - 1)
        state.focus = .attendee(state.syncUp.attendees[index].id)
        return .none
      }
    }
  }
}

extension SyncUpForm.State {
  init(focus: Field? = .title, syncUp: SyncUp) {
    var syncUp = syncUp
    if syncUp.attendees.isEmpty {
      @Dependency(\.uuid) var uuid
      syncUp.attendees.append(Attendee(id: uuid()))
    }
    self.init(.init(focus: focus, syncUp: syncUp))
  }
}

// MARK: - List

struct SyncUpsList: Reducer {
  enum Destination: Equatable, Sendable, CasePathable {
    case add(SyncUpForm.State)
    case alert(AlertState<Alert>)
  }
  enum DestinationAction: Equatable, Sendable {
    case add(SyncUpForm.Action)
    case alert(Alert)
  }
  enum Alert: Equatable, Sendable {
    case confirmLoadMockData
  }

  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var destination: Destination?
    }
    var _$fields = Observed(Fields())
    @Shared(.syncUps) var syncUps
    init(_$fields: Observed<Fields> = Observed(Fields())) { self._$fields = _$fields }
  }

  enum Action: Equatable, Sendable {
    case addSyncUpButtonTapped
    case confirmAddSyncUpButtonTapped
    case destination(PresentationAction<DestinationAction>)
    case dismissAddSyncUpButtonTapped
    case onDelete(IndexSet)
  }

  @Dependency(\.uuid) var uuid

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addSyncUpButtonTapped:
        state.destination = .add(
          SyncUpForm.State(
            syncUp: SyncUp(id: uuid())
          )
        )
        return .none

      case .confirmAddSyncUpButtonTapped:
        guard case .some(.add(let editState)) = state.destination
        else { return .none }
        var syncUp = editState.syncUp
        syncUp.attendees.removeAll { attendee in
          attendee.name.allSatisfy(\.isWhitespace)
        }
        if syncUp.attendees.isEmpty {
          syncUp.attendees.append(
            editState.syncUp.attendees.first
              ?? Attendee(id: uuid())
          )
        }
        state.$syncUps.withLock { _ = $0.append(syncUp) }
        state.destination = nil
        return .none

      case .destination:
        return .none

      case .dismissAddSyncUpButtonTapped:
        state.destination = nil
        return .none

      case .onDelete(let indexSet):
        state.$syncUps.withLock { $0.remove(atOffsets: indexSet) }
        return .none
      }
    }
    .ifLet(\.destination, action: Action.destination) {
      Scope(state: Destination.add, action: DestinationAction.add) { SyncUpForm() }
    }
  }
}

// MARK: - Detail

struct SyncUpDetail: Reducer {
  enum Destination: Equatable, Sendable, CasePathable {
    case alert(AlertState<Alert>)
    case edit(SyncUpForm.State)
  }
  enum DestinationAction: Equatable, Sendable {
    case alert(Alert)
    case edit(SyncUpForm.Action)
  }
  enum Alert: Equatable, Sendable {
    case confirmDeletion
    case continueWithoutRecording
    case openSettings
  }

  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var destination: Destination?
    }
    var _$fields: Observed<Fields>
    @Shared var syncUp: SyncUp

    init(destination: Destination? = nil, syncUp: Shared<SyncUp>) {
      _$fields = Observed(Fields(destination: destination))
      _syncUp = syncUp
    }
  }

  enum Action: Equatable, Sendable {
    case cancelEditButtonTapped
    case delegate(Delegate)
    case deleteButtonTapped
    case deleteMeetings(atOffsets: IndexSet)
    case destination(PresentationAction<DestinationAction>)
    case doneEditingButtonTapped
    case editButtonTapped
    case startMeetingButtonTapped

    enum Delegate: Equatable, Sendable {
      case startMeeting(Shared<SyncUp>)
    }
  }

  @Dependency(\.dismiss) var dismiss
  @Dependency(\.openSettings) var openSettings
  @Dependency(\.speechClient.authorizationStatus) var authorizationStatus

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .cancelEditButtonTapped:
        state.destination = nil
        return .none

      case .delegate:
        return .none

      case .deleteButtonTapped:
        state.destination = .alert(.deleteSyncUp)
        return .none

      case .deleteMeetings(atOffsets: let indices):
        state.$syncUp.withLock { $0.meetings.remove(atOffsets: indices) }
        return .none

      case .destination(.presented(.alert(let alertAction))):
        switch alertAction {
        case .confirmDeletion:
          @Shared(.syncUps) var syncUps
          $syncUps.withLock { _ = $0.remove(id: state.syncUp.id) }
          return .run { _ in await dismiss() }

        case .continueWithoutRecording:
          return .send(.delegate(.startMeeting(state.$syncUp)))

        case .openSettings:
          return .run { _ in await openSettings() }
        }

      case .destination:
        return .none

      case .doneEditingButtonTapped:
        guard case .some(.edit(let editState)) = state.destination
        else { return .none }
        state.$syncUp.withLock { $0 = editState.syncUp }
        state.destination = nil
        return .none

      case .editButtonTapped:
        state.destination = .edit(SyncUpForm.State(syncUp: state.syncUp))
        return .none

      case .startMeetingButtonTapped:
        switch authorizationStatus() {
        case .notDetermined, .authorized:
          return .send(.delegate(.startMeeting(state.$syncUp)))

        case .denied:
          state.destination = .alert(.speechRecognitionDenied)
          return .none

        case .restricted:
          state.destination = .alert(.speechRecognitionRestricted)
          return .none
        }
      }
    }
    .ifLet(\.destination, action: Action.destination) {
      Scope(state: Destination.edit, action: DestinationAction.edit) { SyncUpForm() }
    }
  }
}

extension AlertState where Action == SyncUpDetail.Alert {
  static let deleteSyncUp = Self {
    TextState("Delete?")
  } actions: {
    ButtonState(role: .destructive, action: .confirmDeletion) {
      TextState("Yes")
    }
    ButtonState(role: .cancel) {
      TextState("Nevermind")
    }
  } message: {
    TextState("Are you sure you want to delete this meeting?")
  }

  static let speechRecognitionDenied = Self {
    TextState("Speech recognition denied")
  } actions: {
    ButtonState(action: .continueWithoutRecording) {
      TextState("Continue without recording")
    }
    ButtonState(action: .openSettings) {
      TextState("Open settings")
    }
    ButtonState(role: .cancel) {
      TextState("Cancel")
    }
  } message: {
    TextState(
      """
      You previously denied speech recognition and so your meeting will not be recorded. You can \
      enable speech recognition in settings, or you can continue without recording.
      """
    )
  }

  static let speechRecognitionRestricted = Self {
    TextState("Speech recognition restricted")
  } actions: {
    ButtonState(action: .continueWithoutRecording) {
      TextState("Continue without recording")
    }
    ButtonState(role: .cancel) {
      TextState("Cancel")
    }
  } message: {
    TextState(
      """
      Your device does not support speech recognition and so your meeting will not be recorded.
      """
    )
  }
}

// MARK: - Record meeting

struct RecordMeeting: Reducer {
  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var alert: AlertState<Action.Alert>?
      var secondsElapsed = 0
      var speakerIndex = 0
      var transcript = ""
    }
    var _$fields: Observed<Fields>
    @Shared var syncUp: SyncUp

    var durationRemaining: Duration {
      syncUp.duration - .seconds(self.secondsElapsed)
    }

    init(alert: AlertState<Action.Alert>? = nil, syncUp: Shared<SyncUp>) {
      _$fields = Observed(Fields(alert: alert))
      _syncUp = syncUp
    }
  }

  enum Action: Equatable, Sendable {
    case alert(PresentationAction<Alert>)
    case endMeetingButtonTapped
    case nextButtonTapped
    case onTask
    case timerTick
    case speechFailure
    case speechResult(SpeechRecognitionResult)

    enum Alert: Equatable, Sendable {
      case confirmDiscard
      case confirmSave
    }
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.speechClient) var speechClient

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDiscard)):
        return .run { _ in await dismiss() }

      case .alert(.presented(.confirmSave)):
        state.$syncUp.withLock { $0.insert(transcript: state.transcript) }
        return .run { _ in await dismiss() }

      case .alert:
        return .none

      case .endMeetingButtonTapped:
        state.alert = .endMeeting(isDiscardable: true)
        return .none

      case .nextButtonTapped:
        guard state.speakerIndex < state.syncUp.attendees.count - 1
        else {
          state.alert = .endMeeting(isDiscardable: false)
          return .none
        }
        state.speakerIndex += 1
        state.secondsElapsed =
          state.speakerIndex * Int(state.syncUp.durationPerAttendee.components.seconds)
        return .none

      case .onTask:
        return .run { send in
          let authorization =
            speechClient.authorizationStatus() == .notDetermined
            ? await speechClient.requestAuthorization()
            : speechClient.authorizationStatus()

          await withDiscardingTaskGroup { group in
            if authorization == .authorized {
              group.addTask {
                await startSpeechRecognition(send: send)
              }
            }
            group.addTask {
              await startTimer(send: send)
            }
          }
        }

      case .timerTick:
        guard state.alert == nil
        else { return .none }

        state.secondsElapsed += 1

        let secondsPerAttendee = Int(state.syncUp.durationPerAttendee.components.seconds)
        if state.secondsElapsed.isMultiple(of: secondsPerAttendee) {
          if state.secondsElapsed == state.syncUp.duration.components.seconds {
            state.$syncUp.withLock { $0.insert(transcript: state.transcript) }
            return .run { _ in await dismiss() }
          }
          state.speakerIndex += 1
        }

        return .none

      case .speechFailure:
        if !state.transcript.isEmpty {
          state.transcript += " ❌"
        }
        state.alert = .speechRecognizerFailed
        return .none

      case .speechResult(let result):
        state.transcript = result.bestTranscription.formattedString
        return .none
      }
    }
    .ifLet(\.alert, action: Action.alert)
  }

  private func startSpeechRecognition(send: Send<Action>) async {
    do {
      let speechTask = await speechClient.startTask()
      for try await result in speechTask {
        await send(.speechResult(result))
      }
    } catch {
      await send(.speechFailure)
    }
  }

  private func startTimer(send: Send<Action>) async {
    for await _ in clock.timer(interval: .seconds(1)) {
      await send(.timerTick)
    }
  }
}

extension SyncUp {
  fileprivate mutating func insert(transcript: String) {
    @Dependency(\.date.now) var now
    @Dependency(\.uuid) var uuid
    meetings.insert(
      Meeting(
        id: uuid(),
        date: now,
        transcript: transcript
      ),
      at: 0
    )
  }
}

extension AlertState where Action == RecordMeeting.Action.Alert {
  static func endMeeting(isDiscardable: Bool) -> Self {
    Self {
      TextState("End meeting?")
    } actions: {
      ButtonState(action: .confirmSave) {
        TextState("Save and end")
      }
      if isDiscardable {
        ButtonState(role: .destructive, action: .confirmDiscard) {
          TextState("Discard")
        }
      }
      ButtonState(role: .cancel) {
        TextState("Resume")
      }
    } message: {
      TextState("You are ending the meeting early. What would you like to do?")
    }
  }

  static let speechRecognizerFailed = Self {
    TextState("Speech recognition failure")
  } actions: {
    ButtonState(role: .cancel) {
      TextState("Continue meeting")
    }
    ButtonState(role: .destructive, action: .confirmDiscard) {
      TextState("Discard meeting")
    }
  } message: {
    TextState(
      """
      The speech recognizer has failed for some reason and so your meeting will no longer be \
      recorded. What do you want to do?
      """
    )
  }
}

// MARK: - App

/// TCA's `AppFeature` (the name is taken in this test target by the README's example).
struct SyncUpsApp: Reducer {
  enum Path: Equatable, Sendable, CasePathable {
    case detail(SyncUpDetail.State)
    case meeting(Meeting, syncUp: SyncUp)
    case record(RecordMeeting.State)
  }
  enum PathAction: Equatable, Sendable {
    case detail(SyncUpDetail.Action)
    case record(RecordMeeting.Action)
  }

  struct State: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var path = StackState<Path>()
      var syncUpsList = SyncUpsList.State()
    }
    var _$fields = Observed(Fields())
  }

  enum Action: Equatable, Sendable {
    case path(StackAction<Path, PathAction>)
    case syncUpsList(SyncUpsList.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.syncUpsList, action: Action.syncUpsList) {
      SyncUpsList()
    }
    Reduce { state, action in
      switch action {
      case .path(.element(_, .detail(.delegate(let delegateAction)))):
        switch delegateAction {
        case .startMeeting(let sharedSyncUp):
          state.path.append(.record(RecordMeeting.State(syncUp: sharedSyncUp)))
          return .none
        }

      case .path:
        return .none

      case .syncUpsList:
        return .none
      }
    }
    .forEach(\.path, action: Action.path) {
      Scope(state: Path.detail, action: PathAction.detail) { SyncUpDetail() }
      Scope(state: Path.record, action: PathAction.record) { RecordMeeting() }
    }
  }
}
