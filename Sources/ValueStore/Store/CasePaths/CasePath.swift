/// Embeds a child value into an enum case and extracts it back: how a parent action carries a
/// child's action (and how enum state carries a child's state), without macros.
///
/// Make one from the case itself:
///
/// ```swift
/// enum AppAction { case counter(CounterAction), reset }
/// let counter = CasePath(AppAction.counter)
/// counter.embed(.increment)            // AppAction.counter(.increment)
/// counter.extract(from: .reset)        // nil
/// ```
///
/// Extraction reads the case from the runtime (no `Mirror`): tens of nanoseconds. APIs that take a
/// case path also take the case itself (`Scope(state: \.counter, action: AppAction.counter)`).
/// Case paths compose, through identified elements too:
///
/// ```swift
/// let title = CasePath(AppAction.rows)[id: 3].appending(RowAction.setTitle)
/// title.embed("Milk")   // .rows(.element(id: 3, action: .setTitle("Milk")))
/// ```
public struct CasePath<Root, Value>: Sendable {
  /// Wraps a value in the case.
  public let embed: @Sendable (Value) -> Root
  @usableFromInline let extraction: Extraction

  @usableFromInline
  enum Extraction: Sendable {
    /// Made from the constructor of the only case carrying a `Value`: the case's tag.
    case known(tag: UInt32, isIndirect: Bool)
    /// Made from a case constructor whose case is learned from values.
    case learning(CaseExtractor<Root, Value>)
    /// Explicit, or composed.
    case explicit(@Sendable (Root) -> Value?, describe: @Sendable () -> String)
  }

  /// A case path with explicit embedding and extraction.
  public init(embed: @escaping @Sendable (Value) -> Root, extract: @escaping @Sendable (Root) -> Value?) {
    self.init(embed: embed, extract: extract) { "a case path to \(Value.self)" }
  }

  init(
    embed: @escaping @Sendable (Value) -> Root, extract: @escaping @Sendable (Root) -> Value?,
    describe: @escaping @Sendable () -> String
  ) {
    self.embed = embed
    self.extraction = .explicit(extract, describe: describe)
  }

  /// A case path for the enum case `embed` constructs.
  ///
  /// Extraction compares the value's case (read from the runtime) with the case `embed` makes,
  /// then reads the payload in place: tens of nanoseconds. Where the runtime's layout cannot
  /// decide (a tuple payload), it reflects over the value (`Mirror`, about a microsecond). The case
  /// must carry exactly one payload of type `Value` (use a struct or a tuple for more).
  ///
  /// `{ $0 }` (TCA's `\.self`) is the whole value: every action reaches a `Scope(action: { $0 })`.
  @inlinable
  public init(_ embed: @escaping @Sendable (Value) -> Root) {
    self.embed = embed
    if Value.self == Root.self {
      self.extraction = Self.identityOrRecursiveCase(embed)
    } else if case let .unique(tag, isIndirect) = EnumPayload.carrier(of: Value.self, in: Root.self) {
      self.extraction = .known(tag: tag, isIndirect: isIndirect)
    } else {
      self.extraction = .learning(CaseExtractor(embed))
    }
  }

  /// The extraction of a path from a type to itself: `{ $0 }`, the whole value; or the constructor
  /// of a recursive case (`.child(Action)`). Told apart by what `embed` makes of a value: the
  /// identity gives back the same bits, a case constructor another value (a new box).
  @usableFromInline
  static func identityOrRecursiveCase(_ embed: @escaping @Sendable (Value) -> Root) -> Extraction {
    let extractor = CaseExtractor(embed)
    return .explicit(
      { root in
        let value = root as! Value
        var embedded = embed(value)
        var original = root
        let isIdentity = withUnsafeBytes(of: &embedded) { embedded in
          withUnsafeBytes(of: &original) { embedded.elementsEqual($0) }
        }
        return isIdentity ? value : extractor.extract(root)
      },
      describe: { "\(Root.self)" })
  }

  /// Extraction by reflection (what extraction falls back to), for tests.
  static func reflect(_ root: Root, _ embed: @escaping @Sendable (Value) -> Root) -> Value? {
    CaseExtractor(embed).reflect(root)
  }

