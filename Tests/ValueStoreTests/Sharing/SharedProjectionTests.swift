import Testing
@testable import ValueStore

/// A part of a shared value (`$rows[id:]`, `$settings.volume`) is shared with it, and its readers
/// hear only changes of the part.
@Suite(.timeLimit(.minutes(1)))
struct SharedProjectionTests {
  struct Row: Identifiable, Equatable, Sendable {
    let id: Int
    var title: String
  }
  struct Settings: Equatable, Sendable {
    var volume = 1.0
    var name = "a"
  }

  private func fires(_ read: @escaping () -> Void) -> LockIsolated<Int> {
    let fired = LockIsolated(0)
    withTracking { read() } onChange: { _ in fired.withValue { $0 += 1 } }
    return fired
  }

  @Test func aChangeThroughAnElementChangesTheCollection() throws {
    let rows = Shared(value: IdentifiedArray(uniqueElements: [Row(id: 1, title: "a"), Row(id: 2, title: "b")]))
    let row = try #require(Shared(rows[id: 2]))
    let listReader = fires { _ = rows.wrappedValue }
    let rowReader = fires { _ = row.wrappedValue }
    row.withLock { $0.title = "B" }
    #expect(rows.wrappedValue[id: 2]?.title == "B")
    #expect(listReader.value == 1)
    #expect(rowReader.value == 1)
  }

  @Test func aChangeOfAnotherElementIsNotTheElementsReadersBusiness() throws {
    let rows = Shared(value: IdentifiedArray(uniqueElements: [Row(id: 1, title: "a"), Row(id: 2, title: "b")]))
    let row = try #require(Shared(rows[id: 2]))
    let rowReader = fires { _ = row.wrappedValue }
    #expect(rowReader.value == 0)
    rows.withLock { $0[id: 1]?.title = "A" }
    #expect(rowReader.value == 0)
    rows.withLock { $0[id: 2]?.title = "B" }
    #expect(rowReader.value == 1)
    #expect(row.wrappedValue.title == "B")
  }

  @Test func anElementRemovedReadsAsItWasAndIsNotBroughtBack() throws {
    let rows = Shared(value: IdentifiedArray(uniqueElements: [Row(id: 1, title: "a")]))
    let row = try #require(Shared(rows[id: 1]))
    rows.withLock { $0.remove(id: 1) }
    #expect(row.wrappedValue.title == "a")
    row.withLock { $0.title = "x" }
    #expect(rows.wrappedValue.isEmpty)
    #expect(Shared(rows[id: 1]) == nil)
  }

  @Test func aMemberIsSharedWithItsValue() {
    let settings = Shared(value: Settings())
    let volume = settings.volume
    let volumeReader = fires { _ = volume.wrappedValue }
    settings.withLock { $0.name = "b" }
    #expect(volumeReader.value == 0)
    volume.withLock { $0 = 0.5 }
    #expect(settings.wrappedValue.volume == 0.5)
    #expect(volumeReader.value == 1)
  }

  @Test func aPartOfAPartIsProjectedFromTheRoot() throws {
    let rows = Shared(value: IdentifiedArray(uniqueElements: [Row(id: 1, title: "a")]))
    let title = try #require(Shared(rows[id: 1])).title
    let reader = fires { _ = title.wrappedValue }
    title.withLock { $0 = "z" }
    #expect(rows.wrappedValue[id: 1]?.title == "z")
    #expect(reader.value == 1)
  }
}
