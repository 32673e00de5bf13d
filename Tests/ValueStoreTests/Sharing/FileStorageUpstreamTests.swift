import Foundation
import Testing
@testable import ValueStore

/// swift-sharing's FileStorageTests, translated: the in-memory file storage of tests, then the
/// disk (`LiveTests`). Left out: what needs an injectable scheduler (`throttle`), custom
/// encode/decode (`customEncodeDecode`, `modificationDate`), `loadError`, and every case that
/// watches the file for changes made outside (`writeFile`, `deleteFile`, `moveFile`, …).
///
/// Upstream's `basics` also expects the declaration to create an empty file (where its file watcher
/// starts); ours writes nothing until the first change, so that part is not translated.
@Suite(.timeLimit(.minutes(1)))
struct FileStorageUpstreamTests {
  @Dependency(\.defaultFileStorage) var fileSystem

  @Test func basics() throws {
    @Shared(.fileStorage(.fileURL)) var users = [User]()
    #expect(fileSystem.load(.fileURL) == nil)
    $users.withLock { $0.append(.blob) }
    #expect(try fileSystem.users(for: .fileURL) == [.blob])
  }

  /// Upstream advances a test scheduler between two writes: both are written. The in-memory
  /// storage writes each change at once.
  @Test func noThrottling() throws {
    @Shared(.fileStorage(.fileURL)) var users = [User]()
    #expect(try fileSystem.users(for: .fileURL) == nil)

    $users.withLock { $0.append(.blob) }
    #expect(try fileSystem.users(for: .fileURL) == [.blob])

    $users.withLock { $0.append(.blobJr) }
    #expect(try fileSystem.users(for: .fileURL) == [.blob, .blobJr])
  }

  @Test func multipleFiles() throws {
    @Shared(.fileStorage(.fileURL)) var users = [User]()
    @Shared(.fileStorage(.anotherFileURL)) var otherUsers = [User]()

    $users.withLock { $0.append(.blob) }
    #expect(try fileSystem.users(for: .fileURL) == [.blob])
    #expect(try fileSystem.users(for: .anotherFileURL) == nil)

    $otherUsers.withLock { $0.append(.blobJr) }
    #expect(try fileSystem.users(for: .fileURL) == [.blob])
    #expect(try fileSystem.users(for: .anotherFileURL) == [.blobJr])
  }

  @Test func initialValue() throws {
    fileSystem.save(try JSONEncoder().encode([User.blob]), .fileURL)
    @Shared(.fileStorage(.fileURL)) var users = [User]()
    #expect(users == [.blob])
    #expect(try fileSystem.users(for: .fileURL) == [.blob])
  }

  /// Upstream also checks `loadError` (not here): a file that does not decode gives the default,
  /// and the next change overwrites it.
  @Test func decodeFailure() throws {
    fileSystem.save(Data("corrupt".utf8), .fileURL)
    @Shared(.fileStorage(.fileURL)) var users = [User]()
    #expect(users == [])
    #expect(fileSystem.load(.fileURL) == Data("corrupt".utf8))
    $users.withLock { $0.append(User(id: 1, name: "Blob")) }
    #expect(try fileSystem.users(for: .fileURL) == [User(id: 1, name: "Blob")])
  }

  /// Two in-memory file storages are two file systems: the same URL in each is two files, and two
  /// values. Upstream's key id includes its storage; ours is the URL alone, so both declarations
  /// share the first's value (and write to the first's storage).
  @Test func multipleInMemoryFileStorages() {
    let shared1 = withDependencies {
      $0.defaultFileStorage = .inMemory
    } operation: {
      Shared(wrappedValue: User(id: 1, name: "Blob"), .fileStorage(.userURL))
    }
    let shared2 = withDependencies {
      $0.defaultFileStorage = .inMemory
    } operation: {
      Shared(wrappedValue: User(id: 1, name: "Blob"), .fileStorage(.userURL))
    }

    shared1.withLock { $0.name = "Blob Jr" }
    #expect(shared1.wrappedValue.name == "Blob Jr")
    #expect(shared2.wrappedValue.name == "Blob")
    shared2.withLock { $0.name = "Blob Sr" }
    #expect(shared1.wrappedValue.name == "Blob Jr")
    #expect(shared2.wrappedValue.name == "Blob Sr")
  }

