import Foundation
import StoreTesting
import Testing
import ValueStore

/// TCA's SyncUps tests (Examples/SyncUps/SyncUpsTests), one suite per file of theirs, with TCA's
/// assertions: a change to a shared value is asserted in the step that made it
/// (`$0.$syncUp.withLock { … }`). Received actions are named by case key paths, as TCA's
/// (`\.path[id: 1].record.timerTick`), and so are sent ones (`\.path[id: 0].detail.editButtonTapped`).
enum SyncUpsTests {}

extension SyncUpsTests {
  @MainActor @Suite(.timeLimit(.minutes(1)))
  struct AppFeatureTests {  // of `SyncUpsApp`
    /// TCA's `detailEdit`.
    @Test func editingInTheDetail() async throws {
      let syncUp = SyncUp.mock
      @Shared(.syncUps) var syncUps = [syncUp]
      let store = TestStore(initialState: SyncUpsApp.State()) {
        SyncUpsApp()
      }

      let sharedSyncUp = try #require(Shared($syncUps[id: syncUp.id]))

      await store.send(.path(.push(id: 0, state: .detail(SyncUpDetail.State(syncUp: sharedSyncUp))))) {
        $0.path[id: 0] = .detail(SyncUpDetail.State(syncUp: sharedSyncUp))
      }

      await store.send(\.path[id: 0].detail.editButtonTapped) {
        $0.path[id: 0]?.modify(SyncUpsApp.Path.detail) { $0.destination = .edit(SyncUpForm.State(syncUp: syncUp)) }
      }

      var newSyncUp = syncUp
      newSyncUp.title = "Blob"
      await store.send(\.path[id: 0].detail.destination.edit.binding.syncUp, newSyncUp) {
        $0.path[id: 0]?.modify(SyncUpsApp.Path.detail) {
          $0.destination?.modify(SyncUpDetail.Destination.edit) { $0.syncUp.title = "Blob" }
        }
      }

      await store.send(\.path[id: 0].detail.doneEditingButtonTapped) {
        $0.path[id: 0]?.modify(SyncUpsApp.Path.detail) {
          $0.destination = nil
          $0.$syncUp.withLock { $0.title = "Blob" }
        }
      }
      .finish()
    }

    /// TCA's `delete`.
    @Test func deletingAfterTheAlert() async throws {
      let syncUp = SyncUp.mock
      @Shared(.syncUps) var syncUps = [syncUp]
      let store = TestStore(initialState: SyncUpsApp.State()) {
        SyncUpsApp()
      }

      let sharedSyncUp = try #require(Shared($syncUps[id: syncUp.id]))

      await store.send(.path(.push(id: 0, state: .detail(SyncUpDetail.State(syncUp: sharedSyncUp))))) {
        $0.path[id: 0] = .detail(SyncUpDetail.State(syncUp: sharedSyncUp))
      }

      await store.send(\.path[id: 0].detail.deleteButtonTapped) {
        $0.path[id: 0]?.modify(SyncUpsApp.Path.detail) { $0.destination = .alert(.deleteSyncUp) }
      }

      await store.send(\.path[id: 0].detail.destination.alert.confirmDeletion) {
        $0.path[id: 0]?.modify(SyncUpsApp.Path.detail) { $0.destination = nil }
        $0.syncUpsList.$syncUps.withLock { $0 = [] }
      }

      await store.receive(.path(.popFrom(id: 0))) {
        $0.path = StackState()
      }
    }

    /// TCA's `recording`.
    @Test func recordingAMeetingTicksAndSavesIt() async {
      let speechResult = SpeechRecognitionResult(
        bestTranscription: Transcription(formattedString: "I completed the project"),
        isFinal: true
      )
      let syncUp = SyncUp(
        id: UUID(),
        attendees: [
          Attendee(id: UUID()),
          Attendee(id: UUID()),
          Attendee(id: UUID()),
        ],
        duration: .seconds(6)
      )

      let sharedSyncUp = Shared(value: syncUp)
      let store = TestStore(
        initialState: SyncUpsApp.State(
          .init(
            path: StackState([
              .detail(SyncUpDetail.State(syncUp: sharedSyncUp)),
              .record(RecordMeeting.State(syncUp: sharedSyncUp)),
            ])
          )
        )
      ) {
        SyncUpsApp()
      } withDependencies: {
        $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
        $0.continuousClock = ImmediateClock()
        $0.speechClient.authorizationStatus = { .authorized }
        $0.speechClient.startTask = { @Sendable in
          AsyncThrowingStream { continuation in
            continuation.yield(speechResult)
            continuation.finish()
          }
        }
        $0.uuid = .incrementing
      }

      await store.withExhaustivity(.off) {
        await store.send(\.path[id: 1].record.onTask)
        await store.receive(.path(.popFrom(id: 1))) {
          #expect($0.path.count == 1)
        }
      }
      await store.finish()
      store.assert {
        $0.path[id: 0]?.modify(SyncUpsApp.Path.detail) {
          $0.$syncUp.withLock {
            $0.meetings = [
              Meeting(
                id: UUID(0),
                date: Date(timeIntervalSince1970: 1_234_567_890),
                transcript: "I completed the project"
              )
            ]
          }
        }
      }
    }

