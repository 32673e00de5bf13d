import Testing
@testable import ValueStore

/// Reads made through a holder belong to the holder's location at any depth, whatever holds the
/// value read: a copy of the root taken out and mutated outside the holder never notifies them,
/// and the holder's own mutation always does (issue 12, defect 7: elements of a plain array read
/// through a holder registered as if read on a copy).
@Suite struct AnchoringTests {
  typealias Lists = SharedIdentityTests.Lists

  /// Each read through the holder, with a bare mutation of a copy of the root that changes what
  /// it read, and the same mutation made in the holder.
  static let reads: [(name: String, read: @Sendable (ObservedRoot<Lists>) -> Void, change: @Sendable (inout Lists) -> Void)] = [
    ("a plain array's element", { _ = $0.plainFirst[0].count }, { $0.plainFirst[0].count += 1 }),
    ("a plain array's element, in read", { root in root.read { _ = $0.plainFirst[0].count } }, { $0.plainFirst[0].count += 1 }),
    ("a plain array's element, iterated", { root in for child in root.plainFirst { _ = child.count } }, { $0.plainFirst[0].count += 1 }),
    ("an identified array's element", { _ = $0.first[id: 1]?.count }, { $0.first[id: 1]?.count += 1 }),
    ("an identified array's element, iterated", { root in for row in root.first { _ = row.count } }, { $0.first[id: 1]?.count += 1 }),
    ("a nested child", { _ = $0.left.child.count }, { $0.left.child.count += 1 }),
  ]

  @Test(arguments: 0..<reads.count)
  func aReadThroughTheHolderIsNotNotifiedByACopyMutatedOutsideIt(_ index: Int) {
    let (name, read, change) = Self.reads[index]
    let root = ObservedRoot(Lists())
    let reader = tracking { read(root) }
    var copy = root.currentValue
    change(&copy)
    #expect(reader.count == 0, "spurious: \(name)")
    root.mutate(change)
    #expect(reader.count == 1, "lost: \(name)")
  }
}
