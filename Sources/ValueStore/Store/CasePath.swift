/// Embeds a child value into an enum case and extracts it back: how a parent action carries a
/// child's action (and how enum state carries a child's state), without macros.
///
/// Make one from the case itself; extraction then finds the case by reflection:
///
/// ```swift
/// enum AppAction { case counter(CounterAction), reset }
/// let counter = CasePath(AppAction.counter)
/// counter.embed(.increment)            // AppAction.counter(.increment)
/// counter.extract(from: .reset)        // nil
/// ```
///
/// Reflection costs about a microsecond per extraction. On a hot path, pass an explicit
/// `extract` closure: `CasePath(embed: AppAction.counter) { if case let .counter(a) = $0 { a } else { nil } }`.
public struct CasePath<Root, Value>: Sendable {
  /// Wraps a value in the case.
  public let embed: @Sendable (Value) -> Root
  private let extractor: @Sendable (Root) -> Value?

  /// A case path with explicit embedding and extraction.
  public init(embed: @escaping @Sendable (Value) -> Root, extract: @escaping @Sendable (Root) -> Value?) {
    self.embed = embed
    self.extractor = extract
  }

  /// A case path for the enum case `embed` constructs, extracting by reflection.
  ///
  /// The case must carry exactly one payload of type `Value` (use a struct or a tuple for more).
  public init(_ embed: @escaping @Sendable (Value) -> Root) {
    self.init(embed: embed) { root in
      let mirror = Mirror(reflecting: root)
      guard mirror.displayStyle == .enum, let child = mirror.children.first,
        let value = child.value as? Value,
        Mirror(reflecting: embed(value)).children.first?.label == child.label
      else { return nil }
      return value
    }
  }

  /// The payload if `root` is this case.
  public func extract(from root: Root) -> Value? { extractor(root) }
}