    // Not in TCA's tests.

    @Test func leavingAMeetingCancelsItsTimer() async {
      let clock = TestClock()
      let sharedSyncUp = Shared(value: SyncUp.engineeringMock)
      let store = TestStore(
        initialState: SyncUpsApp.State(
          .init(
            path: [
              .detail(SyncUpDetail.State(syncUp: sharedSyncUp)),
              .record(RecordMeeting.State(syncUp: sharedSyncUp)),
            ]
          )
        )
      ) {
        SyncUpsApp()
      } withDependencies: {
        $0.continuousClock = clock
        $0.speechClient.authorizationStatus = { .denied }
      }
      await store.send(\.path[id: 1].record.onTask)
      await clock.advance(by: .seconds(1))
      await store.receive(\.path[id: 1].record.timerTick) {
        $0.path[id: 1]?.modify(SyncUpsApp.Path.record) { $0.secondsElapsed = 1 }
      }
      await store.send(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
      // The test ends with no effect running: popping the recorder cancelled its timer.
    }

    @Test func twoRecordersOnTheStackKeepTheirOwnTimers() async {
      let clock = TestClock()
      let recorder = RecordMeeting.State(syncUp: Shared(value: SyncUp.engineeringMock))
      let store = TestStore(initialState: SyncUpsApp.State(.init(path: [.record(recorder), .record(recorder)]))) {
        SyncUpsApp()
      } withDependencies: {
        $0.continuousClock = clock
        $0.speechClient.authorizationStatus = { .denied }
      }
      await store.send(\.path[id: 0].record.onTask)
      await store.send(\.path[id: 1].record.onTask)
      await clock.advance(by: .seconds(1))
      store.exhaustivity = .off  // which timer ticks first is up to the scheduler
      await store.receive(\.path[id: 0].record.timerTick) {
        $0.path[id: 0]?.modify(SyncUpsApp.Path.record) { $0.secondsElapsed = 1 }
      }
      await store.receive(\.path[id: 1].record.timerTick) {
        $0.path[id: 1]?.modify(SyncUpsApp.Path.record) { $0.secondsElapsed = 1 }
      }
      store.exhaustivity = .on
      await store.send(.path(.popFrom(id: 0))) { $0.path = [] }
    }
  }
}

extension SyncUpsTests {
  @MainActor @Suite(.timeLimit(.minutes(1)))
  struct RecordMeetingTests {
    static let threeAttendees = SyncUp(
      id: UUID(),
      attendees: [
        Attendee(id: UUID()),
        Attendee(id: UUID()),
        Attendee(id: UUID()),
      ],
      duration: .seconds(6)
    )

