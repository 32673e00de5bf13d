import Foundation
import StoreTesting
import Testing
import ValueStore

// MARK: - States as TCA users declare them

/// Only `_$fields`: `S(.init(…))` and `S()`.
struct AdvPlain: ObservableState, Equatable, Codable, Hashable {
  struct Fields: Equatable, Codable, Hashable { var a = 0; var b = "" }
  var _$fields = Observed(Fields())
}

/// Only `_$fields`, with initializers of its own in the body.
struct AdvPlainWithInits: ObservableState, Equatable {
  struct Fields: Equatable { var a = 0; var b = "" }
  var _$fields = Observed(Fields())
  init(a: Int) { self._$fields = Observed(Fields(a: a)) }
  init(text: String, times: Int) { self._$fields = Observed(Fields(a: times, b: String(repeating: text, count: times))) }
}

/// Fields with no members at all.
struct AdvEmptyFields: ObservableState, Equatable {
  struct Fields: Equatable {}
  var _$fields = Observed(Fields())
}

/// A `let id` beside the fields: made with the memberwise initializer.
struct AdvRow: ObservableState, Equatable, Identifiable {
  let id: UUID
  struct Fields: Equatable { var title = ""; var isDone = false }
  var _$fields = Observed(Fields())
}

/// A `let id` declared after the fields, and without a default for the fields.
struct AdvRowFieldsFirst: ObservableState, Equatable, Identifiable {
  struct Fields: Equatable { var title = "" }
  var _$fields: Observed<Fields>
  let id: Int
}

/// An ignored cache beside the fields (what `@ObservationIgnored` would mark).
struct AdvCached: ObservableState, Equatable {
  struct Fields: Equatable { var query = "" }
  var _$fields = Observed(Fields())
  var cache: [String: Int] = [:]
}

/// A keyless `@Shared` beside the fields, as TCA's `Detail(syncUp: $syncUp)`.
struct AdvDetail: ObservableState, Equatable {
  @Shared var count: Int
  struct Fields: Equatable { var isEditing = false }
  var _$fields = Observed(Fields())
}

/// A `let id` and `init(_$fields:)` spelled out: `S(.init(…))` works again.
struct AdvRowWithFieldsInit: ObservableState, Equatable, Identifiable {
  var id = UUID(uuidString: "00000000-0000-0000-0000-0000000000AA")!
  struct Fields: Equatable { var title = "" }
  var _$fields = Observed(Fields())
  init(_$fields: Observed<Fields>) { self._$fields = _$fields }
  init(id: UUID, title: String) { self.id = id; self._$fields = Observed(Fields(title: title)) }
}

/// A public state, as a module's API would declare it.
public struct AdvPublicState: ObservableState, Equatable, Sendable {
  public struct Fields: Equatable, Sendable { public var value = 0; public init(value: Int = 0) { self.value = value } }
  public var _$fields = Observed(Fields())
  public init(_$fields: Observed<Fields>) { self._$fields = _$fields }
}

/// A generic state.
struct AdvGenericState<Value: Equatable & Sendable>: ObservableState, Equatable {
  struct Fields: Equatable { var value: Value; var history: [Value] = [] }
  var _$fields: Observed<Fields>
}

/// A state holding a child with a `let id`, and rows of them.
struct AdvParent: ObservableState, Equatable {
  struct Fields: Equatable {
    var child: AdvRow?
    var rows: IdentifiedArrayOf<AdvRow> = []
  }
  var _$fields = Observed(Fields())
}

// MARK: - Tests

@MainActor @Suite(.timeLimit(.minutes(1)))
struct StateConstructionAdversarialTests {
  static let id0 = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
  static let id1 = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

