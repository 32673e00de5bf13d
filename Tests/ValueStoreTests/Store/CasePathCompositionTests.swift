import Testing
@testable import ValueStore

/// Case paths composed through several levels and identified elements, changing a payload in
/// place, and the `CasePathable` conveniences.
@Suite struct CasePathCompositionTests {
  enum AppAction: Sendable, Equatable, CasePathable {
    case tab(TabAction), rows(IdentifiedAction<Int, RowAction>), reset
  }
  enum TabAction: Sendable, Equatable { case list(ListAction), clear }
  enum ListAction: Sendable, Equatable { case search(String), searchAgain(String), refresh }
  enum RowAction: Sendable, Equatable { case setTitle(String), increment }

  @Test func composedPathsEmbedAndExtractThroughEveryLevel() {
    let search = CasePath(AppAction.tab).appending(TabAction.list).appending(ListAction.search)
    #expect(search.embed("milk") == .tab(.list(.search("milk"))))
    #expect(search.extract(from: .tab(.list(.search("milk")))) == "milk")
    // Another case at each level, and a case sharing the payload type at the last.
    for other: AppAction in [.reset, .tab(.clear), .tab(.list(.refresh)), .tab(.list(.searchAgain("milk")))] {
      #expect(search.extract(from: other) == nil, "\(other)")
    }
    let explicit = CasePath<AppAction, TabAction>(embed: AppAction.tab) { if case let .tab(a) = $0 { a } else { nil } }
    #expect(explicit.appending(TabAction.list).extract(from: .tab(.list(.refresh))) == .refresh)
  }

  @Test func identifiedElementsAreAddressedByID() {
    let row3 = CasePath(AppAction.rows)[id: 3]
    #expect(row3.embed(.increment) == .rows(.element(id: 3, action: .increment)))
    #expect(row3.extract(from: .rows(.element(id: 3, action: .increment))) == .increment)
    #expect(row3.extract(from: .rows(.element(id: 4, action: .increment))) == nil)
    #expect(row3.extract(from: .reset) == nil)
    let title = row3.appending(RowAction.setTitle)
    #expect(title.extract(from: .rows(.element(id: 3, action: .setTitle("a")))) == "a")
    #expect(title.extract(from: .rows(.element(id: 3, action: .increment))) == nil)
  }

  // MARK: - modify

  final class Storage: @unchecked Sendable { var value = 0 }
  struct Payload: Sendable { var storage = Storage(); var count = 0 }
  enum Holder: Sendable, CasePathable {
    case a(Payload), b(Payload), text(String), empty
  }
  indirect enum Tree: Sendable { case leaf(Int), node(Tree), label(String) }

  enum Single: Sendable { case only(Payload), none }

  @Test func modifyChangesAUniquelyTypedPayloadWhereItIs() {
    var single = Single.only(Payload())
    let wasUnique = CasePath(Single.only).modify(&single) { payload -> Bool in
      payload.count += 1
      return isKnownUniquelyReferenced(&payload.storage)
    }
    #expect(wasUnique == true)
    #expect(CasePath(Single.only).extract(from: single)?.count == 1)
  }

  @Test func modifyChangesThePayloadWhereItIsWithoutCopyingIt() {
    var holder = Holder.b(Payload())
    let path = CasePath(Holder.b)  // `.a` carries a `Payload` too: the case is learned
    for round in 1...3 {  // before and after the case path learns its case
      let wasUnique = path.modify(&holder) { payload -> Bool in
        payload.count += 1
        return isKnownUniquelyReferenced(&payload.storage)
      }
      #expect(wasUnique == true, "round \(round)")
    }
    #expect(path.extract(from: holder)?.count == 3)
    #expect(CasePath(Holder.a).extract(from: holder) == nil)
  }

  @Test func modifyLeavesAnotherCaseAlone() {
    for value: Holder in [.a(Payload()), .text("t"), .empty] {
      var holder = value
      let result = CasePath(Holder.b).modify(&holder) { payload -> Int in
        payload.count += 1
        return payload.count
      }
      #expect(result == nil)
      #expect("\(holder)" == "\(value)")
    }
  }

  @Test func modifyRestoresTheCaseWhenTheBodyThrows() {
    struct Failure: Error {}
    var holder = Holder.text("before")
    let path = CasePath(Holder.text)
    #expect(throws: Failure.self) {
      try path.modify(&holder) { text in
        text = "changed"
        throw Failure()
      }
    }
    #expect(path.extract(from: holder) == "changed")
    #expect(CasePath(Holder.a).extract(from: holder) == nil)
  }

  @Test func modifyOnIndirectAndComposedPaths() {
    var tree = Tree.node(.label("x"))
    CasePath(Tree.node).modify(&tree) { $0 = .leaf(2) }
    #expect(CasePath(Tree.node).appending(Tree.leaf).extract(from: tree) == 2)
    CasePath(Tree.node).appending(Tree.leaf).modify(&tree) { $0 += 1 }
    #expect(CasePath(Tree.node).appending(Tree.leaf).extract(from: tree) == 3)

    var action = AppAction.tab(.list(.search("a")))
    let search = CasePath(AppAction.tab).appending(TabAction.list).appending(ListAction.search)
    search.modify(&action) { $0 += "b" }
    #expect(action == .tab(.list(.search("ab"))))
  }

  @Test func aCasePathIsDescribedByItsCase() {
    #expect("\(CasePath(AppAction.tab))" == "CasePathCompositionTests.AppAction.tab")
    let shared = CasePath(Holder.b)
    #expect("\(shared)" == "CasePathCompositionTests.Holder.a or .b")  // not known until a value shows it
    _ = shared.extract(from: .b(Payload()))
    #expect("\(shared)" == "CasePathCompositionTests.Holder.b")
    #expect("\(CasePath(AppAction.rows)[id: 3])" == "CasePathCompositionTests.AppAction.rows → element(id: 3)")
  }

  @Test func casePathableReadsTestsAndChangesCases() {
    var holder = Holder.a(Payload(count: 1))
    #expect(holder.is(Holder.a))
    #expect(!holder.is(Holder.b))
    #expect(holder[case: Holder.a]?.count == 1)
    #expect(holder[case: Holder.text] == nil)
    holder.modify(Holder.a) { $0.count = 5 }
    #expect(holder[case: Holder.a]?.count == 5)
    #expect(holder.modify(Holder.b) { $0.count = 6 } == nil)
    #expect(AppAction.rows(.element(id: 1, action: .increment)).is(AppAction.rows))
  }

  /// An observable payload changed in place through its case notifies exactly its readers.
  @Test func anObservablePayloadChangedThroughItsCaseNotifiesItsReaders() {
    let root = ObservedRoot(Mode.editing(Child()))
    let count = tracking { root.read { $0.payload?.count } }
    let title = tracking { root.read { $0.payload?.title } }
    root.mutate { CasePath(Mode.editing).modify(&$0) { $0.count += 1 } }
    #expect(count.count == 1)
    #expect(title.count == 0)
    #expect(root.read { $0.payload?.count } == 1)
  }
}
