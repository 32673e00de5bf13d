import Synchronization

/// A value per type, computed once, then read without a lock from an immutable snapshot; a writer
/// replaces it under `writer`, never freeing the old one (a reader may hold it). `make` runs outside
/// the lock, so it may use a cache itself.
final class TypeCache<Value: Sendable>: @unchecked Sendable {  // the snapshots are immutable
  private final class Snapshot {
    let values: [ObjectIdentifier: Value]
    init(_ values: [ObjectIdentifier: Value]) { self.values = values }
  }

  private let snapshot = Atomic<Int>(0)  // an unmanaged `Snapshot`'s address; 0 before the first
  private let writer = Mutex<Void>(())

  init() {}

  func value(for type: Any.Type, make: (Any.Type) -> Value) -> Value {
    let key = ObjectIdentifier(type)
    if let found = current()?.values[key] { return found }
    let made = make(type)
    return writer.withLock { _ in
      let old = current()?.values ?? [:]
      if let raced = old[key] { return raced }
      let next = Snapshot(old.merging([key: made]) { $1 })
      snapshot.store(Int(bitPattern: Unmanaged.passRetained(next).toOpaque()), ordering: .releasing)
      return made
    }
  }

  private func current() -> Snapshot? {
    UnsafeRawPointer(bitPattern: snapshot.load(ordering: .acquiring))
      .map { Unmanaged<Snapshot>.fromOpaque($0).takeUnretainedValue() }
  }
}
