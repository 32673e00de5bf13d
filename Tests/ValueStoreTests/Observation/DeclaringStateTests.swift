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
  /// tracked, and changing it notifies nobody. The type conforms with nothing more declared and is
  /// made with its memberwise initializer.
  struct Searchable: ObservableState {
    struct Fields { var query = "" }
    var _$fields = Observed(Fields())
    var cache: [String: Int] = [:]
  }

  @Test func aStoredPropertyBesideTheFieldsIsNotObserved() {
    var state = Searchable(_$fields: Observed(.init(query: "a")))
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

  // MARK: - Stored properties beside the fields, initializers of one's own

  /// TCA's row state: a `let id` and a keyless shared-like value beside the fields. A `let` never
  /// changes, so keeping it out of `Fields` loses nothing; the state is made as TCA's is, by its
  /// memberwise initializer, and is `Identifiable` through its own `id`.
  struct Row: ObservableState, Identifiable, Equatable {
    let id: Int
    let createdBy: String
    struct Fields: Equatable { var title = ""; var isDone = false }
    var _$fields = Observed(Fields())
  }

  @Test func aLetBesideTheFieldsNeedsNoInitializerOfItsOwn() {
    var row = Row(id: 7, createdBy: "Blob")
    #expect(row.id == 7)
    #expect(row.createdBy == "Blob")
    let recorder = tracking { _ = row.createdBy; _ = row.id; _ = row.title }
    row.isDone = true
    #expect(recorder.count == 0)
    row.title = "Milk"
    #expect(recorder.count == 1)
    var rows = IdentifiedArrayOf<Row>([row, Row(id: 8, createdBy: "Blob Jr.")])
    rows[id: 8]?.title = "Eggs"
    #expect(rows.map(\.title) == ["Milk", "Eggs"])
  }

  /// An initializer with logic declared in the type's body (which takes Swift's memberwise one
  /// away) leaves `State(.init(…))` in place: the state stores nothing but its fields.
  struct Temperature: ObservableState, Equatable {
    struct Fields: Equatable { var celsius = 0.0 }
    var _$fields: Observed<Fields>
    init(fahrenheit: Double) { _$fields = Observed(Fields(celsius: (fahrenheit - 32) * 5 / 9)) }
  }

  @Test func anInitializerInTheBodyKeepsMakingAStateFromItsFields() {
    #expect(Temperature(fahrenheit: 212).celsius == 100)
    var made = Temperature(.init(celsius: 21))
    #expect(made.celsius == 21)
    let recorder = tracking { _ = made.celsius }
    let copy = made
    made.celsius = 22
    #expect(recorder.count == 1)
    #expect(copy.celsius == 21)
    #expect(storesFieldsOnly(Temperature.self, Observed<Temperature.Fields>.self))
    #expect(!storesFieldsOnly(Row.self, Observed<Row.Fields>.self))
    #expect(!storesFieldsOnly(Searchable.self, Observed<Searchable.Fields>.self))
  }

  /// Making a state from its fields alone when it stores more is a precondition failure that
  /// names the type and the way out, not a value with garbage in its other properties.
  @Test func makingAStateThatStoresMoreFromItsFieldsAloneFailsClearly() async throws {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Searchable(.init(query: "a"))
    }
    let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
    #expect(message.contains("Searchable has stored properties beside `_$fields`"))
  }
}