  /// The payload if `root` is this case.
  @inlinable
  public func extract(from root: Root) -> Value? {
    switch extraction {
    case let .known(tag, isIndirect):
      EnumTag.tag(of: root) == tag ? EnumPayload.project(root, indirect: isIndirect, as: Value.self) : nil
    case let .learning(extractor): extractor.extract(root)
    case let .explicit(extract, _): extract(root)
    }
  }

  /// Whether `root` is in this case, read without copying the payload where the case is known.
  @inlinable
  func matches(_ root: Root) -> Bool {
    if case let .known(tag, _) = extraction { return EnumTag.tag(of: root) == tag }
    return extract(from: root) != nil
  }

  /// Runs `body` on the payload of `root` if `root` is this case, and returns its result; nil,
  /// leaving `root` alone, if it is another case.
  ///
  /// ```swift
  /// CasePath(Destination.edit).modify(&state.destination!) { $0.title = "Milk" }
  /// ```
  ///
  /// For a case path made from a case constructor whose payload is not `indirect`, the payload is
  /// changed where it is (no copy, so its copy-on-write storage stays unique); otherwise it is
  /// extracted, changed and embedded again.
  @discardableResult
  public func modify<Result>(_ root: inout Root, _ body: (inout Value) throws -> Result) rethrows -> Result? {
    let known: (tag: UInt32, isIndirect: Bool)?
    switch extraction {
    case let .known(tag, isIndirect): known = (tag, isIndirect)
    case let .learning(extractor):
      switch extractor.learnedCase(from: root) {
      case let .known(tag, isIndirect): known = (tag, isIndirect)
      case .otherCase: return nil
      case .unknown: known = nil
      }
    case .explicit: known = nil
    }
    if let known, !known.isIndirect {
      guard EnumTag.tag(of: root) == known.tag else { return nil }
      return try EnumPayload.modify(&root, tag: known.tag, as: Value.self, body)
    }
    guard var value = extract(from: root) else { return nil }
    let result = try body(&value)
    root = embed(value)
    return result
  }

  /// This case path followed by `child`: `Root`'s case whose payload is in `child`'s case.
  ///
  /// ```swift
  /// let increment = CasePath(AppAction.tab).appending(TabAction.counter)
  /// increment.embed(.increment)   // .tab(.counter(.increment))
  /// ```
  public func appending<Child>(_ child: CasePath<Value, Child>) -> CasePath<Root, Child> {
    CasePath<Root, Child>(
      embed: { [embed] in embed(child.embed($0)) },
      extract: { self.extract(from: $0).flatMap(child.extract(from:)) },
      describe: { "\(self) → \(child)" })
  }

  /// This case path followed by the case `child` constructs.
  public func appending<Child>(_ child: @escaping @Sendable (Child) -> Value) -> CasePath<Root, Child> {
    appending(CasePath<Value, Child>(child))
  }
}

extension CasePath {
  /// The action of the element with `id`, through an ``IdentifiedAction`` case.
  ///
  /// ```swift
  /// let row3 = CasePath(AppAction.rows)[id: 3]   // CasePath<AppAction, RowAction>
  /// row3.embed(.increment)                        // .rows(.element(id: 3, action: .increment))
  /// ```
  public subscript<ID, ElementAction>(id id: ID) -> CasePath<Root, ElementAction>
  where Value == IdentifiedAction<ID, ElementAction> {
    appending(
      CasePath<Value, ElementAction>(
        embed: { .element(id: id, action: $0) },
        extract: { if case let .element(id: elementID, action) = $0, elementID == id { action } else { nil } },
        describe: { "element(id: \(id))" }))
  }
}

extension CasePath: CustomStringConvertible {
  /// The case, for messages: `AppAction.counter`, `AppAction.rows → element(id: 3)`.
  public var description: String {
    switch extraction {
    case let .known(tag, _): EnumPayload.describe(Root.self, Value.self, tag: tag)
    case let .learning(extractor): EnumPayload.describe(Root.self, Value.self, tag: extractor.learnedCase?.tag)
    case let .explicit(_, describe): describe()
    }
  }
}
