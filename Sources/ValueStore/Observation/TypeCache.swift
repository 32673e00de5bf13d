import Synchronization

/// A value per type (or pair of types), computed once, then read without a lock from an immutable
/// snapshot: an open-addressing table keyed by metadata addresses, probed without hashing through
/// `Hasher` (these lookups sit on send and write paths). A writer replaces the snapshot under
/// `writer`, never freeing the old one (a reader may hold it). `make` runs outside the lock, so it
/// may use a cache itself.
final class TypeCache<Value: Sendable>: @unchecked Sendable {  // the snapshots are immutable
  /// Two metadata addresses; `second` is 0 for a single type. `first` is never 0 for a key.
  private struct Key: Equatable {
    let first: UInt
    let second: UInt

    init(_ first: Any.Type, _ second: Any.Type?) {
      self.first = UInt(bitPattern: unsafeBitCast(first, to: Int.self))
      self.second = second.map { UInt(bitPattern: unsafeBitCast($0, to: Int.self)) } ?? 0
    }

    /// A multiplicative hash: metadata addresses are aligned, their high bits vary.
    func slot(_ mask: Int) -> Int {
      let mixed = (first &* 0x9E37_79B9_7F4A_7C15) ^ (second &* 0xC2B2_AE3D_27D4_EB4F)
      return Int(truncatingIfNeeded: mixed >> 32) & mask
    }
  }

  private final class Snapshot {
    /// A power of two, at least twice the count: probing always meets an empty slot.
    let mask: Int
    let keys: [Key?]
    let values: [Value?]
    let count: Int

    init(capacity: Int, entries: [(Key, Value)]) {
      mask = capacity - 1
      var keys = [Key?](repeating: nil, count: capacity)
      var values = [Value?](repeating: nil, count: capacity)
      for (key, value) in entries {
        var slot = key.slot(mask)
        while keys[slot] != nil { slot = (slot + 1) & mask }
        keys[slot] = key
        values[slot] = value
      }
      self.keys = keys
      self.values = values
      count = entries.count
    }

    func find(_ key: Key) -> Value? {
      var slot = key.slot(mask)
      while let found = keys[slot] {
        if found == key { return values[slot] }
        slot = (slot + 1) & mask
      }
      return nil
    }

    var entries: [(Key, Value)] {
      zip(keys, values).compactMap { key, value in key.map { ($0, value!) } }
    }
  }

  private let snapshot = Atomic<Int>(0)  // an unmanaged `Snapshot`'s address; 0 before the first
  private let writer = Mutex<Void>(())

  init() {}

  func value(for type: Any.Type, make: (Any.Type) -> Value) -> Value {
    value(for: Key(type, nil)) { make(type) }
  }

  /// The value for a pair of types (`first` and `second` in that order).
  func value(for first: Any.Type, _ second: Any.Type, make: () -> Value) -> Value {
    value(for: Key(first, second), make: make)
  }

  private func value(for key: Key, make: () -> Value) -> Value {
    if let found = current()?.find(key) { return found }
    let made = make()
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