  @Test func fieldsOnlyStates() {
    let plain = AdvPlain(.init(a: 1, b: "x"))
    #expect(plain.a == 1 && plain.b == "x")
    #expect(AdvPlain().a == 0)
    let withInits = AdvPlainWithInits(.init(a: 2))
    #expect(withInits.a == 2)
    #expect(AdvPlainWithInits(a: 3).a == 3)
    #expect(AdvPlainWithInits(text: "ab", times: 2).b == "abab")
    #expect(AdvEmptyFields(.init()) == AdvEmptyFields(.init()))
    #expect(AdvPublicState(.init(value: 4)).value == 4)
    #expect(AdvGenericState<String>(.init(value: "g")).value == "g")
    #expect(AdvGenericState<[Int]>(.init(value: [1], history: [[0]])).history == [[0]])
    #expect(AdvRowWithFieldsInit(.init(title: "t")).title == "t")
    #expect(AdvRowWithFieldsInit(id: Self.id1, title: "u").id == Self.id1)
  }

  @Test func memberwiseStates() {
    let row = AdvRow(id: Self.id1)
    #expect(row.id == Self.id1 && row.title == "")
    let row2 = AdvRow(id: Self.id0, _$fields: Observed(.init(title: "t", isDone: true)))
    #expect(row2.title == "t" && row2.isDone)
    let first = AdvRowFieldsFirst(_$fields: Observed(.init(title: "f")), id: 3)
    #expect(first.id == 3 && first.title == "f")
    var cached = AdvCached()
    cached.cache["a"] = 1
    cached.query = "q"
    #expect(cached.cache == ["a": 1] && cached.query == "q")
    let detail = AdvDetail(count: Shared(value: 5))
    #expect(detail.count == 5)
    detail.$count.withLock { $0 += 1 }
    #expect(detail.count == 6)
  }

  /// A state with a `let id`: two rows with different ids are different rows.
  @Test func equalityIncludesTheStoredPropertiesBesideTheFields() {
    #expect(AdvRow(id: Self.id0) != AdvRow(id: Self.id1))
    var a = AdvCached()
    let b = AdvCached()
    a.cache["x"] = 1
    #expect(a != b, "a cache beside the fields is part of Swift's synthesized ==")
    #expect(AdvRowFieldsFirst(_$fields: Observed(.init()), id: 1) != AdvRowFieldsFirst(_$fields: Observed(.init()), id: 2))
  }

  @Test func identifiedArraysOfRowsWithALetID() {
    var rows: IdentifiedArrayOf<AdvRow> = [AdvRow(id: Self.id0), AdvRow(id: Self.id1)]
    rows[id: Self.id1]?.title = "one"
    #expect(rows[id: Self.id1]?.title == "one")
    #expect(rows.ids.elementsEqual([Self.id0, Self.id1]))
    #expect(rows != [AdvRow(id: Self.id1), AdvRow(id: Self.id0, _$fields: Observed(.init(title: "one")))])
  }

  @Test func codableStateWithFieldsOnly() throws {
    let data = try JSONEncoder().encode(AdvPlain(.init(a: 5, b: "five")))
    let decoded = try JSONDecoder().decode(AdvPlain.self, from: data)
    #expect(decoded == AdvPlain(.init(a: 5, b: "five")))
  }

  @Test func hashingStatesWithFieldsOnly() {
    let set: Set<AdvPlain> = [AdvPlain(.init(a: 1)), AdvPlain(.init(a: 1)), AdvPlain(.init(a: 2))]
    #expect(set.count == 2)
  }

  // MARK: TestStore over such states

  struct RowsFeature: Reducer {
    enum Action: Equatable, Sendable {
      case add(UUID)
      case replaceFirst(UUID)
      case rename(UUID, String)
      case warmCache(String)
      case bump
    }
    func reduce(into state: inout AdvParent, action: Action) -> Effect<Action> {
      switch action {
      case let .add(id): state.rows.append(AdvRow(id: id))
      case let .replaceFirst(id):
        // Same fields, another id: a different row.
        if let first = state.rows.first {
          state.rows = [AdvRow(id: id, _$fields: Observed(.init(title: first.title, isDone: first.isDone)))]
        }
      case let .rename(id, title): state.rows[id: id]?.title = title
      case .warmCache, .bump: break
      }
      return .none
    }
  }

