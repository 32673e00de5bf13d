/// The id of an element of a ``StackState``: given when the element is pushed, never reused by
/// that stack, so an effect or a store can name an element that was popped without naming another.
///
/// Ids count from 0 in each stack, so tests can write them as literals: `$0.path[id: 0]`.
public struct StackElementID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible
{
  public let rawValue: Int

  public init(integerLiteral value: Int) { rawValue = value }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "#\(rawValue)" }
}

/// `\.path[id: 0]`: a stack element's id is written as its number in case key paths.
extension StackElementID: CaseKeyPathID {
  var caseKeyPathID: AnyHashable { AnyHashable(rawValue) }
  init?(caseKeyPathID: AnyHashable) {
    guard let rawValue = caseKeyPathID.base as? Int else { return nil }
    self.rawValue = rawValue
  }
}
