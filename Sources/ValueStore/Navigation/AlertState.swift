/// State that is presented for one decision and dismissed after it: alerts and dialogs.
public protocol _EphemeralState {
  /// The type of the actions its buttons send: one of them dismisses it.
  static var _actionType: Any.Type { get }
}

/// An alert as plain, `Equatable` data: a title, a message, and buttons whose actions come back
/// to the feature as child actions; any button dismisses it.
///
/// ```swift
/// enum Alert: Equatable, Sendable { case confirmDeletion }
/// state.destination = .alert(
///   AlertState(title: "Delete?", message: "This cannot be undone.") {
///     ButtonState(role: .destructive, action: .confirmDeletion) { "Delete" }
///     ButtonState(role: .cancel) { "Cancel" }
///   })
/// // later: case .destination(.presented(.alert(.confirmDeletion))): …
/// ```
public struct AlertState<Action>: _EphemeralState {
  public static var _actionType: Any.Type { Action.self }

  public var title: String
  public var message: String?
  public var buttons: [ButtonState<Action>]

  public init(
    title: String, message: String? = nil,
    @ButtonStateBuilder<Action> buttons: () -> [ButtonState<Action>] = { [] }
  ) {
    self.title = title
    self.message = message
    self.buttons = buttons()
  }
}

/// A confirmation dialog (an action sheet) as plain data: like ``AlertState``, with a title that
/// may be hidden.
public struct ConfirmationDialogState<Action>: _EphemeralState {
  public static var _actionType: Any.Type { Action.self }

  public var title: String
  public var titleVisible: Bool
  public var message: String?
  public var buttons: [ButtonState<Action>]

  public init(
    title: String, titleVisible: Bool = false, message: String? = nil,
    @ButtonStateBuilder<Action> buttons: () -> [ButtonState<Action>]
  ) {
    self.title = title
    self.titleVisible = titleVisible
    self.message = message
    self.buttons = buttons()
  }
}

/// A button of an alert or a dialog: its label, its role, and the action it sends (none: it only
/// dismisses).
public struct ButtonState<Action>: Identifiable {
  public enum Role: Hashable, Sendable { case cancel, destructive }

  public let id: Int
  public var role: Role?
  public var action: Action?
  public var label: String

  public init(role: Role? = nil, action: Action? = nil, label: () -> String) {
    self.role = role
    self.action = action
    self.label = label()
    id = 0
  }

  /// `button` numbered `id` among its alert's buttons.
  init(_ button: Self, id: Int) {
    (self.id, role, action, label) = (id, button.role, button.action, button.label)
  }
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

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}
extension ConfirmationDialogState: Equatable where Action: Equatable {}
extension ConfirmationDialogState: Hashable where Action: Hashable {}
extension ConfirmationDialogState: Sendable where Action: Sendable {}
extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}