    @Test func timer() async {
      let clock = TestClock()

      let store = TestStore(initialState: RecordMeeting.State(syncUp: Shared(value: Self.threeAttendees))) {
        RecordMeeting()
      } withDependencies: {
        $0.continuousClock = clock
        $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
        $0.speechClient.authorizationStatus = { .denied }
        $0.uuid = .incrementing
      }

      await store.send(.onTask)

      await clock.advance(by: .seconds(1))
      await store.receive(.timerTick) {
        $0.speakerIndex = 0
        $0.secondsElapsed = 1
        #expect($0.durationRemaining == .seconds(5))
      }

      await clock.advance(by: .seconds(1))
      await store.receive(.timerTick) {
        $0.speakerIndex = 1
        $0.secondsElapsed = 2
        #expect($0.durationRemaining == .seconds(4))
      }

      await clock.advance(by: .seconds(1))
      await store.receive(.timerTick) {
        $0.speakerIndex = 1
        $0.secondsElapsed = 3
        #expect($0.durationRemaining == .seconds(3))
      }

      await clock.advance(by: .seconds(1))
      await store.receive(.timerTick) {
        $0.speakerIndex = 2
        $0.secondsElapsed = 4
        #expect($0.durationRemaining == .seconds(2))
      }

      await clock.advance(by: .seconds(1))
      await store.receive(.timerTick) {
        $0.speakerIndex = 2
        $0.secondsElapsed = 5
        #expect($0.durationRemaining == .seconds(1))
      }

      await clock.advance(by: .seconds(1))
      await store.receive(.timerTick) {
        $0.speakerIndex = 2
        $0.secondsElapsed = 6
        $0.$syncUp.withLock {
          _ = $0.meetings.insert(
            Meeting(
              id: UUID(0),
              date: Date(timeIntervalSince1970: 1_234_567_890),
              transcript: ""
            ),
            at: 0
          )
        }
        #expect($0.durationRemaining == .seconds(0))
      }
    }

    @Test func recordTranscript() async {
      let clock = TestClock()

      let store = TestStore(initialState: RecordMeeting.State(syncUp: Shared(value: Self.threeAttendees))) {
        RecordMeeting()
      } withDependencies: {
        $0.continuousClock = clock
        $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
        $0.speechClient.authorizationStatus = { .authorized }
        $0.speechClient.startTask = { @Sendable in
          AsyncThrowingStream { continuation in
            continuation.yield(
              SpeechRecognitionResult(
                bestTranscription: Transcription(formattedString: "I completed the project"),
                isFinal: true
              )
            )
            continuation.finish()
          }
        }
        $0.uuid = .incrementing
      }

      await store.send(.onTask)

      await store.receive(RecordMeeting.Action.speechResult) {
        $0.transcript = "I completed the project"
      }

      await store.withExhaustivity(.off(showSkippedAssertions: true)) {
        await clock.advance(by: .seconds(6))
        await store.receive(.timerTick)
        await store.receive(.timerTick)
        await store.receive(.timerTick)
        await store.receive(.timerTick)
        await store.receive(.timerTick)
        await store.receive(.timerTick)
      }

      await store.finish()
      store.assert {
        $0.$syncUp.withLock { $0.meetings[0].transcript = "I completed the project" }
      }
    }

    @Test func endMeetingSave() async {
      let clock = TestClock()

      let store = TestStore(initialState: RecordMeeting.State(syncUp: Shared(value: .mock))) {
        RecordMeeting()
      } withDependencies: {
        $0.continuousClock = clock
        $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
        $0.speechClient.authorizationStatus = { .denied }
        $0.uuid = .incrementing
      }

      await store.send(.onTask)

      await store.send(.endMeetingButtonTapped) {
        $0.alert = .endMeeting(isDiscardable: true)
      }

      await clock.advance(by: .seconds(3))
      await store.receive(.timerTick)
      await store.receive(.timerTick)
      await store.receive(.timerTick)

      await store.send(\.alert.confirmSave) {
        $0.alert = nil
        $0.$syncUp.withLock {
          _ = $0.meetings.insert(
            Meeting(
              id: UUID(0),
              date: Date(timeIntervalSince1970: 1_234_567_890),
              transcript: ""
            ),
            at: 0
          )
        }
      }
    }

    @Test func endMeetingDiscard() async {
      let clock = TestClock()

      let store = TestStore(initialState: RecordMeeting.State(syncUp: Shared(value: .mock))) {
        RecordMeeting()
      } withDependencies: {
        $0.continuousClock = clock
        $0.speechClient.authorizationStatus = { .denied }
      }

      await store.send(.onTask)

      await store.send(.endMeetingButtonTapped) {
        $0.alert = .endMeeting(isDiscardable: true)
      }

      await store.send(\.alert.confirmDiscard) {
        $0.alert = nil
      }
    }

