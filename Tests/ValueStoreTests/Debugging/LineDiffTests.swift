import Testing

@testable import ValueStore

@Suite("LineDiff.editScript")
struct LineDiffTests {
  /// Every sequence over `alphabet` with at most `maxLength` elements.
  private static func sequences(of alphabet: [Int], maxLength: Int) -> [[Int]] {
    var all: [[Int]] = [[]]
    var previous: [[Int]] = [[]]
    for _ in 0..<maxLength {
      previous = previous.flatMap { sequence in alphabet.map { sequence + [$0] } }
      all += previous
    }
    return all
  }

  /// The length of a longest common subsequence, by the textbook dynamic program.
  private static func lcsLength(_ old: [Int], _ new: [Int]) -> Int {
    var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in old.indices {
      for j in new.indices {
        table[i + 1][j + 1] = old[i] == new[j] ? table[i][j] + 1 : max(table[i][j + 1], table[i + 1][j])
      }
    }
    return table[old.count][new.count]
  }

  /// How many lines `script` keeps, or `nil` if it does not turn `old` into `new`.
  private static func keptCount(_ script: [LineDiff.Edit], from old: [Int], to new: [Int]) -> Int? {
    var (oldIndex, newIndex, kept) = (0, 0, 0)
    for edit in script {
      switch edit {
      case .keep:
        guard oldIndex < old.count, newIndex < new.count, old[oldIndex] == new[newIndex] else { return nil }
        (oldIndex, newIndex, kept) = (oldIndex + 1, newIndex + 1, kept + 1)
      case .remove:
        oldIndex += 1
      case .insert:
        newIndex += 1
      }
    }
    return oldIndex == old.count && newIndex == new.count ? kept : nil
  }

  // Exhaustive over small inputs rather than random, so any failure reproduces exactly.
  @Test(arguments: [(alphabet: [0, 1], maxLength: 6), (alphabet: [0, 1, 2], maxLength: 4)])
  func scriptIsValidAndShortest(alphabet: [Int], maxLength: Int) {
    let all = Self.sequences(of: alphabet, maxLength: maxLength)
    var failures: [(old: [Int], new: [Int])] = []
    for old in all {
      for new in all {
        let kept = Self.keptCount(LineDiff.editScript(from: old, to: new), from: old, to: new)
        if kept != Self.lcsLength(old, new) { failures.append((old, new)) }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  @Test func scriptStaysValidWhenTooCostlyToMinimize() {
    // A scrambled permutation: thousands of edits apart, far past the exact search's cost limit.
    let new = Array(0..<3_000)
    let old = new.map { $0 * 7_919 % 3_000 }
    let script = LineDiff.editScript(from: old, to: new)
    #expect(Self.keptCount(script, from: old, to: new) != nil)
    #expect(script == LineDiff.editScript(from: old, to: new))
  }
}
