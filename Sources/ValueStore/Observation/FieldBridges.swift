import Observation

// A holder's top-level fields as Apple's Observation sees them: like an `@Observable` class's
// properties, one registrar for the holder and one key path per field.
//
// - **Why, beside the window's bridges** (ObservationBridge.swift): a read under Apple's tracking
//   there records two registrars, the probe's and the field bridge's, and Apple installs and
//   cancels its observer on each at every round (a ten-field view: 8.6 µs a round, 7.1 with one
//   registrar; Design.md §5). The holder knows its own fields, so a read of one accesses
//   the field's key path directly, and, when we need to know whether Apple records it, the
//   holder's detector key path (its argument hashes by telling us, as the probe's does). One
//   registrar, one key path per field read.
// - **Key paths.** Observation hashes and compares a key path several times a round (recorded,
//   installed, notified, cancelled); a subscript's argument made that ≈ 100 ns dearer a round than
//   a stored property's (measured). So a field's key paths are stored properties of a pool
//   (FieldBridges+KeyPaths.swift), for the first fields a holder bridges, and a subscript with an
//   `Int` after that.
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
  /// Accessed after a field's key path when we need to know whether Observation records the read:
  /// hashing its argument tells the thread (see `TrackingProbe`). An instance property, so that a
  /// read finds it without a lazy global's check; made once (a key path with an argument is
  /// made at run time: ≈ 0.45 µs, a tenth of a store's first tracked read, when made per holder).
  @usableFromInline let detection = FieldBridges.detectionKeyPath
  static let detectionKeyPath = \FieldBridges.[detect: TrackingDetector()]
  /// By field offset: 1 + the field's index in `fields`, or 0 when it has none yet.
  @exclusivity(unchecked) @usableFromInline var slots: [UInt16] = []
  /// Main actor only, like the holder (no dynamic exclusivity check).
  @exclusivity(unchecked) @usableFromInline var fields: [Field] = []

  @usableFromInline
  struct Field {
    /// The key path of the field's current generation: what a read records.
    @usableFromInline var keyPath: FieldKeyPath {
      didSet { unmanagedKeyPath = .passUnretained(keyPath) }
    }
    /// `keyPath`, to hand to Observation without a retain and release per read (`keyPath` keeps it).
    @usableFromInline var unmanagedKeyPath: Unmanaged<KeyPath<FieldBridges, Bool>>
    /// The other generation's, made when first needed. Two are enough: a generation's
    /// `withMutation` is done before the next one can fire (observers run from one loop per
    /// thread, and a store's from the main actor).
    var other: FieldKeyPath?
    var generation: UInt32 = 0
    /// The field's observer while armed. It holds the holder's bridges and they hold it: the
    /// holder breaks the cycle when it goes (`disarm`).
    @usableFromInline var observer: Observer?
    /// Where `observer` was last known registered: the extent's serial and its count of anchored
    /// moves then (a registration leaves a live extent only by such a move); no serial (0) while
    /// it has none.
    @usableFromInline var armedOn: (serial: UInt64, moves: UInt32) = (0, 0)
    /// The current generation was accessed since the field last fired: an Apple scope may hold it.
    @usableFromInline var isRead = false
    /// The generation that fired, until its `withMutation` starts.
    var firing: FieldKeyPath?
    /// `firing` is the current generation: a read now switches to the other one, or it would
    /// record a key path about to notify of a change the reader has seen (a scope re-armed from
    /// the `onChange` another field's `withMutation` called).
    @usableFromInline var isFiring = false

    init(keyPath: FieldKeyPath) {
      self.keyPath = keyPath
      unmanagedKeyPath = .passUnretained(keyPath)
    }
  }

  /// The pool of argument-less field key paths (FieldBridges+KeyPaths.swift); never read or
  /// written. Here because an extension cannot store.
  var k0 = false, k1 = false, k2 = false, k3 = false, k4 = false, k5 = false, k6 = false, k7 = false
  var k8 = false, k9 = false, k10 = false, k11 = false, k12 = false, k13 = false, k14 = false, k15 = false
  var k16 = false, k17 = false, k18 = false, k19 = false, k20 = false, k21 = false, k22 = false, k23 = false
  var k24 = false, k25 = false, k26 = false, k27 = false, k28 = false, k29 = false, k30 = false, k31 = false

  @usableFromInline init() {}

  subscript(detect _: TrackingDetector) -> Void { () }

  /// The index of `key`'s field, if it has one.
  @inlinable
  func index(of key: FieldKey) -> Int? {
    guard let offset = key.offset, offset < slots.count else { return nil }
    let slot = Int(slots[offset])
    return slot == 0 ? nil : slot - 1
  }

  /// Tells Apple's Observation, if it tracks on this thread, that `key` was read (a field with no
  /// key path yet: only the detector, which asks). Untracked, this is Apple's own check.
  ///
  /// `leafOn`: the holder's value's extent (alive: the holder has it), when the read need not ask
  /// Observation whether it tracks (`ThreadContext.asksObservation`: a field with nothing below
  /// it, an `Int` or a `Bool`, read while no bridge window is open; most reads while one is). If
  /// the field is armed there, nothing else is needed when Observation records the read
  /// (`.armed`): it is not asked, so no window opens and no tracked read follows. Otherwise it is
  /// asked (`.asked`).
  @inlinable
  func access(_ key: FieldKey, leafOn extent: Unmanaged<Extent>? = nil) -> FieldAccess {
    guard let index = index(of: key) else {
      detect()
      return .asked
    }
    if _slowPath(fields[index].isFiring) { nextGeneration(index) }
    fields[index].isRead = true
    fields[index].unmanagedKeyPath._withUnsafeGuaranteedRef { registrar.access(self, keyPath: $0) }
    if let extent, extent._withUnsafeGuaranteedRef({ fields[index].armedOn == ($0.serial, $0.moves(anchored: true)) }) {
      return .armed
    }
    detect()
    return .asked
  }

  /// Asks Observation whether it tracks on this thread (the detector's argument tells it).
  @inlinable
  func detect() {
    registrar.access(self, keyPath: detection)
  }

  /// The index of `key`'s field, made on first use. `key` names a stored field (a holder's field
  /// read; computed ones take the anchored path).
  func field(_ key: FieldKey) -> Int {
    if let index = index(of: key) { return index }
    guard let offset = key.offset else { preconditionFailure("FieldBridges: \(key) names no stored field") }
    precondition(fields.count < Int(UInt16.max), "FieldBridges: more fields than a struct can have")
    fields.append(Field(keyPath: Self.keyPath(field: fields.count, generation: 0)))
    if slots.count <= offset { slots += repeatElement(0, count: offset + 1 - slots.count) }
    slots[offset] = UInt16(fields.count)
    return fields.count - 1
  }

  /// Makes the other generation current: this one's notification is still to come (`isFiring`),
  /// and a read recording it would hear of a change it has seen.
  @usableFromInline @inline(never)
  func nextGeneration(_ index: Int) {
    fields[index].generation ^= 1
    let next = fields[index].other ?? Self.keyPath(field: index, generation: fields[index].generation)
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
      fields[index].armedOn = (0, 0)
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
    if !kept {
      fields[index].observer = nil
      fields[index].armedOn = (0, 0)
    }
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
    for index in fields.indices {
      fields[index].observer = nil
      fields[index].armedOn = (0, 0)
    }
    withRegistry { garbage in
      for observer in observers where observer.isActive { observer.deactivate(&garbage) }
    }
  }
}

