/// The id index of an ``IdentifiedArray``: a hash table from each id to its offset, whose slots
/// live in chunks that copies share (``SlotChunks``).
///
/// Open addressing with linear probing. A slot holds `offset + 1` of an id, or 0 when empty; the
/// id itself is the array's `ids[offset]` (the table stores no ids, as swift-collections'
/// `OrderedSet` does), so a lookup hashes the id once and compares it with `ids[offset]`. The
/// table is sized to a power of two and kept at most three quarters full.
///
/// Because the slots are chunked, appending an id to an index a snapshot shares, or moving one,
/// copies the list of chunks (a reference per 1,024 slots) and one chunk, not the table. (An
/// insertion or removal in the middle moves every later id, and their slots are anywhere.)
///
/// Every operation that compares ids needs `ids` to agree with the table (`ids[o]` is the id
/// stored with offset `o`). Shifting offsets after an insertion or removal in the middle
/// finds each entry by its *offset* from its id's hash (``_slot(ofOffset:hash:)``), so it works
/// while `ids` still has the old order.
///
/// The table keeps no count of its own: it holds one entry per id, so `ids.count` is its count.
///
/// Invariants (``_checkInvariants(_:)``): the capacity is 0 or a power of two; `ids.count` slots
/// are non-empty, at most three quarters of the capacity; the offsets stored are exactly
/// `0..<ids.count`; every entry is reachable from its id's home slot without crossing an empty slot.
@frozen
@usableFromInline
internal struct OffsetIndex {
  /// `offset + 1`, or 0 for an empty slot.
  @usableFromInline
  internal var _slots: SlotChunks

  @inlinable
  internal init() {
    _slots = SlotChunks()
  }

  /// An index of every id in `ids`, which must be unique.
  @inlinable
  internal init<ID: Hashable>(_ ids: ContiguousArray<ID>, minimumCapacity: Int = 0) {
    self.init()
    _rebuild(ids, minimumCapacity: minimumCapacity)
  }

  @inlinable
  internal var _mask: Int { _slots.count &- 1 }

  /// The smallest table that holds `count` ids at most three quarters full (0 for none).
  @inlinable
  internal static func _capacity(for count: Int) -> Int {
    guard count > 0 else { return 0 }
    var capacity = 8
    while count > capacity / 4 * 3 { capacity &<<= 1 }
    return capacity
  }

  /// Refills the table from `ids`, with room for `minimumCapacity` ids.
  @inlinable
  internal mutating func _rebuild<ID: Hashable>(_ ids: ContiguousArray<ID>, minimumCapacity: Int = 0) {
    let capacity = Self._capacity(for: Swift.max(ids.count, minimumCapacity))
    var flat = ContiguousArray<Int>(repeating: 0, count: capacity)
    let mask = capacity &- 1
    flat.withUnsafeMutableBufferPointer { slots in
      for (offset, id) in ids.enumerated() {
        var slot = id.hashValue & mask
        while slots[slot] != 0 { slot = (slot &+ 1) & mask }
        slots[slot] = offset &+ 1
      }
    }
    _slots = SlotChunks(flat)
  }

  /// The offset of `id`, whose hash is `hash`, or `nil`.
  @inlinable
  internal func offset<ID: Hashable>(of id: ID, hash: Int, in ids: ContiguousArray<ID>) -> Int? {
    _find(id, hash: hash, in: ids).offset
  }

  /// The offset of `id` and its slot, or `nil` and the empty slot where it would go (-1 when the
  /// table has no slots).
  @inlinable
  internal func _find<ID: Hashable>(_ id: ID, hash: Int, in ids: ContiguousArray<ID>) -> (offset: Int?, slot: Int) {
    guard _slots.count != 0 else { return (nil, -1) }
    let mask = _mask
    var slot = hash & mask
    while true {
      let stored = _slots[slot]
      if stored == 0 { return (nil, slot) }
      if ids[stored &- 1] == id { return (stored &- 1, slot) }
      slot = (slot &+ 1) & mask
    }
  }

  /// The slot holding `offset`, whose id's hash is `hash`. Compares offsets, not ids; traps if
  /// the offset is not in its probe run (an empty slot ends it).
  @inlinable
  internal func _slot(ofOffset offset: Int, hash: Int) -> Int {
    let mask = _mask
    var slot = hash & mask
    while true {
      let stored = _slots[slot]
      if stored == offset &+ 1 { return slot }
      precondition(stored != 0, "OffsetIndex: offset \(offset) is not indexed")
      slot = (slot &+ 1) & mask
    }
  }

