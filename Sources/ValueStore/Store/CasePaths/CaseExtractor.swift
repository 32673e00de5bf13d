import Synchronization

/// Extraction for a ``CasePath`` made from the constructor of a case whose payload type other
/// cases carry too (`.a(Int)`, `.b(Int)`), or whose layout the descriptor does not tell: by the
/// value's case, as the runtime numbers it (``EnumTag``), and the payload read in place
/// (``EnumPayload``).
///
/// Which of the cases `embed` makes is only known from a value of that case, so it is learned
/// the first time a payload is extracted; from then on an extraction compares one tag and
/// projects, with no lookup.
@usableFromInline
final class CaseExtractor<Root, Value>: Sendable {
  @usableFromInline let embed: @Sendable (Value) -> Root
  /// 0 until learned; then `known | indirect? | tag`. Every thread that learns it learns the same
  /// bits, so relaxed ordering suffices.
  @usableFromInline let learned = Atomic<UInt64>(0)
  @usableFromInline static var known: UInt64 { 1 << 63 }
  @usableFromInline static var indirect: UInt64 { 1 << 32 }

  @inlinable
  init(_ embed: @escaping @Sendable (Value) -> Root) { self.embed = embed }

  /// The case's tag and whether its payload is `indirect`, once learned.
  @inlinable
  var learnedCase: (tag: UInt32, isIndirect: Bool)? {
    let bits = learned.load(ordering: .relaxed)
    guard bits & Self.known != 0 else { return nil }
    return (UInt32(truncatingIfNeeded: bits), bits & Self.indirect != 0)
  }

  @inlinable
  func extract(_ root: Root) -> Value? {
    switch learnedCase(from: root) {
    case let .known(tag, isIndirect):
      guard EnumTag.tag(of: root) == tag else { return nil }
      return EnumPayload.project(root, indirect: isIndirect, as: Value.self)
    case .otherCase: return nil
    case .unknown: return reflect(root)
    }
  }

  /// The case, learned now from `root` if not before.
  @inlinable
  func learnedCase(from root: Root) -> Learning {
    if let known = learnedCase { return .known(tag: known.tag, isIndirect: known.isIndirect) }
    return learn(from: root)
  }

  @usableFromInline
  enum Learning {
    case known(tag: UInt32, isIndirect: Bool)
    /// Not learned yet, and `root` is not the case.
    case otherCase
    case unknown
  }

  /// Learns the case from the enum's descriptor: the only case carrying a `Value`, or, when
  /// several do, `root`'s case if re-embedding its payload makes the same case.
  @usableFromInline
  func learn(from root: Root) -> Learning {
    let learning: Learning
    switch EnumPayload.carrier(of: Value.self, in: Root.self) {
    case let .unique(tag, isIndirect):
      learning = .known(tag: tag, isIndirect: isIndirect)
    case .shared:
      let tag = EnumTag.tag(of: root)
      guard let info = EnumPayload.caseInfo(Root.self, tag: tag), info.shape == EnumPayload.Shape(Value.self) else {
        return .otherCase
      }
      guard info.isReadable else { return .unknown }
      let value = EnumPayload.project(root, indirect: info.isIndirect, as: Value.self)
      guard EnumTag.tag(of: embed(value)) == tag else { return .otherCase }
      learning = .known(tag: tag, isIndirect: info.isIndirect)
    case .unknown:
      return .unknown
    }
    if case let .known(tag, isIndirect) = learning {
      learned.store(Self.known | (isIndirect ? Self.indirect : 0) | UInt64(tag), ordering: .relaxed)
    }
    return learning
  }

  /// Extraction by reflection: the payload `Mirror` finds, if re-embedding it makes the same case.
  ///
  /// Precondition: not a function or metatype payload of a non-generic enum. Such a payload is
  /// stored in its own representation, which neither a projection nor `Mirror` can turn into a
  /// generic `Value` (only compiled code can): the value read would be garbage.
  @usableFromInline
  func reflect(_ root: Root) -> Value? {
    if let info = EnumPayload.unreadableCase(of: root, as: Value.self) {
      badInput(
        "CasePath cannot extract the \(Value.self) of \(Root.self).\(info.name): a function or metatype payload "
          + "of a non-generic enum. Use CasePath(embed:extract:) with an `if case let` extract.")
    }
    let mirror = Mirror(reflecting: root)
    guard mirror.displayStyle == .enum, let child = mirror.children.first,
      let value = child.value as? Value,
      Mirror(reflecting: embed(value)).children.first?.label == child.label
    else { return nil }
    return value
  }
}
