import Observation

// A holder's top-level fields as Apple's Observation sees them: like an `@Observable` class's
// properties, one registrar for the holder and one key path per field.
//
// - **Why, beside the window's bridges** (ObservationBridge.swift): a read under Apple's tracking
//   there records two registrars, the probe's and the field bridge's, and Apple installs and
//   cancels its observer on each at every round (a ten-field view: 8.6 µs a round, 7.1 with one
//   registrar; Design.md §5). The holder knows its own fields, so a read of one accesses
//   the field's key path directly: it tells us Apple is tracking (its argument is a detector, as
//   the probe's is) and records the field at once. One registrar, one key path per field read.
// - **Arming.** A field's bridge is an observer of the field, registered anchored on the extent
//   the holder's value has (forks carry it) by the first read Apple tracks. Unlike the window's
//   one-shot bridges it stays registered while it is read between changes, as an `@Observable`
//   property always calls `withMutation`: a view re-reading the field after each change costs one
//   Apple access, not a new observer per round. It retires when it fires unread since it last
//   fired (no Apple scope can hold its key path then, unless one is still recording: `closed`),
//   and is re-armed, on the value's current extent, by the next tracked read that finds it retired
//   or left behind (the value replaced). Closed as the window's bridges are
//   (ObservationBridge.swift); a field's generations are two key paths used in turn.
// - **Threads.** A holder serializes everything here: a store runs on the main actor, and so do its
//   reads and the changes that fire its observers.

/// The Apple-visible fields of one holder (see above).
@usableFromInline
final class FieldBridges: Observable, @unchecked Sendable {
  @usableFromInline let registrar = ObservationRegistrar()
  /// On while an access needs to know whether Observation records it (`BridgedField`).
  @usableFromInline let detector = BridgeDetector()
  /// By field offset: 1 + the field's index in `fields`, or 0 when it has none yet.
  @exclusivity(unchecked) @usableFromInline var slots: [UInt16] = []
  /// Main actor only, like the holder (no dynamic exclusivity check).
  @exclusivity(unchecked) @usableFromInline var fields: [Field] = []

  @usableFromInline
  struct Field {
    /// The key path of the field's current generation: what a read records.
    @usableFromInline var keyPath: KeyPath<FieldBridges, Void> & Sendable
    let key: FieldKey
    /// The other generation's, made when first needed. Two are enough: a generation's
    /// `withMutation` is done before the next one can fire (observers run from one loop per
    /// thread, and a store's from the main actor).
    var other: (KeyPath<FieldBridges, Void> & Sendable)?
    var generation: UInt32 = 0
    /// The field's observer while armed. It holds the holder's bridges and they hold it: the
    /// holder breaks the cycle when it goes (`disarm`).
    @usableFromInline var observer: Observer?
    /// Where `observer` was last known registered: the extent's serial and its count of anchored
    /// moves then (a registration leaves a live extent only by such a move).
    @usableFromInline var armedOn: (serial: UInt64, moves: UInt32) = (0, 0)
    /// The current generation was accessed since the field last fired: an Apple scope may hold it.
    @usableFromInline var isRead = false
    /// The generation that fired, until its `withMutation` starts.
    var firing: (KeyPath<FieldBridges, Void> & Sendable)?
    /// `firing` is the current generation: a read now switches to the other one, or it would
    /// record a key path about to notify of a change the reader has seen (a scope re-armed from
    /// the `onChange` another field's `withMutation` called).
    @usableFromInline var isFiring = false
  }

  @usableFromInline init() {}

  subscript(field _: BridgedField) -> Void { () }

  /// The index of `key`'s field, if it has one.
  @inlinable
  func index(of key: FieldKey) -> Int? {
    guard key >= 0, key < slots.count else { return nil }
    let slot = Int(slots[key])
    return slot == 0 ? nil : slot - 1
  }