/// What a read of a holder's field told Apple's Observation (`FieldBridges.access`).
@usableFromInline
enum FieldAccess {
  /// Whether Observation records the read (the detector), after the field's key path if it has one.
  case asked
  /// Its key path alone: the field is armed on the value's extent, and Observation need not be
  /// asked (`ThreadContext.asksObservation`).
  case armed
}

/// Records a tracked read of the top-level field `key` of a holder whose value's extent is
/// `extent`, bridging it to Apple's Observation through the holder's `bridges` (made on first
/// use). `accessed`: the caller already accessed the field's key path, or the probe, on this read.
///
/// The extent, not the value's `Observed`: borrowed from behind a pointer, that was copied —
/// a retain of every reference in the state's fields, at each read.
@inlinable
func recordBridgedHolderRead<Fields, T>(
  _ extent: Extent, _ keyPath: KeyPath<Fields, T>, _ key: FieldKey, _ value: T,
  _ bridges: inout FieldBridges?, accessed: Bool
) {
  let leaf = FieldKind<T>.isTrivialEquatable
  if bridgeHolderRead(extent, keyPath, key, &bridges, accessed: accessed, leaf: leaf) {
    extent.anchor()
    FieldKind<T>.observable?._anchor(value)
  }
}

/// `recordBridgedHolderRead`, less the anchoring of the value: whether the read was recorded.
@usableFromInline @inline(never)
func bridgeHolderRead(
  _ extent: Extent, _ keyPath: AnyKeyPath, _ key: FieldKey, _ bridges: inout FieldBridges?, accessed: Bool,
  leaf: Bool
) -> Bool {
  ThreadContext.withCurrent { context in
    bridgeHolderRead(extent, keyPath, key, &bridges, accessed: accessed, leaf: leaf, on: context)
  }
}

/// `bridgeHolderRead` on this thread's `context` (not retained: the thread keeps it).
@inline(__always)
private func bridgeHolderRead(
  _ extent: Extent, _ keyPath: AnyKeyPath, _ key: FieldKey, _ bridges: inout FieldBridges?, accessed: Bool,
  leaf: Bool, on context: ThreadContext
) -> Bool {
  // Did Apple's Observation see the field (or the probe) on this read? The detector says so; a
  // flag left set by a hash outside tracking can only arm a field nobody recorded, never miss one.
  if !accessed {
    context.appleTrackingSeen = false
    // Asked through the holder's bridges, made now if need be (never a global probe, see
    // `TrackingProbe`). Hidden (`untracked`), the detector alone answers: Observation would
    // record the field's key path. An armed field needs asking only now and then
    // (`asksObservation`).
    if _slowPath(bridges == nil) { bridges = FieldBridges() }
    // Unretained: the holder keeps its bridges, and asking runs none of our code that could drop them.
    let holderBridges = Unmanaged.passUnretained(bridges.unsafelyUnwrapped)
    let armedCheck = context.asksObservation(leaf: leaf) ? nil : Unmanaged.passUnretained(extent)
    if context.bridgeHidden {
      holderBridges._withUnsafeGuaranteedRef { $0.detect() }
    } else if holderBridges._withUnsafeGuaranteedRef({ $0.access(key, leafOn: armedCheck) }) == .armed {
      // Nothing to bridge, and nothing learnt: the window stays as it is. Our scopes, and the
      // value anchored, as a bridged read's is.
      _ = extent.recordAccess(key, keyPath, anchoredBy: true, bridging: false, on: context)
      return true
    }
  }
  let seen = context.appleTrackingSeen
  context.appleTrackingSeen = false
  if !seen { context.observationStoppedTracking() }
  let apple = seen && !context.bridgeHidden
  // Our scopes; the window's bridge is not needed for this field: the holder's is used instead.
  let recorded = extent.recordAccess(key, keyPath, anchoredBy: true, bridging: false, on: context)
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
