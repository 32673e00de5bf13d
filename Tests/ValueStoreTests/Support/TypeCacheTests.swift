import Foundation
import Testing
@testable import ValueStore

/// `TypeCache` keys values by type in an open-addressing table it replaces as it grows: every key
/// keeps its value, computed once, across growth and threads.
@Suite struct TypeCacheTests {
  /// `count` distinct types, built by nesting generic types (so their metadata sit anywhere).
  static func distinctTypes(_ count: Int) -> [Any.Type] {
    var types: [Any.Type] = [Int.self, String.self, Double.self, UInt8.self]
    var next = 0
    while types.count < count {
      func wrap<T>(_: T.Type) -> [Any.Type] { [[T].self, T?.self, (T, Int).self, [Int: T].self] }
      types += _openExistential(types[next], do: wrap)
      next += 1
    }
    return Array(types.prefix(count))
  }

  @Test func eachTypeKeepsItsValueComputedOnceAsTheTableGrows() {
    let cache = TypeCache<Int>()
    let types = Self.distinctTypes(300)
    var made = 0
    for (index, type) in types.enumerated() {
      #expect(cache.value(for: type) { _ in made += 1; return index } == index)
      // Every earlier key is still found after each growth.
      for earlier in stride(from: 0, through: index, by: 37) {
        #expect(cache.value(for: types[earlier]) { _ in -1 } == earlier)
      }
    }
    #expect(made == types.count)
  }

  /// Readers on other threads see every key with its one value while writers grow the table.
  @Test(.timeLimit(.minutes(1))) func threadsAgreeOnEveryValue() async {
    let cache = TypeCache<Int>()
    let types = Self.distinctTypes(400)
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for thread in 0..<4 {
        group.addTask {
          var mismatches = 0
          for step in 0..<4_000 {
            let index = (step * 7 + thread * 101) % types.count
            if cache.value(for: types[index], make: { _ in index }) != index { mismatches += 1 }
          }
          return mismatches
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }
}
