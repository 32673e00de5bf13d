import Synchronization

/// A strong reference set at most once and read without a lock: `AtomicLazyReference`'s contract,
/// all inlinable (the library's `load()` is not specialized into callers and looks up generic
/// metadata per call, on the write path of every observed value). It owns the object. The one
/// exception to "once", `replace`, is for an owner that knows no thread uses the object; it releases
/// the old one later, outside every lock.
@usableFromInline
struct SetOnce<Object: AnyObject>: ~Copyable {
  @usableFromInline let storage = Atomic<UnsafeRawPointer?>(nil)

  @inlinable init() {}

  @inlinable
  func load() -> Object? {
    guard let raw = storage.load(ordering: .acquiring) else { return nil }
    return Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue()
  }

  /// `body` on the object stored, if any, without retaining it (this reference keeps it alive).
  @inlinable
  func withObject<R>(_ body: (Object) -> R) -> R? {
    guard let raw = storage.load(ordering: .acquiring) else { return nil }
    return Unmanaged<Object>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
  }

  /// Whether `object` is the one stored, without retaining either.
  @inlinable
  func holds(_ object: Object) -> Bool {
    storage.load(ordering: .relaxed) == UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
  }

  @inlinable
  var isSet: Bool { storage.load(ordering: .relaxed) != nil }

  /// Stores `object` if nothing is stored yet; returns the object stored now.
  @usableFromInline
  func storeIfNil(_ object: Object) -> Object {
    let raw = UnsafeRawPointer(Unmanaged.passRetained(object).toOpaque())
    let (stored, found) = storage.compareExchange(expected: nil, desired: raw, ordering: .acquiringAndReleasing)
    if stored { return object }
    Unmanaged<Object>.fromOpaque(raw).release()
    return Unmanaged<Object>.fromOpaque(found!).takeUnretainedValue()
  }

  /// Swaps `object` in for `old` if stored; returns `old` (the caller releases it outside every lock),
  /// or nil. Only for an object no thread may use unretained meanwhile (see `Extent.bind(to:_:)`).
  func replace(_ old: Object, with object: Object) -> Object? {
    let expected = UnsafeRawPointer(Unmanaged.passUnretained(old).toOpaque())
    let raw = UnsafeRawPointer(Unmanaged.passRetained(object).toOpaque())
    guard storage.compareExchange(expected: expected, desired: raw, ordering: .acquiringAndReleasing).exchanged else {
      Unmanaged<Object>.fromOpaque(raw).release()
      return nil
    }
    return Unmanaged<Object>.fromOpaque(expected).takeRetainedValue()
  }

  deinit {
    if let raw = storage.load(ordering: .acquiring) { Unmanaged<Object>.fromOpaque(raw).release() }
  }
}
