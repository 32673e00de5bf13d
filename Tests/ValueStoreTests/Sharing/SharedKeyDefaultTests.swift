import Testing
@testable import ValueStore

private struct KeyedRow: Identifiable, Equatable, Codable, Sendable {
  let id: Int
  var title: String
}

extension SharedKey where Self == InMemoryKey<IdentifiedArrayOf<KeyedRow>> {
  fileprivate static var rowsWithoutDefault: Self { .inMemory("SharedKeyDefaultTests.rows") }
}

extension SharedKey where Self == InMemoryKey<IdentifiedArrayOf<KeyedRow>>.Default {
  fileprivate static var rows: Self { Self[.inMemory("SharedKeyDefaultTests.rows"), default: [KeyedRow(id: 1, title: "a")]] }
}

/// TCA spellings around keys: a key with a default of its own, a literal default for a key declared
/// as a static member, a part of a value read inside the value's own `withLock`.
@Suite(.timeLimit(.minutes(1)))
struct SharedKeyDefaultTests {
  @Test func aKeyWithADefaultNeedsNoInitialValue() {
    withDependencies { $0 = .test } operation: {
      let rows = Shared(.rows)
      #expect(rows.wrappedValue.map(\.title) == ["a"])
    }
  }

  @Test func aKeyWithADefaultNamesItsBaseKeysValue() {
    withDependencies { $0 = .test } operation: {
      let rows = Shared(.rows)
      let same = Shared(wrappedValue: [], .rowsWithoutDefault)
      rows.withLock { $0.append(KeyedRow(id: 2, title: "b")) }
      #expect(same.wrappedValue.count == 2)
    }
  }

  @Test func aLiteralDefaultTypeChecksAgainstAStaticKey() {
    withDependencies { $0 = .test } operation: {
      let rows = Shared(wrappedValue: [KeyedRow(id: 3, title: "c")], .rowsWithoutDefault)
      #expect(rows.wrappedValue.count == 1)
    }
  }

  @Test func aPartReadInsideItsValuesWithLockIsTheValueSoFar() throws {
    let rows = Shared(value: IdentifiedArray(uniqueElements: [KeyedRow(id: 1, title: "a"), KeyedRow(id: 2, title: "b")]))
    let row = try #require(Shared(rows[id: 1]))
    rows.withLock { _ = $0.remove(id: row.wrappedValue.id) }
    #expect(rows.wrappedValue.ids == [2])
    rows.withLock {
      $0.append(KeyedRow(id: 4, title: "d"))
      #expect(rows.wrappedValue.count == 2)
    }
  }
}
