import Foundation
import Synchronization

/// The default values of dependencies — each key's `liveValue`, `testValue` or `previewValue` —
/// made once per key, context and Swift Testing test, then reused: a client with state keeps it
/// across uses, and a costly one is made once.
///
/// Shared by every copy of the ``DependencyValues`` it was made with (a new
/// `DependencyValues()` starts a new cache). A value is made outside the lock (making it may read
/// other dependencies); a thread that needs a value another thread is making waits for it, so
/// concurrent first uses make it once.
final class DependencyCache: @unchecked Sendable {  // `entries` is guarded by `condition`
  /// The cache of the values in force when nothing was set (`DependencyValues.current`'s).
  static let shared = DependencyCache()

  struct Key: Hashable, @unchecked Sendable {  // `test` holds a `Hashable & Sendable` test id
    let id: ObjectIdentifier
    let context: DependencyContext
    let test: AnyHashable?

    init(_ id: ObjectIdentifier, _ context: DependencyContext) {
      self.id = id
      self.context = context
      test = TestSupport.linked?.currentTestID.map { AnyHashable($0) }
    }
  }

  /// A value made (or prepared), with what making it reported: an unimplemented test value is
  /// reported at each use, not once when it is made.
  struct Made: @unchecked Sendable {  // `value` is a key's `Sendable` value
    let value: Any
    let reports: [String]
  }

  private enum Entry {
    case making(thread: UInt)
    case made(Made)
  }

  private let condition = NSCondition()
  private var entries: [Key: Entry] = [:]
  /// Whether `prepareDependencies` set the context: until then it is not looked up.
  private let hasPreparedContext = Atomic<Bool>(false)

  /// The value for `key`, made by `make` if no thread made it before.
  func value(for key: Key, make: () -> Made) -> Made {
    let me = currentThreadID()
    condition.lock()
    while true {
      switch entries[key] {
      case let .made(made)?:
        condition.unlock()
        return made
      case let .making(thread)? where thread == me:
        condition.unlock()
        fatalError("A dependency's default value reads that same dependency while it is made (a cycle).")
      case .making?:
        condition.wait()
      case nil:
        entries[key] = .making(thread: me)
        condition.unlock()
        let made = make()
        condition.lock()
        entries[key] = .made(made)
        condition.broadcast()
        condition.unlock()
        return made
      }
    }
  }

  /// Stores `value` as the default for `key` (`prepareDependencies`); false, storing nothing, if
  /// it was made or prepared already — a preview may prepare again.
  func prepare(_ value: Any, for key: Key) -> Bool {
    condition.withLock {
      if entries[key] != nil, key.context != .preview { return false }
      entries[key] = .made(Made(value: value, reports: []))
      if key.id == ObjectIdentifier(DependencyContext.self) { hasPreparedContext.store(true, ordering: .releasing) }
      return true
    }
  }

  /// The context `prepareDependencies` set, if any.
  var preparedContext: DependencyContext? {
    guard hasPreparedContext.load(ordering: .acquiring) else { return nil }
    let key = Key(ObjectIdentifier(DependencyContext.self), .live)
    return condition.withLock {
      guard case let .made(made)? = entries[key] else { return nil }
      return made.value as? DependencyContext
    }
  }
}
