import Synchronization

/// The dependencies in force: the values overridden so far, the others by their key's default for
/// the ``DependencyContext``.
///
/// Extend it with a computed property per dependency (see ``DependencyKey``); read one with
/// ``Dependency`` in a reducer, override them for a store (`withDependencies:`), a child reducer
/// (``Reducer/dependency(_:_:)``) or a block (``withDependencies(_:operation:)``).
///
/// The values in force are task-local: a store runs each action's reducer with its own, and the
/// effects that reducer returns keep the values in force where they were made — a `.run` sees the
/// values in force for the action that started it, even after they change.
///
/// A dependency's default value is made once and reused (per context, and per Swift Testing
/// test): a stateful test client keeps its state between uses in a test.
public struct DependencyValues: Sendable {
  /// The values in force here.
  public static var current: DependencyValues { inForce }

  /// Bound only by ``withCurrent(_:operation:)``, which notes values other than the defaults.
  @TaskLocal private static var inForce = DependencyValues(cache: .shared)

  private var overrides: [ObjectIdentifier: any Sendable] = [:]
  /// The context set on these values, if any; otherwise the process's (or the prepared one).
  private var explicitContext: DependencyContext?
  /// Where the default values are kept: shared by copies of these values.
  private(set) var cache: DependencyCache
  private var unimplementedHandler: (@Sendable (String) -> Void)?
  /// True while these values are being overridden (`withDependencies`' update closure): reading a
  /// dependency then, to override part of it, is not a use of it.
  @_spi(Testing) public var isSetting = false
  /// The `@Dependency` being read, where reports point.
  var useSite: SourceSite?

  /// Where a store reports misuse while these values are in force — an action for a child whose
  /// state is gone, an element id that is not there — instead of the handler of ``RuntimeWarning/withHandler(_:operation:)``; nil
  /// leaves it there. `TestStore` makes it a test failure, as TCA does.
  public var onRuntimeWarning: (@Sendable (String) -> Void)?

  /// Where the shared values a feature changes are reported: its `TestStore`'s (see ``Shared``).
  @_spi(Testing) public var sharedChangeTracker: SharedChangeTracker?

  /// Values overriding nothing, in the process's context, with a cache of their own: every
  /// default value is made anew for them.
  ///
  /// ```swift
  /// withDependencies { $0 = DependencyValues() } operation: { … }
  /// ```
  public init() { cache = DependencyCache() }

  /// Values overriding nothing, in `context`, with a cache of their own.
  public init(context: DependencyContext) {
    self.init()
    explicitContext = context
  }

  private init(cache: DependencyCache) { self.cache = cache }

  /// New values in the live context.
  public static var live: Self { Self(context: .live) }
  /// New values in the test context.
  public static var test: Self { Self(context: .test) }
  /// New values in the preview context.
  public static var preview: Self { Self(context: .preview) }

  /// Where the code runs: set here, or prepared (`prepareDependencies`), or the process's.
  public var context: DependencyContext {
    get { explicitContext ?? cache.preparedContext ?? .process }
    set { explicitContext = newValue }
  }

  /// Where an unimplemented dependency or endpoint is reported: by default a failure of the
  /// running test (StoreTesting linked), or standard error. `TestStore` reports it at its own line.
  public var onUnimplemented: @Sendable (String) -> Void {
    get { unimplementedHandler ?? { message in reportIssue(message) } }
    set { unimplementedHandler = newValue }
  }