  /// Tells Apple's Observation, if it tracks on this thread, that `key` was read; false if the
  /// field has no key path yet (the caller asks the probe instead). Untracked, this is Apple's own
  /// check.
  ///
  /// `leafOn`: the holder's value's extent, for a field whose value has nothing to read below it
  /// (an `Int`, a `Bool`). If the field is armed there, nothing else is needed when Observation
  /// records the read, so it is not told to us (no bridge window opens, no tracked read follows).
  @inlinable
  func access(_ key: FieldKey, leafOn extent: Extent? = nil) -> Bool {
    guard let index = index(of: key) else { return false }
    if _slowPath(fields[index].isFiring) { nextGeneration(index) }
    fields[index].isRead = true
    let armedHere = extent.map { extent in
      fields[index].observer != nil && fields[index].armedOn == (extent.serial, extent.moves(anchored: true))
    }
    detector.isOn = armedHere != true
    registrar.access(self, keyPath: fields[index].keyPath)
    detector.isOn = false
    return true
  }

  /// The index of `key`'s field, made on first use.
  func field(_ key: FieldKey) -> Int {
    if let index = index(of: key) { return index }
    precondition(fields.count < Int(UInt16.max), "FieldBridges: more fields than a struct can have")
    fields.append(Field(keyPath: \FieldBridges.[field: BridgedField(key: key, generation: 0, detector: detector)], key: key))
    if slots.count <= key { slots += repeatElement(0, count: key + 1 - slots.count) }
    slots[key] = UInt16(fields.count)
    return fields.count - 1
  }

  /// Makes the other generation current: this one's notification is still to come (`isFiring`),
  /// and a read recording it would hear of a change it has seen.
  @usableFromInline @inline(never)
  func nextGeneration(_ index: Int) {
    let key = fields[index].key
    fields[index].generation ^= 1
    let next = fields[index].other ?? \FieldBridges.[field: BridgedField(key: key, generation: fields[index].generation, detector: detector)]
    fields[index].other = fields[index].keyPath
    fields[index].keyPath = next
    fields[index].isFiring = false
  }

  /// Makes sure the field at `index` (offset `key`, `keyPath` into the holder's fields) has an
  /// observer registered on `extent`, the holder's value's: one that retired, or stayed on an
  /// extent the value no longer has (replaced), is replaced.
  func arm(_ index: Int, key: FieldKey, keyPath: AnyKeyPath, on extent: Extent) {
    let here = (serial: extent.serial, moves: extent.moves(anchored: true))
    if let observer = fields[index].observer {
      if fields[index].armedOn == here { return }
      let opaque = Unmanaged.passUnretained(extent).toOpaque()
      let stayed = withRegistry { garbage -> Bool in
        if observer.isActive, observer.extents.contains(where: { $0.extent.toOpaque() == opaque }) { return true }
        observer.deactivate(&garbage)
        return false
      }
      if stayed { return fields[index].armedOn = here }  // carried to a fork of the value
      fields[index].observer = nil
    }
    let observer = Observer(
      onChange: { [self] _ in fire(index) }, closed: { [self] kept in close(index, kept: kept) },
      keeps: { [self] in fields[index].isRead }
    )
    withRegistry { _ in
      observer.extents.append((.passUnretained(extent), 1))
      extent.register(observer, key: key, keyPath: keyPath, anchored: true)
    }
    fields[index].observer = observer
    fields[index].armedOn = here
  }

  /// The field at `index` fired, and its observer stays registered (`kept`) or retired (see
  /// `Observer.closed`).
  private func close(_ index: Int, kept: Bool) {
    if !kept { fields[index].observer = nil }
    fields[index].firing = fields[index].keyPath
    fields[index].isFiring = true
    fields[index].isRead = false
  }

