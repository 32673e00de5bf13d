import ValueStore

/// A failure message showing how two unequal values differ:
///
/// ```text
/// <headline>
///
///   − <line only in first>
///   + <line only in second>
///
/// (<firstName>: −, <secondName>: +)
/// ```
///
/// Values whose `==` compares something their dumps don't show (a custom `==`, `-0.0` and `0.0`)
/// dump identically; the message then shows the dump once and says so.
///
/// The values are diffed together (``diff(_:_:format:)``): long runs of equal elements fold
/// without being dumped.
func differenceMessage<T>(
  _ headline: String, _ first: T, _ second: T, firstName: String, secondName: String
) -> String {
  guard let difference = diff(first, second, format: .proportional) else {
    return identicalDumpsMessage(headline, String(customDumping: first), firstName: firstName, secondName: secondName)
  }
  return differenceMessage(headline, difference: difference, firstName: firstName, secondName: secondName)
}

/// The message for two values' dumps.
func differenceMessage(
  _ headline: String, dumps first: String, _ second: String, firstName: String, secondName: String
) -> String {
  guard let difference = diff(dumps: first, second, format: .proportional) else {
    return identicalDumpsMessage(headline, first, firstName: firstName, secondName: secondName)
  }
  return differenceMessage(headline, difference: difference, firstName: firstName, secondName: secondName)
}

private func identicalDumpsMessage(_ headline: String, _ dump: String, firstName: String, secondName: String) -> String {
  """
  \(headline)

  \(indented(dump))

  (\(firstName) and \(secondName) are not equal, but they dump identically.)
  """
}

private func differenceMessage(_ headline: String, difference: String, firstName: String, secondName: String) -> String {
  let format = DiffFormat.proportional
  return """
    \(headline)

    \(indented(difference))

    (\(firstName): \(format.first), \(secondName): \(format.second))
    """
}

/// `text` with every line indented by two spaces, to set a dump apart from the message around it.
func indented(_ text: String) -> String {
  text.split(separator: "\n", omittingEmptySubsequences: false)
    .map { $0.isEmpty ? "" : "  \($0)" }
    .joined(separator: "\n")
}

/// "1 action", "2 actions": a count with its noun.
func counted(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}
