import Foundation

/// Where `.fileStorage` keys read and write their files: the disk in an app, memory in tests (a
/// test touches the disk only if it overrides ``DependencyValues/defaultFileStorage`` with
/// ``fileSystem``).
///
/// ```swift
/// let store = TestStore(initialState: …) { … } withDependencies: {
///   $0.defaultFileStorage = .inMemory   // the default in tests
/// }
/// ```
public struct FileStorage: Sendable {
  /// The file's contents, or nil if there is none.
  ///
  /// A storage of your own (a fake that fails, a recorder) is made with ``init(load:save:)``:
  ///
  /// ```swift
  /// $0.defaultFileStorage = FileStorage(load: { _ in nil }, save: { data, url in log.append(url) })
  /// ```
  public var load: @Sendable (URL) -> Data?
  /// Writes the contents of a file (a later write may replace a pending one).
  public var save: @Sendable (Data, URL) -> Void
  /// Names the files: keys of one URL in two storages name two values. Held, so that its address
  /// names no other storage while a key (and the value it names) keeps this one.
  private let token: any AnyObject & Sendable
  var identity: ObjectIdentifier { ObjectIdentifier(token) }

  /// A storage of your own; each one made is distinct from every other.
  public init(load: @escaping @Sendable (URL) -> Data?, save: @escaping @Sendable (Data, URL) -> Void) {
    self.init(load: load, save: save, token: StorageToken())
  }

  private init(
    load: @escaping @Sendable (URL) -> Data?, save: @escaping @Sendable (Data, URL) -> Void, token: any AnyObject & Sendable
  ) {
    self.load = load
    self.save = save
    self.token = token
  }

  private final class StorageToken: Sendable {
    static let disk = StorageToken()
  }

  /// The disk. Writes are throttled: the first after a quiet second is written at once, later ones
  /// within the second are coalesced into one write at its end. None is lost at exit: pending writes
  /// are flushed when the process exits normally (`exit`, the end of `main`).
  public static var fileSystem: FileStorage {
    FileStorage(
      load: { url in try? Data(contentsOf: url) },
      save: { data, url in ThrottledWriter.shared.write(data, to: url) },
      token: StorageToken.disk
    )
  }

  /// Files in memory: each `inMemory` value has its own.
  public static var inMemory: FileStorage {
    let files = LockIsolated<[URL: Data]>([:])
    return FileStorage(
      load: { url in files.withValue { $0[url] } },
      save: { data, url in files.withValue { $0[url] = data } },
      token: files
    )
  }
}

/// Writes files at most once a second each; flushes what is pending at exit.
final class ThrottledWriter: Sendable {
  static let shared = ThrottledWriter()

  private struct State {
    /// Data waiting for the end of its file's quiet second.
    var pending: [URL: Data] = [:]
    /// Files written within the last second (a write to one waits).
    var recent: Set<URL> = []
  }

  private let state = LockIsolated(State())
  private let interval: DispatchTimeInterval = .seconds(1)

  private init() {
    atexit { ThrottledWriter.shared.flush() }
  }

  func write(_ data: Data, to url: URL) {
    let writeNow = state.withValue { state -> Bool in
      if state.recent.contains(url) {
        state.pending[url] = data
        return false
      }
      state.recent.insert(url)
      return true
    }
    if writeNow {
      Self.writeFile(data, url)
      DispatchQueue.global().asyncAfter(deadline: .now() + interval) { self.endQuietPeriod(of: url) }
    }
  }

  /// The file's second is over: its pending data (if any) is written, and starts another second.
  private func endQuietPeriod(of url: URL) {
    let data = state.withValue { state -> Data? in
      guard let data = state.pending.removeValue(forKey: url) else {
        state.recent.remove(url)
        return nil
      }
      return data
    }
    guard let data else { return }
    Self.writeFile(data, url)
    DispatchQueue.global().asyncAfter(deadline: .now() + interval) { self.endQuietPeriod(of: url) }
  }

  /// Writes everything pending now.
  func flush() {
    let pending = state.withValue { state in
      defer { state.pending.removeAll() }
      return state.pending
    }
    for (url, data) in pending { Self.writeFile(data, url) }
  }

  private static func writeFile(_ data: Data, _ url: URL) {
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    do {
      try data.write(to: url, options: .atomic)
    } catch {
      DependencyValues.current.reportIssue("Shared: could not write \(url.path): \(error)")
    }
  }
}

private enum FileStorageKeyDependency: DependencyKey {
  static var liveValue: FileStorage { .fileSystem }
  static var testValue: FileStorage { .inMemory }
  static let dependencyName = "\\.defaultFileStorage"
}

extension DependencyValues {
  /// Where `.fileStorage` shared values are kept: the disk (``FileStorage/fileSystem``) in an app,
  /// memory (``FileStorage/inMemory``) in tests.
  public var defaultFileStorage: FileStorage {
    get { self[FileStorageKeyDependency.self] }
    set { self[FileStorageKeyDependency.self] = newValue }
  }
}

/// A shared value kept as JSON in a file, through ``DependencyValues/defaultFileStorage`` (memory
/// in tests). A file that does not decode is left alone: the declaration's default is used, and the
/// next change overwrites it.
///
/// ```swift
/// @Shared(.fileStorage(.documentsDirectory.appending(path: "sync-ups.json")))
/// var syncUps: IdentifiedArrayOf<SyncUp> = []
/// ```
public struct FileStorageKey<Value: Codable & Sendable>: SharedKey {
  /// The file.
  public let url: URL
  let storage: FileStorage

  /// The key for `url`, with the file storage in force where it is made.
  public init(_ url: URL) {
    self.url = url
    storage = DependencyValues.current.defaultFileStorage
  }

  /// The file (`a/./b.json` is `a/b.json`) in its storage.
  public var id: FileStorageID { FileStorageID(url: url.standardizedFileURL, storage: storage.identity) }

  /// The file's value, decoded from JSON; nil if there is no file or it does not decode.
  public func load() -> Value? {
    guard let data = storage.load(url) else { return nil }
    return try? JSONDecoder().decode(Value.self, from: data)
  }

  /// Writes `value` as JSON (through the storage: on disk, throttled).
  public func save(_ value: Value) {
    do {
      storage.save(try JSONEncoder().encode(value), url)
    } catch {
      DependencyValues.current.reportIssue("Shared: could not encode the value for \(url.path): \(error)")
    }
  }
}

/// What names a file-storage value: its URL in one ``FileStorage``.
public struct FileStorageID: Hashable, Sendable {
  let url: URL
  let storage: ObjectIdentifier
}

extension SharedKey {
  /// A shared value kept as JSON in the file at `url` (see ``FileStorageKey``).
  public static func fileStorage<Value>(_ url: URL) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(url)
  }
}
