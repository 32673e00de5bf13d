import Foundation

/// Leaf values: the types whose reflection is an implementation detail, printed the way people
/// write them, and the names that prefix structured values.
extension ValueDumper {
  /// The text for a value printed without reflection, or `nil` if it should be reflected.
  static func leafText(of value: Any, indent: Int) -> String? {
    switch value {
    case let string as String: stringLiteral(string, indent: indent)
    case let string as Substring: stringLiteral(String(string), indent: indent)
    case let character as Character: stringLiteral(String(character), indent: indent)
    case let date as Date: "Date(\(iso8601(date)))"
    case let uuid as UUID: "UUID(\(uuid.uuidString))"
    case let url as URL: "URL(\(url.absoluteString))"
    case let duration as Duration: exactDescription(of: duration)
    // The mirrors of these expose their storage, including buffer addresses that change every run.
    case let data as Data: dataText(data)
    case let decimal as Decimal: decimal.description
    case let timeZone as TimeZone: "TimeZone(\(timeZone.identifier))"
    default: nil
    }
  }

  /// The text a type chose for itself (preferring the debug one), with later lines indented to
  /// the current level. Used only when reflection finds no children, so a description never hides
  /// a value's fields.
  static func ownDescription(of value: Any, indent: Int) -> String? {
    let text: String
    if let value = value as? any CustomDebugStringConvertible {
      text = value.debugDescription
    } else if let value = value as? any CustomStringConvertible {
      text = value.description
    } else {
      return nil
    }
    guard text.utf8.contains(UInt8(ascii: "\n")) else { return text }
    return text.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: indent))
  }

  /// A type's name as written in source, without module, private or local context, or generic
  /// arguments (`Outer.Inner`, `IdentifiedArray`), so dumps stay short and identical across modules.
  static func uncachedTypeName(_ type: Any.Type) -> String {
    var components: [String] = []
    var current = ""
    var angleDepth = 0
    var parenDepth = 0
    var hasContextMarker = false
    var previous: Character = " "
    for character in String(reflecting: type) {
      switch character {
      case "<": angleDepth += 1
      case ">" where previous != "-": angleDepth -= 1  // `->` inside generic arguments is no bracket.
      case "(" where angleDepth == 0: parenDepth += 1
      case ")" where angleDepth == 0:
        // `(unknown context at $…)` marks a private or local scope. Source code names such a
        // type from inside that scope, so the path up to the marker is dropped.
        parenDepth -= 1
        components.removeAll()
        hasContextMarker = true
      case "." where angleDepth == 0 && parenDepth == 0:
        if !current.isEmpty { components.append(current) }
        current = ""
      default:
        if angleDepth == 0 && parenDepth == 0 { current.append(character) }
      }
      previous = character
    }
    components.append(current)
    // Otherwise the path starts with the module.
    return (hasContextMarker ? components[...] : components.dropFirst()).joined(separator: ".")
  }

  /// Single-line strings print as quoted literals escaping `"` and `\`. Multi-line ones print as a
  /// multi-line literal indented to the current level, raw (`#"""`) when their text needs it, so each
  /// line of text is one line of the dump and diffs line up with the text's own lines.
  ///
  /// Every newline character splits a line, so `\r\n` and `\n` print alike.
  private static func stringLiteral(_ string: String, indent: Int) -> String {
    guard string.contains(where: \.isNewline) else {
      var literal = "\""
      for character in string {
        if character == "\"" || character == "\\" { literal.append("\\") }
        literal.append(character)
      }
      literal.append("\"")
      return literal
    }
    let hashes = String(repeating: "#", count: rawDelimiterLength(for: string))
    let margin = String(repeating: " ", count: indent)
    var literal = hashes + "\"\"\""
    for line in string.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      literal += line.isEmpty ? "\n" : "\n\(margin)\(line)"
    }
    return literal + "\n\(margin)\"\"\"\(hashes)"
  }

  /// The fewest `#`s that keep `string` verbatim in a multi-line literal: none unless it contains a
  /// backslash or `"""`, and otherwise one more than any run of `#` following one of those, so that
  /// nothing inside reads as an escape or as the closing delimiter.
  private static func rawDelimiterLength(for string: String) -> Int {
    var count = 0
    while true {
      let hashes = String(repeating: "#", count: count)
      if !string.contains("\\" + hashes) && !string.contains("\"\"\"" + hashes) { return count }
      count += 1
    }
  }

  /// ISO 8601 in UTC, with milliseconds only when the date has a fractional second: whole-second
  /// dates read cleanly, yet dates a millisecond or more apart still dump differently.
  private static func iso8601(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970
    let style = Date.ISO8601FormatStyle(includingFractionalSeconds: seconds != seconds.rounded(.down))
    return date.formatted(style)
  }

  /// The byte count and every byte in hex, so that data of equal length but different content
  /// still dumps differently.
  private static func dataText(_ data: Data) -> String {
    guard !data.isEmpty else { return "Data(0 bytes)" }
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(data.count * 2)
    for byte in data {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 0xF)])
    }
    return "Data(\(data.count) bytes: \(String(decoding: hex, as: UTF8.self)))"
  }

  /// Reads like `Duration.description` (`1.5 seconds`), which goes through `Double` and rounds;
  /// this keeps every attosecond.
  private static func exactDescription(of duration: Duration) -> String {
    // Both components carry the duration's sign.
    let (seconds, attoseconds) = duration.components
    let sign = seconds < 0 || attoseconds < 0 ? "-" : ""
    let digits = String(attoseconds.magnitude)
    var fraction = String(repeating: "0", count: 18 - digits.count) + digits
    while fraction.count > 1 && fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(sign)\(seconds.magnitude).\(fraction) seconds"
  }
}
