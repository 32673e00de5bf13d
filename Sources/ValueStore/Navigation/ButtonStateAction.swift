/// What a button of an alert or a dialog does: send an action (or none: it only dismisses),
/// possibly with an animation, as swift-navigation's `ButtonStateAction`.
///
/// ```swift
/// ButtonState(role: .destructive, action: .send(.confirmDeletion, animation: .default)) {
///   TextState("Delete")
/// }
/// ButtonState(action: .send(.retry)) { TextState("Retry") }
/// ```
public struct ButtonStateAction<Action> {
  @usableFromInline enum Kind {
    case send(Action?)
    case animatedSend(Action?, animation: ButtonStateAnimation?)
  }
  @usableFromInline let kind: Kind

  @usableFromInline init(_ kind: Kind) { self.kind = kind }

  /// Sends `action` (`nil`: nothing, the button only dismisses).
  ///
  /// ```swift
  /// ButtonState(action: .send(.retry)) { TextState("Retry") }
  /// ```
  @inlinable
  public static func send(_ action: Action?) -> Self { Self(.send(action)) }

  /// Sends `action` with `animation` (`nil`: explicitly without one), as SwiftUI's
  /// `withAnimation`: see ``ButtonState/withAction(_:)``. Where SwiftUI is unavailable the
  /// animation is a ``ButtonStateAnimation`` stand-in and is ignored.
  ///
  /// ```swift
  /// ButtonState(action: .send(.confirm, animation: .default)) { TextState("OK") }
  /// ```
  @inlinable
  public static func send(_ action: Action?, animation: ButtonStateAnimation?) -> Self {
    Self(.animatedSend(action, animation: animation))
  }

  /// The action the button sends, if any.
  ///
  /// ```swift
  /// ButtonStateAction.send(Alert.confirm, animation: .default).action   // .confirm
  /// ```
  @inlinable
  public var action: Action? {
    switch kind {
    case let .send(action), let .animatedSend(action, _): action
    }
  }

  /// The animation the action is sent with: `nil` when sent with ``send(_:)`` or with a `nil`
  /// animation.
  ///
  /// ```swift
  /// ButtonStateAction.send(Alert.confirm, animation: .default).animation   // .default
  /// ```
  @inlinable
  public var animation: ButtonStateAnimation? {
    switch kind {
    case .send: nil
    case let .animatedSend(_, animation): animation
    }
  }
}

extension ButtonStateAction.Kind: Equatable where Action: Equatable {}
extension ButtonStateAction.Kind: Sendable where Action: Sendable {}
extension ButtonStateAction: Equatable where Action: Equatable {}
extension ButtonStateAction: Sendable where Action: Sendable {}

extension ButtonStateAction: Hashable where Action: Hashable {
  /// Hashes the action and whether it is animated, not the animation (SwiftUI's `Animation` is
  /// compared, not hashed): equal values still hash equally.
  ///
  /// ```swift
  /// Set([ButtonStateAction.send(Alert.confirm), .send(.confirm, animation: .default)]).count   // 2
  /// ```
  public func hash(into hasher: inout Hasher) {
    switch kind {
    case let .send(action):
      hasher.combine(0)
      hasher.combine(action)
    case let .animatedSend(action, _):
      hasher.combine(1)
      hasher.combine(action)
    }
  }
}
