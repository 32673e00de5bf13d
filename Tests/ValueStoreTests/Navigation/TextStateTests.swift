import Testing
import ValueStore

/// `TextState`: verbatim text as data, with swift-navigation's spellings.
@Suite struct TextStateTests {
  @Test func initializersSpellTheSameText() {
    let name: Substring = "Blob Jr"
    #expect(TextState("Delete?") == TextState(verbatim: "Delete?"))
    #expect(String(state: TextState(name)) == "Blob Jr")
    let literal: TextState = "Delete?"
    #expect(literal == TextState("Delete?"))
    #expect(TextState("Delete?") != TextState("Delete"))
  }

  @Test func concatenationReadsAsTheWholeText() {
    let title = TextState("Delete ") + TextState("Milk") + "?"
    #expect(String(state: title) == "Delete Milk?")
    #expect(title == TextState("Delete Milk?"))
    #expect(title.hashValue == TextState("Delete Milk?").hashValue)
  }

  @Test func descriptionsAndDumps() {
    let text = TextState("Say \"hi\"")
    #expect("\(text)" == #"Say "hi""#)
    #expect(text.debugDescription == #"TextState("Say \"hi\"")"#)
    #expect(String(customDumping: text) == #"TextState("Say \"hi\"")"#)
  }

  @Test func isSendableAndHashable() {
    func requires<T: Hashable & Sendable>(_: T.Type) {}
    requires(TextState.self)
    #expect(Set<TextState>(["a", "a", "b"]).count == 2)
  }
}
