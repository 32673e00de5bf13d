import Testing
import ValueStore

/// `AlertState` and `ButtonState` spelled as TCA users write them (with `TextState`, an action
/// sent with an animation), beside the package's own `String` spelling: both build the same data.
@Suite struct AlertStateTests {
  enum Alert: Equatable, Sendable { case confirm, retry }

  @Test func tcasSpellingBuildsTheAlert() {
    let alert = AlertState<Alert> {
      TextState("Delete?")
    } actions: {
      ButtonState(role: .destructive, action: .send(.confirm, animation: .default)) {
        TextState("Delete")
      }
      ButtonState(action: .retry) { TextState("Retry") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState("This cannot be undone.")
    }
    #expect(alert.title == TextState("Delete?"))
    #expect(alert.message == TextState("This cannot be undone."))
    #expect(alert.buttons.map(\.id) == [0, 1, 2])
    #expect(alert.buttons.map(\.role) == [.destructive, nil, .cancel])
    #expect(alert.buttons.map(\.label) == ["Delete", "Retry", "Cancel"])
    #expect(alert.buttons.map(\.action.action) == [.confirm, .retry, nil])
    #expect(alert.buttons[0].action.animation == .default)
    #expect(alert.buttons[1].action.animation == nil)
  }

  @Test func titleAloneAndTitleWithActions() {
    let titleOnly = AlertState<Alert> { TextState("Saved") }
    #expect(titleOnly.title == "Saved")
    #expect(titleOnly.message == nil)
    #expect(titleOnly.buttons.isEmpty)
    let noMessage = AlertState<Alert> { TextState("Saved") } actions: { ButtonState(action: .retry) { TextState("Again") } }
    #expect(noMessage.message == nil)
    #expect(noMessage.buttons.count == 1)
  }

  @Test func stringAndTextStateSpellingsAreEqual() {
    let strings = AlertState<Alert>(title: "Delete?", message: "Sure?") {
      ButtonState(role: .destructive, action: .confirm) { "Delete" }
      ButtonState(role: .cancel) { "Cancel" }
    }
    let texts = AlertState<Alert> {
      TextState("Delete?")
    } actions: {
      ButtonState(role: .destructive, action: .send(.confirm)) { TextState("Delete") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState("Sure?")
    }
    #expect(strings == texts)
    #expect(strings.hashValue == texts.hashValue)
  }

  @Test func anAnimatedSendDiffersFromAPlainOne() {
    let plain = ButtonState<Alert>(action: .send(.confirm)) { TextState("OK") }
    let animated = ButtonState<Alert>(action: .send(.confirm, animation: .default)) { TextState("OK") }
    let withoutAnimation = ButtonState<Alert>(action: .send(.confirm, animation: nil)) { TextState("OK") }
    #expect(plain != animated)
    #expect(animated != withoutAnimation)
    #expect(animated == ButtonState(action: .send(.confirm, animation: .default)) { TextState("OK") })
    #expect(withoutAnimation.action.animation == nil)
    #expect(withoutAnimation.action.action == .confirm)
    #expect(Set([plain.action, animated.action, animated.action]).count == 2)
  }

  @Test func withActionPerformsTheButtonsAction() {
    var performed: [Alert?] = []
    ButtonState<Alert>(action: .send(.confirm, animation: .easeInOut)) { TextState("OK") }
      .withAction { performed.append($0) }
    ButtonState<Alert>(action: .retry) { TextState("Retry") }.withAction { performed.append($0) }
    ButtonState<Alert>(role: .cancel) { TextState("Cancel") }.withAction { performed.append($0) }
    #expect(performed == [.confirm, .retry, nil])
  }

  @Test func buttonStateRoleIsButtonStateDotRole() {
    let role: ButtonStateRole = .destructive
    let button = ButtonState<Alert>(role: role) { "Delete" }
    #expect(button.role == ButtonState<Alert>.Role.destructive)
  }

  #if !canImport(SwiftUI)
    /// Without SwiftUI the animation is a stand-in that only names SwiftUI's animation.
    @Test func withoutSwiftUITheAnimationIsANamedStandIn() {
      let animations: [ButtonStateAnimation] = [
        .default, .linear, .easeIn, .easeOut, .easeInOut, .spring, .bouncy, .smooth, .snappy,
        .linear(duration: 0.3), .easeIn(duration: 0.3), .easeOut(duration: 0.3), .easeInOut(duration: 0.3), .spring(),
      ]
      #expect(Set(animations).count == animations.count)
      #expect(ButtonStateAnimation.easeInOut(duration: 0.3).description == "easeInOut(duration: 0.3)")
      #expect(ButtonStateAnimation.spring() == .spring(duration: 0.5, bounce: 0))
    }
  #endif

  @Test func anAlertDumpsItsTexts() {
    let alert = AlertState<Alert>(title: "Delete?")
    #expect(
      String(customDumping: alert) == """
        AlertState(
          title: TextState("Delete?"),
          message: nil,
          buttons: []
        )
        """)
  }
}
