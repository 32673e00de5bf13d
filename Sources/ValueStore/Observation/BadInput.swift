/// Stops with `message` unless `condition` holds: bad input a caller must be told about, in every
/// build (an optimized build drops `precondition`'s message).
@inlinable @inline(__always)
func require(
  _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
  if _slowPath(!condition) { badInput(message(), file: file, line: line) }
}

/// Stops with `message`, in every build (see ``require(_:_:file:line:)``).
@usableFromInline @inline(never)
func badInput(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
  fatalError(message, file: file, line: line)
}