  /// On disk (`FileStorage.fileSystem`), each test with a directory of its own. The first write in
  /// a quiet second is made at once; later ones are coalesced (not tested here: no injectable clock).
  @Suite(.timeLimit(.minutes(1)))
  struct LiveTests {
    let directory = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("ValueStore-FileStorageUpstreamTests-\(UUID().uuidString)")
    var fileURL: URL { directory.appendingPathComponent("file.json") }
    var countsURL: URL { directory.appendingPathComponent("counts.json") }

    init() throws {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A `Shared` of `url` on disk, with `value` as its default.
    func onDisk<Value: Codable & Sendable>(_ value: Value, _ url: URL) -> Shared<Value> {
      withDependencies { $0.defaultFileStorage = .fileSystem } operation: {
        Shared(wrappedValue: value, .fileStorage(url))
      }
    }

    @Test func basics() throws {
      let users = onDisk([User](), fileURL)
      users.withLock { $0.append(.blob) }
      #expect(try JSONDecoder().decode([User].self, from: Data(contentsOf: fileURL)) == [.blob])
    }

    @Test func initialValue() throws {
      try JSONEncoder().encode([User.blob]).write(to: fileURL)

      let users = onDisk([User](), fileURL)
      #expect(users.wrappedValue == [.blob])
      #expect(try JSONDecoder().decode([User].self, from: Data(contentsOf: fileURL)) == [.blob])
    }

    /// Upstream sleeps 1 ms between rounds; not needed here (nothing to wait for).
    @Test func multipleMutations() {
      let counts = onDisk([Int: Int](), countsURL)
      let iterations = 1_000
      let buckets = 10
      for m in 1...iterations {
        for n in 1...buckets {
          counts.withLock { $0[n, default: 0] += 1 }
        }
        let expected = Dictionary((1...buckets).map { n in (n, m) }, uniquingKeysWith: { $1 })
        if counts.wrappedValue != expected {
          Issue.record("round \(m): \(counts.wrappedValue)")
          return
        }
      }
    }

    @Test func multipleMutationsFromMultipleThreads() async {
      let counts = onDisk([Int: Int](), countsURL)

      await withTaskGroup(of: Void.self) { group in
        for _ in 1...1000 {
          group.addTask {
            for _ in 1...10 {
              counts.withLock { $0[0, default: 0] += 1 }
              await Task.yield()
            }
          }
        }
      }

      #expect(counts.wrappedValue[0] == 10_000)
    }

    /// Upstream also checks `loadError == nil` (not here).
    @Test func emptyData() throws {
      try Data().write(to: fileURL)
      let count = onDisk(0, fileURL)
      #expect(count.wrappedValue == 0)
    }

    @Test func corruptData() throws {
      try Data("corrupted".utf8).write(to: fileURL)
      @Shared(value: 0) var count: Int
      $count = onDisk(0, fileURL)
      #expect(count == 0)
      $count.withLock { $0 = 1 }
      #expect(count == 1)
      #expect(try String(decoding: Data(contentsOf: fileURL), as: UTF8.self) == "1")
    }
  }
}

extension FileStorage {
  fileprivate func users(for url: URL) throws -> [User]? {
    guard let data = load(url), !data.isEmpty else { return nil }
    return try JSONDecoder().decode([User].self, from: data)
  }
}

private struct User: Codable, Equatable, Identifiable, Sendable {
  let id: Int
  var name: String
  static let blob = User(id: 1, name: "Blob")
  static let blobJr = User(id: 2, name: "Blob Jr.")
  static let blobSr = User(id: 3, name: "Blob Sr.")
  static let blobEsq = User(id: 4, name: "Blob Esq.")
}

extension URL {
  fileprivate static let fileURL = Self(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("file.json")
  fileprivate static let userURL = Self(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("user.json")
  fileprivate static let anotherFileURL = Self(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("another-file.json")
}
