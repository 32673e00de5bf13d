import Testing
@_spi(Testing) @testable import ValueStore

/// A case key path (`\.path[id: 0].detail.delegate`) names a nested case by its names, as TCA's
/// `@CasePathable` key paths do: each shape an action nests in.
struct CaseKeyPathTests {
  enum Memo: Equatable, Sendable {
    case timerUpdated
    case delegate(Delegate)
    enum Delegate: Equatable, Sendable { case didFinish(Result<Int, Failure>) }
    struct Failure: Error, Equatable {}
  }
  enum Alert: Equatable, Sendable { case confirm, cancel }
  enum Row: Equatable, Sendable { case factResponse(String), tapped }
  enum Path: Equatable, Sendable { case detail(Memo), record(Memo) }
  enum Action: Sendable {
    case recordingMemo(Memo)
    case alert(PresentationAction<Alert>)
    case rows(IdentifiedAction<Int, Row>)
    case path(StackAction<Int, Path>)
    case labeled(count: Int, name: String)
    case loaded(value: Int)
  }

  @Test func aPayloadLessCaseNestedInAnother() {
    #expect((\Cases<Action>.recordingMemo.timerUpdated).extract(from: .recordingMemo(.timerUpdated)) != nil)
    #expect((\Cases<Action>.recordingMemo.timerUpdated).extract(from: .recordingMemo(.delegate(.didFinish(.success(1))))) == nil)
  }

  @Test func aResultsCaseFourLevelsDown() {
    let path: CaseKeyPath<Action> = \.recordingMemo.delegate.didFinish.success
    #expect(path.extract(from: .recordingMemo(.delegate(.didFinish(.success(7))))) as? Int == 7)
    #expect(path.extract(from: .recordingMemo(.delegate(.didFinish(.failure(Memo.Failure()))))) == nil)
  }

  @Test func aPresentedActionIsSteppedThroughUnnamed() {
    let path: CaseKeyPath<Action> = \.alert.confirm
    #expect(path.extract(from: .alert(.presented(.confirm))) != nil)
    #expect(path.extract(from: .alert(.presented(.cancel))) == nil)
    #expect(path.extract(from: .alert(.dismiss)) == nil)
    #expect((\Cases<Action>.alert.presented.confirm).extract(from: .alert(.presented(.confirm))) != nil)
    #expect((\Cases<Action>.alert.dismiss).extract(from: .alert(.dismiss)) != nil)
  }

  @Test func anIdentifiedElementByID() {
    let path: CaseKeyPath<Action> = \.rows[id: 3].factResponse
    #expect(path.extract(from: .rows(.element(id: 3, action: .factResponse("3!")))) as? String == "3!")
    #expect(path.extract(from: .rows(.element(id: 4, action: .factResponse("4!")))) == nil)
  }

  @Test func aStackElementByItsNumber() {
    let path: CaseKeyPath<Action> = \.path[id: 0].detail.timerUpdated
    #expect(path.extract(from: .path(.element(id: 0, action: .detail(.timerUpdated)))) != nil)
    #expect(path.extract(from: .path(.element(id: 1, action: .detail(.timerUpdated)))) == nil)
    #expect(path.extract(from: .path(.element(id: 0, action: .record(.timerUpdated)))) == nil)
    #expect(path.extract(from: .path(.popFrom(id: 0))) == nil)
  }

  @Test func aCaseWithSeveralValuesGivesThemAll() {
    let payload = (\Cases<Action>.labeled).extract(from: .labeled(count: 2, name: "x"))
    #expect((payload as? (count: Int, name: String))?.name == "x")
  }

  @Test func oneLabeledValueIsThePayload() {
    #expect((\Cases<Action>.loaded).extract(from: .loaded(value: 42)) as? Int == 42)
  }

  @Test func aMisspelledNameMatchesNothing() {
    #expect((\Cases<Action>.recordingMemmo.timerUpdated).extract(from: .recordingMemo(.timerUpdated)) == nil)
  }

  @Test func itDescribesItselfAsWritten() {
    #expect(_describe(\Cases<Action>.path[id: 0].detail.timerUpdated) == "\\.path[id: 0].detail.timerUpdated")
  }
}
