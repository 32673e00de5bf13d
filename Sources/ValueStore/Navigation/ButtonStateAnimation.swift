#if canImport(SwiftUI)
  import SwiftUI

  /// The animation a button of an alert or a dialog sends its action with
  /// (``ButtonStateAction/send(_:animation:)``): SwiftUI's `Animation`, used by
  /// ``ButtonState/withAction(_:)``.
  ///
  /// ```swift
  /// ButtonState(action: .send(.confirm, animation: .default)) { TextState("OK") }
  /// ```
  public typealias ButtonStateAnimation = SwiftUI.Animation
#else
  /// Where SwiftUI is unavailable (Linux, Windows), a stand-in for its `Animation`, so that a
  /// button's ``ButtonStateAction/send(_:animation:)`` written for Apple platforms compiles here
  /// too: it only names the animation, which is kept for equality and descriptions and otherwise
  /// ignored (there is nothing to animate). It offers SwiftUI's most used animations; on Apple
  /// platforms ``ButtonStateAnimation`` is SwiftUI's `Animation` itself.
  ///
  /// ```swift
  /// ButtonState(action: .send(.confirm, animation: .default)) { TextState("OK") }
  /// ButtonState(action: .send(.undo, animation: .easeInOut(duration: 0.3))) { TextState("Undo") }
  /// ```
  public struct ButtonStateAnimation: Hashable, Sendable, CustomStringConvertible {
    /// The animation's name as SwiftUI spells it: `default`, `easeInOut(duration: 0.3)`.
    public let description: String

    init(_ description: String) { self.description = description }

    /// SwiftUI's `Animation.default`.
    public static let `default` = Self("default")
    /// SwiftUI's `Animation.linear`.
    public static let linear = Self("linear")
    /// SwiftUI's `Animation.easeIn`.
    public static let easeIn = Self("easeIn")
    /// SwiftUI's `Animation.easeOut`.
    public static let easeOut = Self("easeOut")
    /// SwiftUI's `Animation.easeInOut`.
    public static let easeInOut = Self("easeInOut")
    /// SwiftUI's `Animation.spring`.
    public static let spring = Self("spring")
    /// SwiftUI's `Animation.bouncy`.
    public static let bouncy = Self("bouncy")
    /// SwiftUI's `Animation.smooth`.
    public static let smooth = Self("smooth")
    /// SwiftUI's `Animation.snappy`.
    public static let snappy = Self("snappy")

    /// SwiftUI's `Animation.linear(duration:)`.
    public static func linear(duration: Double) -> Self { Self("linear(duration: \(duration))") }
    /// SwiftUI's `Animation.easeIn(duration:)`.
    public static func easeIn(duration: Double) -> Self { Self("easeIn(duration: \(duration))") }
    /// SwiftUI's `Animation.easeOut(duration:)`.
    public static func easeOut(duration: Double) -> Self { Self("easeOut(duration: \(duration))") }
    /// SwiftUI's `Animation.easeInOut(duration:)`.
    public static func easeInOut(duration: Double) -> Self { Self("easeInOut(duration: \(duration))") }
    /// SwiftUI's `Animation.spring(duration:bounce:)`: `.spring()` too.
    public static func spring(duration: Double = 0.5, bounce: Double = 0) -> Self {
      Self("spring(duration: \(duration), bounce: \(bounce))")
    }
  }
#endif
