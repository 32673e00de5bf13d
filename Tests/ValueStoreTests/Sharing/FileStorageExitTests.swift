import Foundation
import Testing
@testable import ValueStore

/// A file-storage write still waiting for its file's quiet second is not lost when the process exits.
@Suite(.timeLimit(.minutes(1)))
struct FileStorageExitTests {
  @Test func aThrottledWriteIsFlushedAtExit() async throws {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      let url = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("ValueStore-FileStorageExitTests-\(UUID().uuidString).json")
      let shared = withDependencies { $0.defaultFileStorage = .fileSystem } operation: {
        Shared(wrappedValue: 0, .fileStorage(url))
      }
      shared.withLock { $0 = 1 }  // written at once
      shared.withLock { $0 = 2 }  // within the second: pending
      print(url.path)
      exit(0)
    }
    let output = String(decoding: try #require(result).standardOutputContent, as: UTF8.self)
    let path = try #require(output.split(separator: "\n").last.map(String.init))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let data = try #require(FileManager.default.contents(atPath: path))
    #expect(String(decoding: data, as: UTF8.self) == "2")
  }
}