  /// The value for `key`: overridden, or the key's default for the context.
  public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = overrides[ObjectIdentifier(key)] { return value as! Key.Value }
      let made = defaultValue(key)
      if !isSetting {
        for message in made.reports { reportIssue(message) }
      }
      return made.value as! Key.Value
    }
    set { overrides[ObjectIdentifier(key)] = newValue }
  }

  /// `key`'s default value in this context, made at its first use (with these values in force).
  /// What making it reports is kept, and reported at each use.
  private func defaultValue<Key: TestDependencyKey>(_ key: Key.Type) -> DependencyCache.Made {
    let context = self.context
    return cache.value(for: DependencyCache.Key(ObjectIdentifier(key), context)) {
      let reports = LockIsolated<[String]>([])
      var making = self
      making.isSetting = false
      making.unimplementedHandler = { message in reports.withValue { $0.append(message) } }
      let value = DependencyValues.withCurrent(making) { () -> Key.Value in
        switch context {
        case .live: return Self.liveValue(of: key)
        case .test: return Key.testValue
        case .preview: return Key.previewValue
        }
      }
      return DependencyCache.Made(value: value, reports: reports.value)
    }
  }

  private static func liveValue<Key: TestDependencyKey>(of key: Key.Type) -> Key.Value {
    func live<Live: DependencyKey>(_: Live.Type) -> Any { Live.liveValue }
    if let liveKey = key as? any DependencyKey.Type { return live(liveKey) as! Key.Value }
    current.reportIssue(
      "\(Key.dependencyName) has no live value, but was used in a live context: its test value is used. "
        + "Conform \(Key.self) to DependencyKey, or override it (withDependencies: { $0.… = … }).")
    return Key.testValue
  }

  /// Reports a misuse of dependencies (see ``onUnimplemented``); in the running test, at `site`,
  /// or where the `@Dependency` being read is declared.
  func reportIssue(_ message: String, at site: SourceSite? = nil) {
    if let unimplementedHandler { return unimplementedHandler(message) }
    let site = site ?? useSite ?? SourceSite()
    reportDependencyIssue(message, fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
  }

  /// Applies `update`, as ``withDependencies(_:operation:)`` does: reading a dependency there, to
  /// override part of it (`$0.client.fetch = { … }`), is not a use of it.
  @_spi(Testing) public mutating func override(_ update: (inout DependencyValues) throws -> Void) rethrows {
    isSetting = true
    defer { isSetting = false }
    try update(&self)
  }

  /// The asynchronous ``override(_:)``.
  mutating func override(
    isolation: isolated (any Actor)? = #isolation, _ update: (inout DependencyValues) async throws -> Void
  ) async rethrows {
    isSetting = true
    defer { isSetting = false }
    try await update(&self)
  }

  /// These values with `other`'s overrides on top: what a `@Dependency` made where these were in
  /// force reads where `other` is. Without allocating when `other` overrides all these do.
  func merging(_ other: DependencyValues) -> DependencyValues {
    var merged = other
    merged.cache = cache
    if !overrides.allSatisfy({ other.overrides[$0.key] != nil }) {
      merged.overrides = overrides.merging(other.overrides) { _, theirs in theirs }
    }
    merged.explicitContext = other.explicitContext ?? explicitContext
    merged.unimplementedHandler = other.unimplementedHandler ?? unimplementedHandler
    merged.onRuntimeWarning = other.onRuntimeWarning ?? onRuntimeWarning
    merged.sharedChangeTracker = other.sharedChangeTracker ?? sharedChangeTracker
    return merged
  }

  /// What `prepareDependencies` sets: the overrides and the context set.
  var overriddenValues: [ObjectIdentifier: any Sendable] { overrides }
  var overriddenContext: DependencyContext? { explicitContext }

  /// Whether these are the values in force when nothing was set: running with them changes nothing.
  var isDefault: Bool {
    overrides.isEmpty && explicitContext == nil && unimplementedHandler == nil && onRuntimeWarning == nil
      && sharedChangeTracker == nil
      && cache === DependencyCache.shared
  }
}

/// Whether values other than the defaults were ever bound (by any task): until then the values
/// in force are the defaults everywhere. Set before such a binding, so a task that inherits it
/// sees it set.
private let everBoundOthers = Atomic<Bool>(false)

extension DependencyValues {
  /// Whether the values in force are other than the defaults: bound with them, so that a store's
  /// send asks without looking up and copying the values themselves (a third of a trivial send).
  @TaskLocal private static var othersInForce = false

  /// Runs `operation` with `values` in force: the one way they are bound.
  @_spi(Testing) public static func withCurrent<R>(_ values: DependencyValues, operation: () throws -> R) rethrows -> R {
    let others = !values.isDefault
    if others { everBoundOthers.store(true, ordering: .relaxed) }
    guard everBoundOthers.load(ordering: .relaxed), others != othersInForce else {
      return try $inForce.withValue(values, operation: operation)
    }
    return try $othersInForce.withValue(others) { try $inForce.withValue(values, operation: operation) }
  }

  /// The asynchronous ``withCurrent(_:operation:)``.
  @_spi(Testing) public static func withCurrent<R>(
    _ values: DependencyValues, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> R
  ) async rethrows -> R {
    let others = !values.isDefault
    if others { everBoundOthers.store(true, ordering: .relaxed) }
    guard everBoundOthers.load(ordering: .relaxed), others != othersInForce else {
      return try await $inForce.withValue(values, operation: operation)
    }
    return try await $othersInForce.withValue(others) { try await $inForce.withValue(values, operation: operation) }
  }

  /// Whether the values in force are the defaults, without looking them up.
  static var currentIsDefault: Bool {
    !everBoundOthers.load(ordering: .relaxed) || !othersInForce
  }
}