    @Test func nextSpeaker() async {
      let clock = TestClock()

      let store = TestStore(initialState: RecordMeeting.State(syncUp: Shared(value: Self.threeAttendees))) {
        RecordMeeting()
      } withDependencies: {
        $0.continuousClock = clock
        $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
        $0.speechClient.authorizationStatus = { .denied }
        $0.uuid = .incrementing
      }

      await store.send(.onTask)

      await store.send(.nextButtonTapped) {
        $0.speakerIndex = 1
        $0.secondsElapsed = 2
      }

      await store.send(.nextButtonTapped) {
        $0.speakerIndex = 2
        $0.secondsElapsed = 4
      }

      await store.send(.nextButtonTapped) {
        $0.alert = .endMeeting(isDiscardable: false)
      }

      await store.send(\.alert.confirmSave) {
        $0.alert = nil
        $0.$syncUp.withLock {
          _ = $0.meetings.insert(
            Meeting(
              id: UUID(0),
              date: Date(timeIntervalSince1970: 1_234_567_890),
              transcript: ""
            ),
            at: 0
          )
        }
      }
    }

    @Test func continueAfterSpeechRecognitionFailure() async {
      let clock = TestClock()

      let store = TestStore(initialState: RecordMeeting.State(syncUp: Shared(value: Self.threeAttendees))) {
        RecordMeeting()
      } withDependencies: {
        $0.continuousClock = clock
        $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
        $0.speechClient.authorizationStatus = { .authorized }
        $0.speechClient.startTask = { @Sendable in
          AsyncThrowingStream {
            $0.yield(
              SpeechRecognitionResult(
                bestTranscription: Transcription(formattedString: "I completed the project"),
                isFinal: true
              )
            )
            struct SpeechRecognitionFailure: Error {}
            $0.finish(throwing: SpeechRecognitionFailure())
          }
        }
        $0.uuid = .incrementing
      }

      await store.send(.onTask)

      await store.receive(RecordMeeting.Action.speechResult) {
        $0.transcript = "I completed the project"
      }

      await store.receive(.speechFailure) {
        $0.alert = .speechRecognizerFailed
        $0.transcript = "I completed the project ❌"
      }

      await store.send(.alert(.dismiss)) {
        $0.alert = nil
      }

      await clock.advance(by: .seconds(6))

      await store.withExhaustivity(.off(showSkippedAssertions: true)) {
        await store.receive(.timerTick)
        await store.receive(.timerTick)
        await store.receive(.timerTick)
        await store.receive(.timerTick)
        await store.receive(.timerTick)
        await store.receive(.timerTick)
      }
    }

    @Test func discardAfterSpeechRecognitionFailure() async {
      let clock = TestClock()

      let store = TestStore(initialState: RecordMeeting.State(syncUp: Shared(value: .mock))) {
        RecordMeeting()
      } withDependencies: {
        $0.continuousClock = clock
        $0.speechClient.authorizationStatus = { .authorized }
        $0.speechClient.startTask = { @Sendable in
          AsyncThrowingStream {
            struct SpeechRecognitionFailure: Error {}
            $0.finish(throwing: SpeechRecognitionFailure())
          }
        }
      }

      await store.send(.onTask)

      await store.receive(.speechFailure) {
        $0.alert = .speechRecognizerFailed
      }

      await store.send(\.alert.confirmDiscard) {
        $0.alert = nil
      }
    }
  }
}

extension SyncUpsTests {
  @MainActor @Suite(.timeLimit(.minutes(1)))
  struct SyncUpDetailTests {
    @Test func speechRestricted() async {
      let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: .mock))) {
        SyncUpDetail()
      } withDependencies: {
        $0.speechClient.authorizationStatus = { .restricted }
      }