  /// Stores `offset` in the first empty slot from `hash`'s home. The id must be absent and the
  /// table have room.
  @inlinable
  internal mutating func _place(_ offset: Int, hash: Int) {
    let mask = _mask
    var slot = hash & mask
    while _slots[slot] != 0 { slot = (slot &+ 1) & mask }
    _slots[slot] = offset &+ 1
  }

  /// Adds the id at `ids[offset]` (absent until now; `ids` already holds it), growing the table
  /// when it would be more than three quarters full. `emptySlot` is where `_find` ended, if known
  /// and nothing moved since.
  @inlinable
  internal mutating func insert<ID: Hashable>(
    offset: Int, hash: Int, in ids: ContiguousArray<ID>, emptySlot: Int = -1
  ) {
    if ids.count > _slots.count / 4 * 3 {
      _rebuild(ids)
    } else if emptySlot >= 0 {
      _slots[emptySlot] = offset &+ 1
    } else {
      _place(offset, hash: hash)
    }
  }

  /// Removes the entry for `offset` (whose id's hash is `hash`) by shifting back the entries after
  /// it that may move, so that no probe sequence crosses a new empty slot. `ids` must agree with
  /// the table for the entries in the same cluster.
  @inlinable
  internal mutating func remove<ID: Hashable>(offset: Int, hash: Int, in ids: ContiguousArray<ID>) {
    let mask = _mask
    var hole = _slot(ofOffset: offset, hash: hash)
    var slot = hole
    while true {
      slot = (slot &+ 1) & mask
      let stored = _slots[slot]
      if stored == 0 { break }
      let home = ids[stored &- 1].hashValue & mask
      // The entry may fill the hole unless its home lies cyclically in (hole, slot].
      let stays = hole <= slot ? (hole < home && home <= slot) : (hole < home || home <= slot)
      if !stays {
        _slots[hole] = stored
        hole = slot
      }
    }
    _slots[hole] = 0
  }

  /// Moves the entry for `offset` (whose id's hash is `hash`) to `newOffset`, which no entry holds.
  @inlinable
  internal mutating func move(offset: Int, hash: Int, to newOffset: Int) {
    _slots[_slot(ofOffset: offset, hash: hash)] = newOffset &+ 1
  }

  /// Exchanges the offsets `i` and `j` (whose ids' hashes are `hashI` and `hashJ`).
  @inlinable
  internal mutating func swapOffsets(_ i: Int, hash hashI: Int, _ j: Int, hash hashJ: Int) {
    let slotI = _slot(ofOffset: i, hash: hashI)
    let slotJ = _slot(ofOffset: j, hash: hashJ)
    _slots[slotI] = j &+ 1
    _slots[slotJ] = i &+ 1
  }

  /// Adds `delta` to every stored offset in `range`, where `ids` (in the order the table still
  /// has) holds their ids: entry by entry when the range is small against the table, else in one
  /// pass over the slots. No offset may collide with one outside the range on the way: the caller
  /// has removed the entry a shift down overwrites, and a shift up runs into the free offset.
  @inlinable
  internal mutating func shift<ID: Hashable>(_ range: Range<Int>, by delta: Int, in ids: ContiguousArray<ID>) {
    guard !range.isEmpty else { return }
    if range.count &* 8 < _slots.count {
      // Away from the free offset first, so that no two entries ever hold the same offset.
      if delta < 0 {
        for offset in range { move(offset: offset, hash: ids[offset].hashValue, to: offset &+ delta) }
      } else {
        for offset in range.reversed() { move(offset: offset, hash: ids[offset].hashValue, to: offset &+ delta) }
      }
    } else {
      // Chunk by chunk; a chunk with nothing to shift is not written (nor copied from a snapshot).
      let (lower, upper) = (range.lowerBound &+ 1, range.upperBound)  // stored values: offset + 1
      for chunk in 0..<_slots.chunkCount where _slots[chunk: chunk].contains(where: { $0 >= lower && $0 <= upper }) {
        _slots[chunk: chunk].withUnsafeMutableBufferPointer { slots in
          for i in slots.indices where slots[i] >= lower && slots[i] <= upper { slots[i] &+= delta }
        }
      }
    }
  }

  /// Empties the table, keeping its slots when `keepCapacity` is set.
  @inlinable
  internal mutating func removeAll(keepingCapacity keepCapacity: Bool) {
    _slots = keepCapacity ? SlotChunks(count: _slots.count) : SlotChunks()
  }

