import Synchronization

/// Extraction for a ``CasePath`` made from a case constructor: by the value's case, as the
/// runtime numbers it (``EnumTag``), and the payload read in place (``EnumPayload``).
///
/// Which case `embed` makes is only known from a value of that case, so it is learned the first
/// time a payload is extracted; from then on an extraction compares one tag and projects, with no
/// lookup. One object per case path: a `body` rebuilt for each action makes one per scope.
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
    let known: (tag: UInt32, isIndirect: Bool)
    if let learned = learnedCase {
      known = learned
    } else {
      switch learn(from: root) {
      case let .known(tag, isIndirect): known = (tag, isIndirect)
      case .otherCase: return nil
      case .unknown: return reflect(root)
      }
    }
    guard EnumTag.tag(of: root) == known.tag else { return nil }
    return EnumPayload.project(root, indirect: known.isIndirect, as: Value.self)
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
      guard let info = EnumPayload.caseInfo(Root.self, tag: tag), info.payloadType == Value.self else {
        return .otherCase
      }
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
  @usableFromInline
  func reflect(_ root: Root) -> Value? {
    let mirror = Mirror(reflecting: root)
    guard mirror.displayStyle == .enum, let child = mirror.children.first,
      let value = child.value as? Value,
      Mirror(reflecting: embed(value)).children.first?.label == child.label
    else { return nil }
    return value
  }

  /// Runs `body` on the payload in place, if `root` is the case and its payload is not indirect;
  /// `.none` when that cannot be done in place (the caller extracts and embeds instead).
  func modifyInPlace<Result>(
    _ root: inout Root, _ body: (inout Value) throws -> Result
  ) rethrows -> Result?? {
    if learnedCase == nil, case .otherCase = learn(from: root) { return .some(nil) }
    guard let known = learnedCase, !known.isIndirect else { return nil }
    guard EnumTag.tag(of: root) == known.tag else { return .some(nil) }
    return .some(try EnumPayload.modify(&root, tag: known.tag, as: Value.self, body))
  }

  var description: String {
    let type = String(reflecting: Root.self).split(separator: ".", maxSplits: 1).last.map(String.init) ?? "\(Root.self)"
    return EnumPayload.caseName(Root.self, payload: Value.self).map { "\(type).\($0)" }
      ?? "a case of \(type) with a \(Value.self)"
  }
}
