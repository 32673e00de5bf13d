/// Decodes what a terminal sends into the keys that edit a line: an explicit state machine over
/// the input's characters, so a key split across reads decodes as if read at once.
///
/// - A printable character is typed (Tab types a space); invalid UTF-8 is typed as U+FFFD.
/// - Control characters (C0, DEL, C1) are never typed: the editing keys (see ``Key``) act, the
///   rest are dropped.
/// - Escape sequences are dropped whole, whatever they are, except the keys that move the cursor
///   and Delete: CSI (`ESC [` or U+009B, parameters, a final byte), SS3 (`ESC O` or U+008F and
///   one byte), and strings — OSC, DCS, SOS, PM, APC (`ESC ] P X ^ _` or U+009D U+0090 U+0098
///   U+009E U+009F) up to BEL or ST (`ESC \` or U+009C).
/// - An ESC that starts none of these (a bare Escape, Alt-x) is dropped alone: what follows it
///   is decoded as usual.
/// - A control character inside a sequence ends it unfinished, and then acts as usual (Enter
///   always enters); an ESC inside a string ends it and starts a sequence.
struct KeyDecoder {
  private enum State {
    case ground
    /// After ESC.
    case escape
    /// In a CSI, its parameter and intermediate bytes so far.
    case csi
    /// After SS3: one byte to come.
    case ss3
    /// In a string (OSC, DCS, SOS, PM, APC).
    case string
    /// After an ESC in a string: `\` ends it.
    case stringEscape
  }

  private var state = State.ground
  private var utf8 = UTF8Decoder()
  /// The CSI's parameter and intermediate bytes, enough of them to tell the known keys.
  private var parameters: [UInt8] = []

  /// The keys that `bytes` complete.
  mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    var keys: [Key] = []
    for byte in bytes {
      for scalar in utf8.decode(byte) {
        if let key = decode(scalar) { keys.append(key) }
      }
    }
    return keys
  }

  private mutating func decode(_ scalar: Unicode.Scalar) -> Key? {
    let value = scalar.value
    switch state {
    case .ground:
      return ground(scalar)
    case .escape:
      state = .ground
      switch scalar {
      case "[": startCSI()
      case "O": state = .ss3
      case "]", "P", "X", "^", "_": state = .string
      case "\u{1B}": state = .escape  // the first ESC was bare
      default: return ground(scalar)  // a bare ESC: dropped alone
      }
      return nil
    case .csi:
      switch value {
      case 0x20...0x3F:  // parameters, intermediates
        if parameters.count < 8 { parameters.append(UInt8(value)) }
        return nil
      case 0x40...0x7E:  // the final byte
        state = .ground
        return Self.csiKey(parameters, final: UInt8(value))
      default:
        state = .ground
        return ground(scalar)
      }
    case .ss3:
      state = .ground
      guard (0x40...0x7E).contains(value) else { return ground(scalar) }
      return Self.ss3Key(UInt8(value))
    case .string:
      switch scalar {
      case "\u{7}", "\u{9C}": state = .ground  // BEL, ST
      case "\u{1B}": state = .stringEscape
      case _ where scalar.properties.generalCategory == .control:
        state = .ground
        return ground(scalar)
      default: break
      }
      return nil
    case .stringEscape:
      if scalar == "\\" {  // ST
        state = .ground
        return nil
      }
      state = .escape
      return decode(scalar)
    }
  }

  /// A character outside any sequence.
  private mutating func ground(_ scalar: Unicode.Scalar) -> Key? {
    switch scalar {
    case "\u{1B}": state = .escape
    case "\u{9B}": startCSI()
    case "\u{8F}": state = .ss3
    case "\u{90}", "\u{98}", "\u{9D}", "\u{9E}", "\u{9F}": state = .string
    case "\n", "\r": return .enter
    case "\u{7F}", "\u{8}": return .backspace
    case "\t": return .character(" ")
    case "\u{1}": return .home
    case "\u{2}": return .left
    case "\u{4}": return .controlD
    case "\u{5}": return .end
    case "\u{6}": return .right
    case "\u{15}": return .eraseLine
    case "\u{17}": return .eraseWord
    case _ where scalar.properties.generalCategory == .control: break  // other controls
    default: return .character(scalar)
    }
    return nil
  }

  private mutating func startCSI() {
    state = .csi
    parameters = []
  }

  /// The key a CSI sequence is, if the editor uses it (unmodified: no other parameters).
  private static func csiKey(_ parameters: [UInt8], final: UInt8) -> Key? {
    switch (String(decoding: parameters, as: UTF8.self), final) {
    case ("", UInt8(ascii: "C")): .right
    case ("", UInt8(ascii: "D")): .left
    case ("", UInt8(ascii: "H")), ("1", UInt8(ascii: "~")), ("7", UInt8(ascii: "~")): .home
    case ("", UInt8(ascii: "F")), ("4", UInt8(ascii: "~")), ("8", UInt8(ascii: "~")): .end
    case ("3", UInt8(ascii: "~")): .delete
    default: nil
    }
  }

  /// The key an SS3 sequence is, if the editor uses it.
  private static func ss3Key(_ final: UInt8) -> Key? {
    switch final {
    case UInt8(ascii: "C"): .right
    case UInt8(ascii: "D"): .left
    case UInt8(ascii: "H"): .home
    case UInt8(ascii: "F"): .end
    default: nil
    }
  }
}
