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
///
/// TCA's spelling, with ``TextState``, builds the same alert:
///
/// ```swift
/// AlertState {
///   TextState("Delete?")
/// } actions: {
///   ButtonState(role: .destructive, action: .send(.confirmDeletion, animation: .default)) {
///     TextState("Delete")
///   }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// } message: {
///   TextState("This cannot be undone.")
/// }
/// ```
public struct AlertState<Action>: _EphemeralState {
  public static var _actionType: Any.Type { Action.self }

  /// The alert's title.
  public var title: TextState
  /// The text under the title, if any.
  public var message: TextState?
  /// The alert's buttons, in order; none: the system shows an OK button that only dismisses.
  public var buttons: [ButtonState<Action>]

  /// An alert titled `title`, with `message` under it and the buttons `buttons` builds.
  ///
  /// ```swift
  /// AlertState(title: "Delete?", message: "This cannot be undone.") {
  ///   ButtonState(role: .destructive, action: .confirmDeletion) { "Delete" }
  /// }
  /// ```
  public init(
    title: String, message: String? = nil,
    @ButtonStateBuilder<Action> buttons: () -> [ButtonState<Action>] = { [] }
  ) {
    self.title = TextState(title)
    self.message = message.map { TextState($0) }
    self.buttons = buttons()
  }

  /// An alert titled `title`, with the buttons `actions` builds and `message` under the title:
  /// TCA's spelling.
  ///
  /// ```swift
  /// AlertState {
  ///   TextState("Delete?")
  /// } actions: {
  ///   ButtonState(role: .destructive, action: .send(.confirmDeletion, animation: .default)) {
  ///     TextState("Delete")
  ///   }
  /// } message: {
  ///   TextState("This cannot be undone.")
  /// }
  /// ```
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.title = title()
    self.message = message?()
    self.buttons = actions()
  }
}

/// A confirmation dialog (an action sheet) as plain data: like ``AlertState``, with a title that
/// may be hidden.
///
/// ```swift
/// ConfirmationDialogState(title: "Share", titleVisible: true) {
///   ButtonState(action: .copyLink) { "Copy Link" }
///   ButtonState(role: .cancel) { "Cancel" }
/// }
/// ```
public struct ConfirmationDialogState<Action>: _EphemeralState {
  public static var _actionType: Any.Type { Action.self }

  /// The dialog's title.
  public var title: TextState
  /// Whether the title is shown.
  public var titleVisible: Bool
  /// The text under the title, if any.
  public var message: TextState?
  /// The dialog's buttons, in order.
  public var buttons: [ButtonState<Action>]

  /// A dialog titled `title` (shown if `titleVisible`), with `message` and the buttons `buttons`
  /// builds.
  ///
  /// ```swift
  /// ConfirmationDialogState(title: "Share") { ButtonState(action: .copyLink) { "Copy Link" } }
  /// ```
  public init(
    title: String, titleVisible: Bool = false, message: String? = nil,
    @ButtonStateBuilder<Action> buttons: () -> [ButtonState<Action>]
  ) {
    self.title = TextState(title)
    self.titleVisible = titleVisible
    self.message = message.map { TextState($0) }
    self.buttons = buttons()
  }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}
extension ConfirmationDialogState: Equatable where Action: Equatable {}
extension ConfirmationDialogState: Hashable where Action: Hashable {}
extension ConfirmationDialogState: Sendable where Action: Sendable {}