      await store.send(.startMeetingButtonTapped) {
        $0.destination = .alert(.speechRecognitionRestricted)
      }
    }

    @Test func speechDenied() async throws {
      let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: .mock))) {
        SyncUpDetail()
      } withDependencies: {
        $0.speechClient.authorizationStatus = {
          .denied
        }
      }

      await store.send(.startMeetingButtonTapped) {
        $0.destination = .alert(.speechRecognitionDenied)
      }
    }

    @Test func openSettings() async {
      let settingsOpened = LockIsolated(false)

      let store = TestStore(
        initialState: SyncUpDetail.State(
          destination: .alert(.speechRecognitionDenied),
          syncUp: Shared(value: .mock)
        )
      ) {
        SyncUpDetail()
      } withDependencies: {
        $0.openSettings = { settingsOpened.setValue(true) }
        $0.speechClient.authorizationStatus = { .denied }
      }

      await store.send(\.destination.alert.openSettings) {
        $0.destination = nil
      }
      #expect(settingsOpened.value)
    }

    @Test func continueWithoutRecording() async throws {
      let store = TestStore(
        initialState: SyncUpDetail.State(
          destination: .alert(.speechRecognitionDenied),
          syncUp: Shared(value: .mock)
        )
      ) {
        SyncUpDetail()
      } withDependencies: {
        $0.speechClient.authorizationStatus = { .denied }
      }

      await store.send(\.destination.alert.continueWithoutRecording) {
        $0.destination = nil
      }

      await store.receive(\.delegate.startMeeting)
    }

    @Test func speechAuthorized() async throws {
      let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: .mock))) {
        SyncUpDetail()
      } withDependencies: {
        $0.speechClient.authorizationStatus = { .authorized }
      }

      await store.send(.startMeetingButtonTapped)

      await store.receive(\.delegate.startMeeting)
    }

    @Test func edit() async {
      var syncUp = SyncUp.mock
      let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: syncUp))) {
        SyncUpDetail()
      } withDependencies: {
        $0.uuid = .incrementing
      }

      await store.send(.editButtonTapped) {
        $0.destination = .edit(SyncUpForm.State(syncUp: syncUp))
      }

      syncUp.title = "Blob's Meeting"
      await store.send(\.destination.edit.binding.syncUp, syncUp) {
        $0.destination?.modify(SyncUpDetail.Destination.edit) { $0.syncUp.title = "Blob's Meeting" }
      }

      await store.send(.doneEditingButtonTapped) {
        $0.destination = nil
        $0.$syncUp.withLock { $0.title = "Blob's Meeting" }
      }
    }

    @Test func delete() async throws {
      let syncUp = SyncUp.mock
      @Shared(.syncUps) var syncUps = [syncUp]
      // TCA's "TODO: Can this exhaustively be caught?": here it is (`$syncUps.withLock` below).
      // Left out, the step fails, but its message shows no difference ("Expected and Actual are
      // not equal, but they dump identically"): the change is not reachable from the state.
      defer { #expect(syncUps == []) }

      let sharedSyncUp = try #require(Shared($syncUps[id: syncUp.id]))
      let store = TestStore(initialState: SyncUpDetail.State(syncUp: sharedSyncUp)) {
        SyncUpDetail()
      }
      await store.send(.deleteButtonTapped) {
        $0.destination = .alert(.deleteSyncUp)
      }
      await store.send(\.destination.alert.confirmDeletion) {
        $0.destination = nil
        $syncUps.withLock { $0 = [] }
      }
      #expect(store.isDismissed)
    }
  }
}

extension SyncUpsTests {
  @MainActor @Suite(.timeLimit(.minutes(1)))
  struct SyncUpFormTests {
    @Test func addAttendee() async {
      let store = TestStore(
        initialState: SyncUpForm.State(
          syncUp: SyncUp(
            id: UUID(),
            attendees: [],
            title: "Engineering"
          )
        )
      ) {
        SyncUpForm()
      } withDependencies: {
        $0.uuid = .incrementing
      }

      store.assert {
        $0.syncUp.attendees = [Attendee(id: UUID(0))]
      }

      await store.send(.addAttendeeButtonTapped) {
        $0.focus = .attendee(UUID(1))
        $0.syncUp.attendees = [
          Attendee(id: UUID(0)),
          Attendee(id: UUID(1)),
        ]
      }
    }

    @Test func focusAfterRemovingAttendee() async {
      let store = TestStore(
        initialState: SyncUpForm.State(
          syncUp: SyncUp(
            id: UUID(),
            attendees: [
              Attendee(id: UUID()),
              Attendee(id: UUID()),
              Attendee(id: UUID()),
              Attendee(id: UUID()),
            ],
            title: "Engineering"
          )
        )
      ) {
        SyncUpForm()
      } withDependencies: {
        $0.uuid = .incrementing
      }

      await store.send(.deleteAttendees(atOffsets: [0])) {
        $0.focus = .attendee($0.syncUp.attendees[1].id)
        $0.syncUp.attendees = [
          $0.syncUp.attendees[1],
          $0.syncUp.attendees[2],
          $0.syncUp.attendees[3],
        ]
      }

      await store.send(.deleteAttendees(atOffsets: [1])) {
        $0.focus = .attendee($0.syncUp.attendees[2].id)
        $0.syncUp.attendees = [
          $0.syncUp.attendees[0],
          $0.syncUp.attendees[2],
        ]
      }

      await store.send(.deleteAttendees(atOffsets: [1])) {
        $0.focus = .attendee($0.syncUp.attendees[0].id)
        $0.syncUp.attendees = [
          $0.syncUp.attendees[0]
        ]
      }

      await store.send(.deleteAttendees(atOffsets: [0])) {
        $0.focus = .attendee(UUID(0))
        $0.syncUp.attendees = [
          Attendee(id: UUID(0))
        ]
      }
    }
  }
}

