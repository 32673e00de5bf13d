/// Where `blackHole` writes. A global the optimizer cannot see the readers of, so the write (and
/// the computation of what is written) must happen.
nonisolated(unsafe) private var blackHoleSink: UInt8 = 0

/// Consumes `value` so the optimizer cannot delete the work that produced it.
///
/// An empty `@inline(never)` function is not enough: LLVM proves it has no effects and deletes the
/// call. Reading a byte of the value and writing it to a global is a real effect that depends on
/// the value, at the cost of one call (about a nanosecond, the same in every column).
@inline(never)
func blackHole<T>(_ value: T) {
  withUnsafeBytes(of: value) { bytes in blackHoleSink &+= bytes.first ?? 0 }
}