  @Test func testStoreWithRowsMadeByTheMemberwiseInitializer() async {
    let store = TestStore(initialState: AdvParent()) { RowsFeature() }
    await store.send(.add(Self.id0)) { $0.rows = [AdvRow(id: Self.id0)] }
    await store.send(.rename(Self.id0, "zero")) { $0.rows[id: Self.id0]?.title = "zero" }
    await store.send(.add(Self.id1)) { $0.rows.append(AdvRow(id: Self.id1)) }
  }

  /// An assertion naming the wrong id must fail, and the failure must show the ids.
  @Test func testStoreCatchesAWrongLetID() async {
    let store = TestStore(initialState: AdvParent()) { RowsFeature() }
    await withKnownIssue {
      await store.send(.add(Self.id0)) { $0.rows = [AdvRow(id: Self.id1)] }
    } matching: { issue in
      "\(issue)".contains("00000000-0000-0000-0000-000000000001")
    }
  }

  /// A reducer that swaps a row for one with the same fields and another id: the test must see it.
  @Test func testStoreSeesAChangeOfTheLetIDOnly() async {
    var initial = AdvParent()
    initial.rows = [AdvRow(id: Self.id0)]
    let store = TestStore(initialState: initial) { RowsFeature() }
    await withKnownIssue {
      await store.send(.replaceFirst(Self.id1))  // asserting no change: must fail
    } matching: { issue in
      "\(issue)".contains("00000000-0000-0000-0000-000000000001")
    }
  }

  struct CacheFeature: Reducer {
    enum Action: Equatable, Sendable { case search(String) }
    func reduce(into state: inout AdvCached, action: Action) -> Effect<Action> {
      switch action {
      case let .search(query):
        state.query = query
        state.cache[query, default: 0] += 1
      }
      return .none
    }
  }

  /// The cache is not observed, but it is state: an exhaustive test asserting only the query must
  /// fail (TCA: `@ObservationIgnored` properties are still compared).
  @Test func testStoreSeesAnIgnoredCacheChange() async {
    let store = TestStore(initialState: AdvCached()) { CacheFeature() }
    await withKnownIssue {
      await store.send(.search("a")) { $0.query = "a" }
    } matching: { issue in "\(issue)".contains("cache") }
    await store.send(.search("b")) { $0.query = "b"; $0.cache = ["a": 1, "b": 1] }
  }

  struct SharedFeature: Reducer {
    enum Action: Equatable, Sendable { case increment, edit }
    func reduce(into state: inout AdvDetail, action: Action) -> Effect<Action> {
      switch action {
      case .increment: state.$count.withLock { $0 += 1 }
      case .edit: state.isEditing = true
      }
      return .none
    }
  }

  @Test func testStoreWithAKeylessShared() async {
    let store = TestStore(initialState: AdvDetail(count: Shared(value: 0))) { SharedFeature() }
    await store.send(.increment) { $0.$count.withLock { $0 = 1 } }
    await store.send(.edit) { $0.isEditing = true }
    await withKnownIssue {
      await store.send(.increment)  // not asserted
    } matching: { "\($0)".contains("count") }
  }

  @Test func testStoreWithAGenericState() async {
    let store = TestStore(initialState: AdvGenericState<String>(.init(value: "a"))) {
      Reduce<AdvGenericState<String>, String> { state, action in
        state.history.append(state.value)
        state.value = action
        return .none
      }
    }
    await store.send("b") { $0.value = "b"; $0.history = ["a"] }
  }

  // MARK: Making a state with more than its fields from its fields alone: a documented stop.

  @Test func makingARowFromItsFieldsAloneStopsWithAMessage() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AdvRow(.init(title: "x"))
    }
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = AdvCached(.init(query: "x"))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("AdvCached"), "\(message)")
    #expect(message.contains("memberwise") || message.contains("init(_$fields:)"), "\(message)")
  }

  @Test func makingASharedDetailFromItsFieldsAloneStops() async {
    await #expect(processExitsWith: .failure) {
      _ = AdvDetail(.init(isEditing: true))
    }
    await #expect(processExitsWith: .failure) {
      _ = AdvRowFieldsFirst(.init(title: "x"))
    }
  }
}