extension SyncUpsTests {
  @MainActor @Suite(.timeLimit(.minutes(1)))
  struct SyncUpsListTests {
    /// TCA's `add`.
    @Test func addingASyncUp() async throws {
      let store = TestStore(initialState: SyncUpsList.State()) {
        SyncUpsList()
      } withDependencies: {
        $0.uuid = .incrementing
      }

      var syncUp = SyncUp(
        id: UUID(0),
        attendees: [
          Attendee(id: UUID(1))
        ]
      )
      await store.send(.addSyncUpButtonTapped) {
        $0.destination = .add(SyncUpForm.State(syncUp: syncUp))
      }

      syncUp.title = "Engineering"
      await store.send(\.destination.add.binding.syncUp, syncUp) {
        $0.destination?.modify(SyncUpsList.Destination.add) { $0.syncUp.title = "Engineering" }
      }

      await store.send(.confirmAddSyncUpButtonTapped) {
        $0.destination = nil
        $0.$syncUps.withLock { $0 = [syncUp] }
      }
    }

    @Test func addAndConfirmValidatesAttendees() async throws {
      @Dependency(\.uuid) var uuid

      let store = TestStore(
        initialState: SyncUpsList.State(
          .init(
            destination: .add(
              SyncUpForm.State(
                syncUp: SyncUp(
                  id: UUID(uuidString: "deadbeef-dead-beef-dead-beefdeadbeef")!,
                  attendees: [
                    Attendee(id: uuid(), name: ""),
                    Attendee(id: uuid(), name: "    "),
                  ],
                  title: "Design"
                )
              )
            )
          )
        )
      ) {
        SyncUpsList()
      } withDependencies: {
        $0.uuid = .incrementing
      }

      await store.send(.confirmAddSyncUpButtonTapped) {
        $0.destination = nil
        $0.$syncUps.withLock {
          $0 = [
            SyncUp(
              id: UUID(uuidString: "deadbeef-dead-beef-dead-beefdeadbeef")!,
              attendees: [
                Attendee(id: UUID(0))
              ],
              title: "Design"
            )
          ]
        }
      }
    }

    /// Not in TCA's tests: the list's sync-ups are written to their file, as JSON.
    @Test func addedSyncUpsAreSavedToTheirFile() async throws {
      let files = LockIsolated<[URL: Data]>([:])
      let store = TestStore(initialState: SyncUpsList.State()) {
        SyncUpsList()
      } withDependencies: {
        $0.uuid = .incrementing
        $0.defaultFileStorage = FileStorage(
          load: { url in files.withValue { $0[url] } },
          save: { data, url in files.withValue { $0[url] = data } })
      }
      let syncUp = SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))])
      await store.send(.addSyncUpButtonTapped) {
        $0.destination = .add(SyncUpForm.State(syncUp: syncUp))
      }
      await store.send(.confirmAddSyncUpButtonTapped) {
        $0.destination = nil
        $0.$syncUps.withLock { $0 = [syncUp] }
      }
      let data = try #require(files.value.first { $0.key.lastPathComponent == "sync-ups.json" }?.value)
      #expect(try JSONDecoder().decode(IdentifiedArrayOf<SyncUp>.self, from: data) == [syncUp])
    }

    /// Not in TCA's tests (the port's `theAddSheetDismissesItself`, whose form had a close button).
    @Test func dismissingTheAddSheet() async {
      let store = TestStore(initialState: SyncUpsList.State()) {
        SyncUpsList()
      } withDependencies: {
        $0.uuid = .incrementing
      }
      await store.send(.addSyncUpButtonTapped) {
        $0.destination = .add(SyncUpForm.State(syncUp: SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))])))
      }
      await store.send(.dismissAddSyncUpButtonTapped) { $0.destination = nil }
    }
  }
}
