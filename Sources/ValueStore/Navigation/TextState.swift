/// Text as plain, `Equatable` data: the titles, messages and button labels of ``AlertState`` and
/// ``ConfirmationDialogState``, as swift-navigation's `TextState`.
///
/// ```swift
/// let title = TextState("Delete ") + TextState(item.name) + TextState("?")
/// AlertState { title } actions: {
///   ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
/// }
/// String(state: title)   // "Delete Milk?"
/// ```
///
/// The text is verbatim: it is not looked up as a localized string key, and it has no styling
/// (swift-navigation's `bold()`, `font(_:)` and the like are SwiftUI's, which this package does
/// not depend on). So two texts are equal when they read the same, however they were put together:
/// `TextState("a") + TextState("b") == TextState("ab")` (swift-navigation, which keeps the
/// pieces for their styles, tells those apart).
public struct TextState: Hashable, Sendable {
  @usableFromInline let string: String

  /// The text `content` spells.
  ///
  /// ```swift
  /// TextState("Delete?")
  /// TextState("Delete \(item.name)?")
  /// ```
  @inlinable
  public init(_ content: some StringProtocol) {
    string = String(content)
  }

  /// The text `content` spells, as written: swift-navigation's spelling for text that is never
  /// localized (here, no text is).
  ///
  /// ```swift
  /// TextState(verbatim: user.name)
  /// ```
  @inlinable
  public init(verbatim content: String) {
    string = content
  }

  /// `lhs` followed by `rhs`.
  ///
  /// ```swift
  /// TextState("Hello, ") + TextState(name)   // "Hello, Blob"
  /// ```
  @inlinable
  public static func + (lhs: Self, rhs: Self) -> Self {
    Self(verbatim: lhs.string + rhs.string)
  }
}

extension TextState: ExpressibleByStringLiteral {
  /// The literal's text, where a `TextState` is expected.
  ///
  /// ```swift
  /// let title: TextState = "Delete?"
  /// ```
  @inlinable
  public init(stringLiteral value: String) {
    string = value
  }
}

extension TextState: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The text itself: `"\(TextState("Hi"))"` is `"Hi"`.
  public var description: String { string }

  /// `TextState("Hi")`: how dumps and test failures show it.
  public var debugDescription: String { "TextState(\(string.debugDescription))" }

  /// No children: dumps show the ``debugDescription``.
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension String {
  /// The text of `state`, as swift-navigation's `String(state:)`.
  ///
  /// ```swift
  /// String(state: TextState("Delete ") + TextState("Milk"))   // "Delete Milk"
  /// ```
  @inlinable
  public init(state: TextState) {
    self = state.string
  }
}
