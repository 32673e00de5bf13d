import Testing
@testable import ValueStore

/// Two locations given the same value (`a = b`, `mode = .editing(child)`, `list2 = list1`) are two
/// values from then on: mutating one never notifies, nor takes away, the other's observers.
@Suite struct SharedIdentityTests {
  struct Lists: ObservableState, Equatable, Sendable {
    struct Fields: Equatable, Sendable {
      var first: IdentifiedArrayOf<Row> = [Row(id: 1)]
      var second: IdentifiedArrayOf<Row> = []
      var plainFirst: [Child] = [Child()]
      var plainSecond: [Child] = []
      var left = RelState()
      var right = RelState()
    }
    var _$fields = Observed(Fields())
  }

  @Test func anIdentifiedArrayAssignedToASecondField() {
    let root = ObservedRoot(Lists())
    root.mutate { $0.second = $0.first }
    let title = tracking { root.read { $0.first[id: 1]?.title } }
    let count = tracking { root.read { $0.first[id: 1]?.count } }
    root.mutate { $0.second[id: 1]?.count += 1 }
    #expect(count.count == 0)
    root.mutate { $0.first[id: 1]?.title = "x" }
    #expect(title.count == 1)
  }

  @Test func aPlainArrayAssignedToASecondField() {
    let root = ObservedRoot(Lists())
    root.mutate { $0.plainSecond = $0.plainFirst }
    let title = tracking { root.read { $0.plainFirst[0].title } }
    let count = tracking { root.read { $0.plainFirst[0].count } }
    root.mutate { $0.plainSecond[0].count += 1 }
    #expect(count.count == 0)
    root.mutate { $0.plainFirst[0].title = "x" }
    #expect(title.count == 1)
  }

  @Test func aStructAssignedToASecondFieldAtDepthTwo() {
    let root = ObservedRoot(Lists())
    root.mutate { $0.right = $0.left }
    let title = tracking { root.read { $0.left.child.title } }
    let count = tracking { root.read { $0.left.child.count } }
    root.mutate { $0.right.child.count += 1 }
    #expect(count.count == 0)
    root.mutate { $0.left.child.title = "x" }
    #expect(title.count == 1)
  }

  @Test func anElementAppendedFromAnotherCollection() {
    let root = ObservedRoot(Lists())
    root.mutate { $0.second.append($0.first[id: 1]!) }
    let title = tracking { root.read { $0.first[id: 1]?.title } }
    let count = tracking { root.read { $0.first[id: 1]?.count } }
    root.mutate { $0.second[id: 1]?.count += 1 }
    #expect(count.count == 0)
    root.mutate { $0.first[id: 1]?.title = "x" }
    #expect(title.count == 1)
  }

  @Test func anElementReplacedByOneFromAnotherCollection() {
    let root = ObservedRoot(Lists())
    root.mutate { $0.second = [Row(id: 1, title: "mine")] }
    let mine = tracking { root.read { $0.second[id: 1]?.title } }
    root.mutate { $0.second[id: 1] = $0.first[id: 1] }
    #expect(mine.count == 1)
    let title = tracking { root.read { $0.first[id: 1]?.title } }
    root.mutate { $0.second[id: 1]?.title = "changed" }
    #expect(title.count == 0)
    root.mutate { $0.first[id: 1]?.title = "x" }
    #expect(title.count == 1)
  }

  /// A write-back is not a replacement: the copy's changes are adopted, its observers kept.
  @Test func aWriteBackKeepsItsObservers() {
    let root = ObservedRoot(Lists())
    let count = tracking { root.read { $0.left.child.count } }
    let title = tracking { root.read { $0.left.child.title } }
    var copy = root.currentValue.left
    copy.child.count += 1
    root.mutate { $0.left = copy }
    #expect(count.count == 1)
    #expect(title.count == 0)
    root.mutate { $0.left.child.title = "x" }
    #expect(title.count == 1)
  }

