import Testing

@testable import CounterDemo

/// Decoding UTF-8 a byte at a time: the same scalars as the standard library's lenient decoding.
@Suite struct UTF8DecoderTests {
  /// The scalars decoded from `bytes`, then a newline (which ends an unfinished character).
  private func decoded(_ bytes: [UInt8]) -> [Unicode.Scalar] {
    var decoder = UTF8Decoder()
    return (bytes + [0x0A]).flatMap { decoder.decode($0) }
  }

  private func expected(_ bytes: [UInt8]) -> [Unicode.Scalar] {
    Array(String(decoding: bytes + [0x0A], as: UTF8.self).unicodeScalars)
  }

  @Test func decodesLikeTheStandardLibrary() {
    #expect(decoded(Array("aé€😀".utf8)) == ["a", "é", "€", "😀", "\n"])
    // Every pair of bytes, then every triple and quadruple of bytes at the edges of the ranges.
    for first in UInt8.min...UInt8.max {
      for second in UInt8.min...UInt8.max where decoded([first, second]) != expected([first, second]) {
        Issue.record("\([first, second])")
      }
    }
    let edges: [UInt8] = [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
    for a in edges {
      for b in edges {
        for c in edges {
          for d in edges where decoded([a, b, c, d]) != expected([a, b, c, d]) {
            Issue.record("\([a, b, c, d])")
          }
        }
      }
    }
  }

  @Test func aCharacterSplitAnywhereIsWaitedFor() {
    var decoder = UTF8Decoder()
    #expect(decoder.decode(0xF0) == [])
    #expect(decoder.decode(0x9F) == [])
    #expect(decoder.decode(0x98) == [])
    #expect(decoder.decode(0x80) == ["😀"])
  }
}
