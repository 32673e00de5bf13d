import Foundation
import Testing

@testable import ValueStore

/// The cases of swift-identified-collections' `IdentifiedArrayCollectionOperationTests.swift`,
/// named after them: each operation, run through the generic protocols (as a generic algorithm,
/// or code written against `RangeReplaceableCollection`, would run it) on an identified array and
/// on an `Array` of the same elements, must leave the same elements and return the same result.
/// Sizes 0, 1, 4, …, 100; random counts from a seeded generator, so that a failure replays.
@Suite struct IdentifiedArrayCollectionOperationsTests {
  @Test func testMax() {
    expectSameAsArray { $0.max() }
    expectSameAsArray { $0.max(by: >) }
  }

  @Test func testMin() {
    expectSameAsArray { $0.min() }
    expectSameAsArray { $0.min(by: >) }
  }

  @Test func testRemoveFirst() {
    expectSameAsArray { $0.isEmpty ? nil : $0.removeFirst() }
  }

  @Test func testRemoveLast() {
    expectSameAsArray { $0.isEmpty ? nil : $0.removeLast() }
  }

  @Test func testReverse() {
    expectSameAsArray { $0.reverse() }
  }

  @Test func testShuffleUsing() {
    var seed: UInt64 = 7
    expectSameAsArray { collection in
      // The same stream for both: the identified array must shuffle as an `Array` does.
      var generator = RelRandom(seed: seed)
      collection.shuffle(using: &generator)
    } afterEach: {
      seed &+= 1
    }
  }

  /// `sort()` and `sort(by:)` of `MutableCollection` write the sorted elements back by position:
  /// they trapped here on the first element written where another id was.
  @Test func testSort() {
    expectSameAsArray { $0.sort() }
    expectSameAsArray { $0.sort(by: >) }
  }

  @Test func testSortUsing() {
    expectSameAsArray { $0.sort(using: KeyPathComparator(\.count)) }
    expectSameAsArray { $0.sort(using: KeyPathComparator(\.count, order: .reverse)) }
  }

  /// Beyond upstream: the rest of `RangeReplaceableCollection`, through the protocol.
  @Test func rangeReplaceableOperations() {
    // New items (new ids): the same ones for both collections.
    let (one, two) = (Item(count: 1), Item(count: 2))
    expectSameAsArray { $0.count > 2 ? $0.removeFirst(2) : $0.removeAll() }
    expectSameAsArray { $0.count > 2 ? $0.removeLast(2) : $0.removeAll() }
    expectSameAsArray { $0.popLast() }
    expectSameAsArray { $0.removeSubrange($0.count / 3..<$0.count / 2) }
    expectSameAsArray { $0.append(one) }
    expectSameAsArray { $0.insert(one, at: $0.count / 2) }
    expectSameAsArray { $0.replaceSubrange($0.count / 3..<$0.count / 2, with: [one, two]) }
    expectSameAsArray { $0.append(contentsOf: [one, two]) }
    expectSameAsArray { $0.removeAll { $0.count.isMultiple(of: 2) } }
  }

  /// Beyond upstream: a mutating algorithm on a slice writes the slice back by position.
  @Test func sliceAlgorithms() {
    expectSameAsArray { sortSecondHalf(&$0) }
    expectSameAsArray { reverseFirstHalf(&$0) }
  }
}

private func sortSecondHalf<C: OperationsCollection<Item>>(_ collection: inout C) {
  let middle = collection.index(collection.startIndex, offsetBy: collection.count / 2)
  collection[middle...].sort()
}

private func reverseFirstHalf<C: OperationsCollection<Item>>(_ collection: inout C) {
  let middle = collection.index(collection.startIndex, offsetBy: collection.count / 2)
  collection[..<middle].reverse()
}

private struct Item: Identifiable, Comparable {
  let id = UUID()
  var count: Int

  static func < (lhs: Self, rhs: Self) -> Bool { lhs.count < rhs.count }
}

/// What an `Array` and an identified array of `Identifiable` elements both are.
private protocol OperationsCollection<Element>: MutableCollection, RandomAccessCollection, RangeReplaceableCollection
where Index == Int {}
extension Array: OperationsCollection {}
extension IdentifiedArray: OperationsCollection where Element: Identifiable, ID == Element.ID {}

/// Runs `operation` on identified arrays of 0, 1, 4, … 100 items (ten of each size) and on
/// `Array`s of the same items, and expects the same elements after it and the same result.
private func expectSameAsArray<Result>(
  _ operation: (inout any OperationsCollection<Item>) -> Result,
  afterEach: () -> Void = {},
  sourceLocation: SourceLocation = #_sourceLocation
) {
  var random = RelRandom(seed: 2026)
  for n in 0...10 {
    for _ in 1...10 {
      var identified = IdentifiedArrayOf<Item>()
      for _ in 0..<(n * n) { identified.append(Item(count: Int(random.next() % 2_001) - 1_000)) }
      var lhs: any OperationsCollection<Item> = identified
      var rhs: any OperationsCollection<Item> = Array(identified)
      let lhsResult = operation(&lhs)
      let rhsResult = operation(&rhs)
      afterEach()
      let result = lhs as! IdentifiedArrayOf<Item>
      let expected = rhs as! [Item]
      #expect(result.map(\.id) == expected.map(\.id), "size \(n * n)", sourceLocation: sourceLocation)
      #expect(
        (try? result._checkInvariants()) != nil, "invariants after the operation, size \(n * n)",
        sourceLocation: sourceLocation)
      if let lhsResult = lhsResult as? any Equatable {
        let same = isEqual(lhsResult, rhsResult)
        #expect(same, "results differ, size \(n * n)", sourceLocation: sourceLocation)
      }
    }
  }
}

private func isEqual<T: Equatable>(_ lhs: T, _ rhs: Any) -> Bool {
  (rhs as? T).map { $0 == lhs } ?? false
}