  /// Grows the table to hold `minimumCapacity` ids without growing again.
  @inlinable
  internal mutating func reserveCapacity<ID: Hashable>(_ minimumCapacity: Int, in ids: ContiguousArray<ID>) {
    if Self._capacity(for: minimumCapacity) > _slots.count { _rebuild(ids, minimumCapacity: minimumCapacity) }
  }

  /// Throws unless the invariants listed on ``OffsetIndex`` hold for `ids`. O(capacity).
  internal func _checkInvariants<ID: Hashable>(_ ids: ContiguousArray<ID>) throws {
    try _slots._checkInvariants()
    let capacity = _slots.count
    guard capacity == 0 || (capacity >= 8 && capacity & (capacity - 1) == 0) else {
      throw StorageInvariantViolation(description: "index capacity \(capacity) is not a power of two")
    }
    let count = (0..<capacity).count(where: { _slots[$0] != 0 })
    guard count == ids.count, count <= capacity / 4 * 3 else {
      throw StorageInvariantViolation(description: "index holds \(count) of \(ids.count) ids in \(capacity) slots")
    }
    var seen = Array(repeating: false, count: count)
    for slot in 0..<capacity where _slots[slot] != 0 {
      let offset = _slots[slot] - 1
      guard offset < count, !seen[offset] else {
        throw StorageInvariantViolation(description: "index slot \(slot) holds offset \(offset) twice or out of range")
      }
      seen[offset] = true
      guard self.offset(of: ids[offset], hash: ids[offset].hashValue, in: ids) == offset else {
        throw StorageInvariantViolation(description: "id at offset \(offset) is not reachable from its home slot")
      }
    }
  }
}

/// The slots of an ``OffsetIndex``: `count` integers (0 or a power of two) in chunks of up to
/// `chunkSize` (1,024; 2 under `VALUESTORE_INTERNAL_CHECKS`), each a `ContiguousArray` that copies
/// share. Two levels, not ``ChunkedArray``'s three: a lookup reads one slot, and a list of a
/// reference per 1,024 slots is small to copy.
@frozen
@usableFromInline
internal struct SlotChunks {
  @usableFromInline
  internal var _chunks: ContiguousArray<ContiguousArray<Int>>

  @usableFromInline
  internal var count: Int

  @inlinable
  internal static var shift: Int { chunkShift(10) }

  @inlinable
  internal static var mask: Int { (1 &<< shift) &- 1 }

  @inlinable
  internal init() {
    _chunks = []
    count = 0
  }

  /// `count` empty (zero) slots.
  @inlinable
  internal init(count: Int) {
    let size = Swift.min(count, 1 &<< Self.shift)
    _chunks = ContiguousArray(repeating: ContiguousArray(repeating: 0, count: size), count: size == 0 ? 0 : count / size)
    self.count = count
  }

  /// The slots of `flat` (a power of two of them), in chunks.
  @inlinable
  internal init(_ flat: ContiguousArray<Int>) {
    let size = 1 &<< Self.shift
    if flat.count <= size {
      _chunks = flat.isEmpty ? [] : [flat]
    } else {
      _chunks = ContiguousArray(stride(from: 0, to: flat.count, by: size).lazy.map { ContiguousArray(flat[$0..<$0 &+ size]) })
    }
    count = flat.count
  }

  @inlinable
  internal subscript(slot: Int) -> Int {
    get { _chunks[slot &>> Self.shift][slot & Self.mask] }
    _modify { yield &_chunks[slot &>> Self.shift][slot & Self.mask] }
  }

  @inlinable
  internal var chunkCount: Int { _chunks.count }

  @inlinable
  internal subscript(chunk index: Int) -> ContiguousArray<Int> {
    get { _chunks[index] }
    _modify { yield &_chunks[index] }
  }

  /// The addresses of the list of chunks and of every chunk (tests compare what copies share).
  internal var _storageAddresses: [UnsafeRawPointer?] {
    [_chunks.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }]
      + _chunks.map { $0.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
  }

  /// Throws unless the chunks hold `count` slots, all chunks the same size.
  internal func _checkInvariants() throws {
    let size = Swift.min(count, 1 << Self.shift)
    guard _chunks.allSatisfy({ $0.count == size }), _chunks.count * size == count else {
      throw StorageInvariantViolation(description: "slot chunks \(_chunks.map(\.count)) do not hold \(count) slots")
    }
  }
}
