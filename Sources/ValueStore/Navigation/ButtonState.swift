#if canImport(SwiftUI)
  import SwiftUI
#endif

/// A button of an alert or a dialog: its label, its role, and what it does (``ButtonStateAction``:
/// send an action, or none and only dismiss), as swift-navigation's `ButtonState`.
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) { "Delete" }        // String label
/// ButtonState(role: .destructive, action: .send(.confirmDeletion, animation: .default)) {
///   TextState("Delete")                                                          // TCA's spelling
/// }
/// ButtonState(role: .cancel) { TextState("Cancel") }                            // only dismisses
/// ```
public struct ButtonState<Action>: Identifiable {
  /// A button's role: ``ButtonStateRole``.
  public typealias Role = ButtonStateRole

  /// The button's position among its alert's buttons (0 outside a ``ButtonStateBuilder``).
  public let id: Int
  /// The button's role, if any.
  public var role: Role?
  /// What the button does: the action it sends (if any) and the animation it sends it with.
  public var action: ButtonStateAction<Action>
  /// The button's label.
  public var label: TextState

  /// A button sending `action` (`nil`: none, it only dismisses), labelled with a string.
  ///
  /// ```swift
  /// ButtonState(role: .destructive, action: .confirmDeletion) { "Delete" }
  /// ```
  public init(role: Role? = nil, action: Action? = nil, label: () -> String) {
    self.init(id: 0, role: role, action: .send(action), label: TextState(label()))
  }

  /// A button doing `action` — `.send(.confirm)`, `.send(.confirm, animation: .default)`, or by
  /// default nothing but dismissing — labelled with a ``TextState``, as in TCA.
  ///
  /// ```swift
  /// ButtonState(role: .destructive, action: .send(.confirmDeletion, animation: .default)) {
  ///   TextState("Delete")
  /// }
  /// ButtonState(role: .cancel) { TextState("Cancel") }
  /// ```
  public init(role: Role? = nil, action: ButtonStateAction<Action> = .send(nil), label: () -> TextState) {
    self.init(id: 0, role: role, action: action, label: label())
  }

  /// A button sending `action`, labelled with a ``TextState``, as in TCA.
  ///
  /// ```swift
  /// ButtonState(action: .confirmDeletion) { TextState("Delete") }
  /// ```
  public init(role: Role? = nil, action: Action, label: () -> TextState) {
    self.init(id: 0, role: role, action: .send(action), label: label())
  }

  init(id: Int, role: Role?, action: ButtonStateAction<Action>, label: TextState) {
    (self.id, self.role, self.action, self.label) = (id, role, action, label)
  }

  /// `button` numbered `id` among its alert's buttons.
  init(_ button: Self, id: Int) {
    self.init(id: id, role: button.role, action: button.action, label: button.label)
  }

  /// Calls `perform` with the button's action (`nil`: none), for a view that shows the button: on
  /// Apple platforms inside SwiftUI's `withAnimation` when it was given one
  /// (``ButtonStateAction/send(_:animation:)``); elsewhere the animation is ignored.
  ///
  /// ```swift
  /// button.withAction { action in
  ///   if let action { store.send(.alert(.presented(action))) }
  /// }
  /// ```
  public func withAction(_ perform: (Action?) -> Void) {
    switch action.kind {
    case let .send(action):
      perform(action)
    case let .animatedSend(action, animation):
      #if canImport(SwiftUI)
        withAnimation(animation) { perform(action) }
      #else
        _ = animation
        perform(action)
      #endif
    }
  }
}

/// The role of a button of an alert or a dialog, as swift-navigation's `ButtonStateRole` (also
/// spelled `ButtonState.Role`).
///
/// ```swift
/// ButtonState(role: .cancel) { TextState("Cancel") }
/// ```
public enum ButtonStateRole: Hashable, Sendable {
  /// Cancels: closes without doing anything.
  case cancel
  /// Destroys data: deletes, discards.
  case destructive
}

/// Builds the buttons of an alert or a dialog, numbering them in order.
@resultBuilder
public enum ButtonStateBuilder<Action> {
  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] { [button] }
  public static func buildBlock(_ parts: [ButtonState<Action>]...) -> [ButtonState<Action>] { parts.flatMap { $0 } }
  public static func buildOptional(_ part: [ButtonState<Action>]?) -> [ButtonState<Action>] { part ?? [] }
  public static func buildEither(first part: [ButtonState<Action>]) -> [ButtonState<Action>] { part }
  public static func buildEither(second part: [ButtonState<Action>]) -> [ButtonState<Action>] { part }
  public static func buildArray(_ parts: [[ButtonState<Action>]]) -> [ButtonState<Action>] { parts.flatMap { $0 } }
  public static func buildFinalResult(_ buttons: [ButtonState<Action>]) -> [ButtonState<Action>] {
    buttons.enumerated().map { ButtonState($1, id: $0) }
  }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}