// MARK: - More shapes

/// Codable with a `let id` beside the fields (a persisted row).
struct AdvCodableRow: ObservableState, Equatable, Codable, Identifiable {
  let id: Int
  struct Fields: Equatable, Codable { var title = "" }
  var _$fields = Observed(Fields())
}

/// Hashable with a `let id` beside the fields.
struct AdvHashableRow: ObservableState, Hashable {
  let id: Int
  struct Fields: Hashable { var title = "" }
  var _$fields = Observed(Fields())
}

/// A keyed `@Shared` with no `init(_$fields:)`: `S()` still works (every property has a default).
struct AdvKeyedShared: ObservableState, Equatable {
  struct Fields: Equatable { var local = 0 }
  var _$fields = Observed(Fields())
  @Shared(.inMemory("adv-keyed")) var total = 0
}

/// Static stored properties are not stored in the value: `S(.init(…))` works.
struct AdvWithStatics: ObservableState, Equatable {
  static let defaultName = "n"
  nonisolated(unsafe) static var counter = 0
  struct Fields: Equatable { var name = AdvWithStatics.defaultName }
  var _$fields = Observed(Fields())
  var upper: String { self.name.uppercased() }
}

/// A `lazy var` is a stored property.
struct AdvLazy: ObservableState, Equatable {
  struct Fields: Equatable { var n = 1 }
  var _$fields = Observed(Fields())
  lazy var expensive: Int = 42
}

/// A stored property that takes no bytes.
struct AdvZeroSizeExtra: ObservableState, Equatable {
  struct Marker: Equatable, Sendable {}
  struct Fields: Equatable { var n = 1 }
  var _$fields = Observed(Fields())
  let marker = Marker()
}

@MainActor @Suite(.timeLimit(.minutes(1)))
struct StateConstructionMoreAdversarialTests {
  @Test func codableRowWithALetID() throws {
    let row = AdvCodableRow(id: 7, _$fields: Observed(.init(title: "t")))
    let data = try JSONEncoder().encode(row)
    let json = String(decoding: data, as: UTF8.self)
    #expect(json.contains("7"), "the id is encoded: \(json)")
    let decoded = try JSONDecoder().decode(AdvCodableRow.self, from: data)
    #expect(decoded == row)
    #expect(decoded.id == 7)
  }

  @Test func hashableRowWithALetID() {
    let set: Set<AdvHashableRow> = [AdvHashableRow(id: 1), AdvHashableRow(id: 2), AdvHashableRow(id: 1)]
    #expect(set.count == 2)
    #expect(AdvHashableRow(id: 1) != AdvHashableRow(id: 2))
  }

  @Test func keyedSharedDefaults() {
    let state = AdvKeyedShared()
    #expect(state.local == 0 && state.total == 0)
    let other = AdvKeyedShared()
    state.$total.withLock { $0 = 3 }
    #expect(other.total == 3)
  }

