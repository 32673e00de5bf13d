#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ContiguousArray where Element: Equatable {
  /// Whether this array is `earlier` with elements appended (or `earlier` itself): nothing of it
  /// removed or moved. Bitwise-comparable elements (an `Int`, a `UUID`) are compared as memory:
  /// unspecialized, `==` through the `Equatable` witness costs ≈ 30 ns an element, `memcmp` ≈ 0.1.
  /// A false "no" is possible (equal values with different bits, as padding), a false "yes" only
  /// where `==` calls equal bits different (a NaN), which no identified array's id can be (its
  /// dictionary could not find it).
  @usableFromInline
  func isAppended(to earlier: ContiguousArray<Element>) -> Bool {
    guard count >= earlier.count else { return false }
    guard _isPOD(Element.self) else { return count == earlier.count ? self == earlier : starts(with: earlier) }
    return withUnsafeBytes { array in
      earlier.withUnsafeBytes { earlier in
        // One buffer (an element's action leaves the ids alone): O(1).
        earlier.isEmpty || array.baseAddress == earlier.baseAddress
          || memcmp(array.baseAddress!, earlier.baseAddress!, earlier.count) == 0
      }
    }
  }
}