  /// Randomized (seed 0x…5438, 30,000 sequences): the payload comes from a child forked earlier in
  /// the same mutation; the child's pending adoption must survive the mode's replacement.
  @Test func aPayloadTakenFromAChildForkedInTheSameMutation() {
    let root = ObservedRoot(RelState())
    let snapshot = root.currentValue
    let count = tracking { root.read { $0.child.count } }
    root.mutate {
      $0.child.count -= 1
      $0.mode = .editing($0.child)
    }
    #expect(count.count == 1)
    #expect(snapshot.child.count == 0)
  }

  // MARK: Sharing from the start (issue 12, defect 4)

  /// Every way two fields can be given one value before any slot sees an assignment: an
  /// initializer, a holder's initial value, a store's initial state, a value taken from another
  /// holder, a child replacing itself with its sibling.
  static let sharedFromTheStart: [(name: String, make: @Sendable () -> ObservedRoot<AppState>)] = [
    ("an initializer", {
      let c = Child()
      return ObservedRoot(AppState(_$fields: Observed(.init(a: c, b: c))))
    }),
    ("another holder's value", {
      let first = ObservedRoot(AppState())
      _ = tracking { first.a.title }
      return ObservedRoot(first.currentValue)
    }),
    ("a child replacing itself with its sibling", {
      let root = ObservedRoot(AppState())
      root.mutate { $0.a.replace(with: $0.b) }
      return root
    }),
  ]

  @Test(arguments: 0..<sharedFromTheStart.count)
  func twoFieldsSharingAValueFromTheStartAreTwoLocations(_ index: Int) {
    let root = Self.sharedFromTheStart[index].make()
    let title = tracking { root.a.title }
    let count = tracking { root.b.count }
    root.mutate { $0.b.count += 1 }
    #expect(count.count == 1)
    #expect(title.count == 0, "spurious (\(Self.sharedFromTheStart[index].name))")
    root.mutate { $0.a.title = "x" }
    #expect(title.count == 1, "lost (\(Self.sharedFromTheStart[index].name))")
  }

  @MainActor @Test func aStoresInitialStateWithASharedValue() {
    let c = Child()
    let store = Store(initialState: AppState(_$fields: Observed(.init(a: c, b: c)))) {
      Reduce<AppState, Int> { state, action in
        if action == 1 { state.b.count += 1 } else { state.a.title = "x" }
        return .none
      }
    }
    let title = tracking { store.a.title }
    let count = tracking { store.b.count }
    store.send(1)
    #expect(count.count == 1)
    #expect(title.count == 0)
    store.send(2)
    #expect(title.count == 1)
  }

  @Test func twoHoldersMadeFromOneValueAreTwoLocations() {
    let first = ObservedRoot(AppState())
    let second = ObservedRoot(first.currentValue)
    let firstTitle = tracking { first.a.title }
    let secondTitle = tracking { second.a.title }
    second.mutate { $0.a.title = "second" }
    #expect(secondTitle.count == 1)
    #expect(firstTitle.count == 0)
    first.mutate { $0.a.title = "first" }
    #expect(firstTitle.count == 1)
  }

  @Test func twoElementsOfAPlainArraySharingAValueFromTheStart() {
    let c = Child()
    let root = ObservedRoot(Lists(_$fields: Observed(.init(plainFirst: [c, c]))))
    let first = tracking { root.plainFirst[0].title }
    let second = tracking { root.plainFirst[1].count }
    root.mutate { $0.plainFirst[1].count += 1 }
    #expect(second.count == 1)
    #expect(first.count == 0)
    root.mutate { $0.plainFirst[0].title = "x" }
    #expect(first.count == 1)
  }

  @Test func aBareValueSharingAChildFromTheStartNeverLoses() {
    let c = Child()
    var state = AppState(_$fields: Observed(.init(a: c, b: c)))
    let title = tracking { state.a.title }
    state.b.count += 1
    state.a.title = "x"
    #expect(title.count == 1)
  }
}

extension Child {
  /// A user's way of resetting a value from another (`self = other`).
  mutating func replace(with other: Child) { self = other }
}