  /// Once `withMutation` has started, Observation has taken the scopes it notifies: one that
  /// records the key path from now on (re-armed from its `onChange`) is not among them.
  private func fire(_ index: Int) {
    guard let keyPath = fields[index].firing else { return }
    fields[index].firing = nil
    if fields[index].keyPath === keyPath { fields[index].isFiring = false }
    registrar.withMutation(of: self, keyPath: keyPath) {}
  }

  /// Retires every field's observer: the holder is gone (this breaks their cycle).
  func disarm() {
    let observers = fields.compactMap(\.observer)
    for index in fields.indices { fields[index].observer = nil }
    withRegistry { garbage in
      for observer in observers where observer.isActive { observer.deactivate(&garbage) }
    }
  }
}

/// A field of a holder in Apple's key paths, in one generation of its arming. Hashing it while
/// its holder's detector is on is how Apple's Observation tells us it is tracking on this thread
/// (as `TrackingDetector` does for the probe); its other hashes (Observation's installing,
/// notifying, cancelling) skip the thread-local.
@usableFromInline
struct BridgedField: Hashable, Sendable {
  let key: FieldKey
  let generation: UInt32
  let detector: BridgeDetector

  @usableFromInline func hash(into hasher: inout Hasher) {
    if detector.isOn { ThreadContext.withCurrent { $0.appleIsTracking() } }
    hasher.combine(key)
    hasher.combine(generation)
  }

  @usableFromInline static func == (a: Self, b: Self) -> Bool {
    a.key == b.key && a.generation == b.generation && a.detector === b.detector
  }
}

/// Whether hashing a holder's field key paths detects Observation now: on only during the holder's
/// own `access` (main actor only, as the holder).
@usableFromInline
final class BridgeDetector: @unchecked Sendable {
  @usableFromInline var isOn = false
  init() {}
}

/// Records a tracked read of the top-level field `key` of a holder whose value's fields are
/// `fields`, bridging it to Apple's Observation through the holder's `bridges` (made on first
/// use). `accessed`: the caller already accessed the field's key path, or the probe, on this read.
@inlinable
func recordBridgedHolderRead<Fields, T>(
  _ fields: borrowing Observed<Fields>, _ keyPath: KeyPath<Fields, T>, _ key: FieldKey, _ value: T,
  _ bridges: inout FieldBridges?, accessed: Bool
) {
  if bridgeHolderRead(fields._extent, keyPath, key, &bridges, accessed: accessed) {
    fields._extent.anchor()
    FieldKind<T>.observable?._anchor(value)
  }
}

/// `recordBridgedHolderRead`, less the anchoring of the value: whether the read was recorded.
@usableFromInline @inline(never)
func bridgeHolderRead(
  _ extent: Extent, _ keyPath: AnyKeyPath, _ key: FieldKey, _ bridges: inout FieldBridges?, accessed: Bool
) -> Bool {
  let context = ThreadContext.current
  // Did Apple's Observation see the field (or the probe) on this read? The detector says so; a
  // flag left set by a hash outside tracking can only arm a field nobody recorded, never miss one.
  if !accessed {
    context.appleTrackingSeen = false
    // Hidden (`untracked`), the probe answers: Observation would record the field's key path.
    if context.bridgeHidden || bridges?.access(key) != true { TrackingProbe.check() }
  }
  let seen = context.appleTrackingSeen
  context.appleTrackingSeen = false
  if !seen { context.closeBridgeWindow() }
  let apple = seen && !context.bridgeHidden
  // Our scopes; the window's bridge is not needed for this field: the holder's is used instead.
  let recorded = extent.recordAccess(key, keyPath, anchoredBy: true, bridging: false)
  guard apple else { return recorded }
  let holderBridges = bridges ?? FieldBridges()
  bridges = holderBridges
  let hadField = holderBridges.index(of: key) != nil
  let index = holderBridges.field(key)
  holderBridges.arm(index, key: key, keyPath: keyPath, on: extent)
  // A field new here was not accessed yet: the probe was.
  if !hadField { _ = holderBridges.access(key) }
  return true
}
