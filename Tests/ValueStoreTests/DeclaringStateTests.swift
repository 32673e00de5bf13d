import Testing
@testable import ValueStore

/// Declaring state as a user would: constructing it with values and no initializer of one's own,
/// fields whose names the holders also use, a stored property kept out of observation, and the key
/// paths an observer is told about.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct DeclaringStateTests {
  struct Person: ObservableState, Equatable {
    struct Fields: Equatable { var firstName = ""; var lastName = ""; var age = 0 }
    var _$fields = Observed(Fields())
  }

  @Test func aStateIsMadeFromItsFieldsWithNoInitializerOfItsOwn() {
    let person = Person(.init(firstName: "Blob", age: 3))
    #expect(person.firstName == "Blob")
    #expect(person.lastName == "")
    #expect(person.age == 3)
    #expect(Person() == Person(.init()))
  }

  @Test func aStateMadeFromFieldsSharesNoObserversWithAnother() {
    let fields = Person.Fields(firstName: "A")
    var first = Person(fields)
    let second = Person(fields)
    let recorder = tracking { _ = first.firstName }
    var other = second
    other.firstName = "B"
    #expect(recorder.count == 0)
    first.firstName = "C"
    #expect(recorder.count == 1)
  }

  // MARK: - Fields named like the holders' own members

  /// Every name a `Store`, an `ObservedRoot` or an observable state might plausibly use itself.
  struct Named: ObservableState, Equatable {
    struct Fields: Equatable {
      var state = "state"
      var value = "value"
      var isPresent = "isPresent"
      var fields = "fields"
      var count = "count"
      var body = "body"
    }
    var _$fields = Observed(Fields())
  }

  struct NamedFeature: Reducer {
    enum Action: Equatable, Sendable { case rename(String) }
    func reduce(into state: inout Named, action: Action) -> Effect<Action> {
      if case let .rename(name) = action { state.state = name }
      return .none
    }
  }

  @Test func aFieldNamedLikeAHolderMemberReadsTheField() {
    let store = Store(initialState: Named()) { NamedFeature() }
    #expect(store.state == "state")
    #expect(store.value == "value")
    #expect(store.isPresent == "isPresent")
    #expect(store.fields == "fields")
    #expect(store.count == "count")
    #expect(store.body == "body")
    let root = ObservedRoot(Named())
    #expect(root.state == "state")
    #expect(root.value == "value")
    #expect(root.isPresent == "isPresent")
    #expect(root.fields == "fields")
    var named = Named()
    #expect(named.state == "state" && named.value == "value" && named.fields == "fields")
    named.value = "changed"
    #expect(named.value == "changed")
  }

  @Test func aFieldNamedStateIsObservedThroughTheStore() {
    let store = Store(initialState: Named()) { NamedFeature() }
    let recorder = Recorder()
    let token = store.observe { _ = store.state; recorder.record(ObservationChange(keyPaths: [])) }
    store.send(.rename("x"))
    #expect(store.state == "x")
    #expect(recorder.count == 2)
    withExtendedLifetime(token) {}  // `_ = token` does not keep it alive in an optimized build
  }

  // MARK: - Keeping a stored property out of observation

  /// `cache` is a stored property of the struct itself, beside `_$fields`: not a field, so never
  /// tracked, and changing it notifies nobody. A type with such a property declares
  /// `init(_$fields:)` (its memberwise initializer has one more parameter).
  struct Searchable: ObservableState {
    struct Fields { var query = "" }
    var _$fields = Observed(Fields())
    var cache: [String: Int] = [:]

    init(_$fields: Observed<Fields>) { self._$fields = _$fields }
  }

  @Test func aStoredPropertyBesideTheFieldsIsNotObserved() {
    var state = Searchable(.init(query: "a"))
    let recorder = tracking {
      _ = state.query
      _ = state.cache
    }
    state.cache["a"] = 1
    #expect(recorder.count == 0)
    state.query = "b"
    #expect(recorder.count == 1)
    #expect(state.cache == ["a": 1])
  }
}
