import Synchronization

/// A value per type, computed once, then read without a lock from an immutable snapshot: an
/// open-addressing table keyed by metadata addresses, probed without hashing through `Hasher`
/// (these lookups sit on send and write paths). A writer replaces the snapshot under `writer`,
/// never freeing the old one (a reader may hold it): O(types²) bytes over a process, bounded by
/// the types it observes. `make` runs outside the lock, so it may use a cache itself.
final class TypeCache<Value: Sendable>: @unchecked Sendable {  // the snapshots are immutable
  private final class Snapshot {
    /// A power of two, at least twice the count: probing always meets an empty slot (key 0).
    let mask: Int
    let keys: [UInt]
    let values: [Value?]

    init(capacity: Int, entries: [(UInt, Value)]) {
      mask = capacity - 1
      var keys = [UInt](repeating: 0, count: capacity)
      var values = [Value?](repeating: nil, count: capacity)
      for (key, value) in entries {
        var slot = Snapshot.slot(key, mask)
        while keys[slot] != 0 { slot = (slot + 1) & mask }
        keys[slot] = key
        values[slot] = value
      }
      self.keys = keys
      self.values = values
    }

    /// A multiplicative hash: metadata addresses are aligned, their high bits vary.
    static func slot(_ key: UInt, _ mask: Int) -> Int {
      Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    func find(_ key: UInt) -> Value? {
      var slot = Snapshot.slot(key, mask)
      while keys[slot] != 0 {
        if keys[slot] == key { return values[slot] }
        slot = (slot + 1) & mask
      }
      return nil
    }

    var entries: [(UInt, Value)] {
      zip(keys, values).compactMap { key, value in key == 0 ? nil : (key, value!) }
    }
  }

  private let snapshot = Atomic<Int>(0)  // an unmanaged `Snapshot`'s address; 0 before the first
  private let writer = Mutex<Void>(())

  init() {}

  func value(for type: Any.Type, make: (Any.Type) -> Value) -> Value {
    let key = UInt(bitPattern: unsafeBitCast(type, to: Int.self))
    if let found = current()?.find(key) { return found }
    let made = make(type)
    return writer.withLock { _ in
      let old = current()
      if let raced = old?.find(key) { return raced }
      let entries = (old?.entries ?? []) + [(key, made)]
      var capacity = 16
      while capacity < 2 * entries.count { capacity *= 2 }
      let next = Snapshot(capacity: capacity, entries: entries)
      snapshot.store(Int(bitPattern: Unmanaged.passRetained(next).toOpaque()), ordering: .releasing)
      return made
    }
  }

  private func current() -> Snapshot? {
    UnsafeRawPointer(bitPattern: snapshot.load(ordering: .acquiring))
      .map { Unmanaged<Snapshot>.fromOpaque($0).takeUnretainedValue() }
  }
}