  @Test func keyedSharedFromFieldsAloneStops() async {
    await #expect(processExitsWith: .failure) {
      _ = AdvKeyedShared(.init(local: 1))
    }
  }

  @Test func staticsDoNotCount() {
    let state = AdvWithStatics(.init(name: "x"))
    #expect(state.upper == "X")
  }

  @Test func lazyAndZeroSizeExtrasStop() async {
    await #expect(processExitsWith: .failure) {
      _ = AdvLazy(.init(n: 2))
    }
    // A stored property that takes no bytes carries nothing to lose: made from the fields, the
    // value is complete (no stop).
    #expect(AdvZeroSizeExtra(.init(n: 2)).n == 2)
    var lazy = AdvLazy()
    #expect(lazy.expensive == 42)
    #expect(AdvZeroSizeExtra().n == 1)
  }

  /// Making fields-only states from many threads at once (the layout check is cached per type).
  @Test func concurrentConstruction() async {
    await withTaskGroup(of: Int.self) { group in
      for t in 0..<8 {
        group.addTask {
          var sum = 0
          for i in 0..<500 {
            sum += AdvPlain(.init(a: i)).a
            sum += AdvGenericState<Int>(.init(value: t)).value
            sum += AdvPublicState(.init(value: 1)).value
          }
          return sum
        }
      }
      var total = 0
      for await part in group { total += part }
      #expect(total == 8 * (499 * 500 / 2) + 500 * (0 + 1 + 2 + 3 + 4 + 5 + 6 + 7) + 8 * 500)
    }
  }

  /// A generic state over a type never seen before, made for the first time on many tasks.
  @Test func concurrentFirstConstructionOfFreshGenericTypes() async {
    struct A: Equatable, Sendable { var x = 1 }
    struct B: Equatable, Sendable { var y = "" }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          _ = AdvGenericState<A>(.init(value: A()))
          _ = AdvGenericState<B>(.init(value: B()))
          _ = AdvGenericState<[A]>(.init(value: []))
          _ = AdvGenericState<A?>(.init(value: nil))
        }
      }
    }
  }

  struct DetailFeature: Reducer {
    enum Action: Equatable, Sendable { case rename(String) }
    func reduce(into state: inout AdvRow, action: Action) -> Effect<Action> {
      switch action { case let .rename(title): state.title = title }
      return .none
    }
  }
  struct ListFeature: Reducer {
    struct State: ObservableState, Equatable {
      struct Fields: Equatable { var path = StackState<AdvRow>(); var sheet: AdvRow? }
      var _$fields = Observed(Fields())
    }
    enum Action: Equatable, Sendable {
      case path(StackAction<AdvRow, DetailFeature.Action>)
      case sheet(PresentationAction<DetailFeature.Action>)
      case open(UUID)
    }
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if case let .open(id) = action {
          state.path.append(AdvRow(id: id))
          state.sheet = AdvRow(id: id)
        }
        return .none
      }
      .forEach(\.path, action: Action.path) { DetailFeature() }
      .ifLet(\.sheet, action: Action.sheet) { DetailFeature() }
    }
  }

  /// Rows with a `let id` (memberwise) in a stack and a sheet, driven by case key paths.
  @Test func memberwiseRowsInNavigation() async {
    let id = UUID(uuidString: "00000000-0000-0000-0000-0000000000FF")!
    let store = TestStore(initialState: ListFeature.State()) { ListFeature() }
    await store.send(.open(id)) {
      $0.path.append(AdvRow(id: id))
      $0.sheet = AdvRow(id: id)
    }
    await store.send(\.path[id: 0].rename, "p") { $0.path[id: 0]?.title = "p" }
    await store.send(\.sheet.rename, "s") { $0.sheet?.title = "s" }
    await store.send(\.sheet.dismiss) { $0.sheet = nil }
  }
}

/// README's shape: a keyed `@Shared` and `init(_$fields:)` with a default argument.
struct AdvKeyedSharedWithInit: ObservableState, Equatable {
  struct Fields: Equatable { var local = 0 }
  var _$fields = Observed(Fields())
  @Shared(.inMemory("adv-keyed-init")) var total = 0
  init(_$fields: Observed<Fields> = Observed(Fields())) { self._$fields = _$fields }
}

@MainActor @Suite(.timeLimit(.minutes(1)))
struct StateConstructionKeyedSharedAdversarialTests {
  struct Feature: Reducer {
    enum Action: Equatable, Sendable { case add(Int) }
    func reduce(into state: inout AdvKeyedSharedWithInit, action: Action) -> Effect<Action> {
      switch action {
      case let .add(n):
        state.local += n
        state.$total.withLock { $0 += n }
      }
      return .none
    }
  }

  @Test func keyedSharedWithFieldsInit() async {
    #expect(AdvKeyedSharedWithInit(.init(local: 2)).local == 2)
    let store = TestStore(initialState: AdvKeyedSharedWithInit(.init(local: 1))) { Feature() }
    await store.send(.add(2)) {
      $0.local = 3
      $0.$total.withLock { $0 = 2 }
    }
    await store.send(\.add, 1) {
      $0.local = 4
      $0.$total.withLock { $0 = 3 }
    }
  }
}
