/// Decodes UTF-8 a byte at a time, as it is typed: a character split across reads decodes whole.
///
/// Invalid input becomes U+FFFD, one for each maximal invalid subpart, as `String(decoding:as:)`
/// does, so the terminal is never sent raw invalid bytes (a lone 0x9B is a CSI to some).
struct UTF8Decoder {
  /// The scalar decoded so far.
  private var value: UInt32 = 0
  /// Continuation bytes still to come.
  private var needed = 0
  /// The range of the next continuation byte (narrower after E0, ED, F0, F4: no overlong
  /// encodings, surrogates or values over U+10FFFF).
  private var next: ClosedRange<UInt8> = 0x80...0xBF

  /// The scalars `byte` completes: none (mid-character), one, or two (U+FFFD for the broken
  /// character before it, then the one it is).
  mutating func decode(_ byte: UInt8) -> [Unicode.Scalar] {
    if needed > 0 {
      if next.contains(byte) {
        value = value << 6 | UInt32(byte & 0x3F)
        needed -= 1
        next = 0x80...0xBF
        return needed == 0 ? [Unicode.Scalar(value)!] : []
      }
      needed = 0
      next = 0x80...0xBF
      return [Self.replacement] + decode(byte)
    }
    switch byte {
    case 0x00...0x7F: return [Unicode.Scalar(byte)]
    case 0xC2...0xDF: start(UInt32(byte & 0x1F), needed: 1)
    case 0xE0: start(0, needed: 2, next: 0xA0...0xBF)
    case 0xED: start(0x0D, needed: 2, next: 0x80...0x9F)
    case 0xE1...0xEF: start(UInt32(byte & 0x0F), needed: 2)
    case 0xF0: start(0, needed: 3, next: 0x90...0xBF)
    case 0xF4: start(0x04, needed: 3, next: 0x80...0x8F)
    case 0xF1...0xF3: start(UInt32(byte & 0x07), needed: 3)
    default: return [Self.replacement]  // a continuation byte, C0, C1 or F5–FF
    }
    return []
  }

  private mutating func start(_ value: UInt32, needed: Int, next: ClosedRange<UInt8> = 0x80...0xBF) {
    self.value = value
    self.needed = needed
    self.next = next
  }

  private static let replacement: Unicode.Scalar = "\u{FFFD}"
}
