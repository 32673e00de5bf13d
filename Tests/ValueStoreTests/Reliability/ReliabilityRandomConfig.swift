import Foundation
import Testing

/// Settings of the randomized runs, from the environment:
///
/// - `VALUESTORE_RANDOM_SEQUENCES=n` — sequences per target (default: see each test).
/// - `VALUESTORE_RANDOM_SEED=0x…` — replays only the sequence with this seed (printed on failure).
/// - `VALUESTORE_RANDOM_BASE_SEED=0x…` — explores another stream of sequences.
/// - `VALUESTORE_RANDOM_KNOWN_BUGS=all` — stops steering around known bugs (or a comma-separated
///   list of `RelKnownBug` names: stops steering around those only).
enum RelRandomConfig {
  static let defaultBaseSeed: UInt64 = 0x5EED_2026

  static func number(_ name: String) -> UInt64? {
    guard let text = ProcessInfo.processInfo.environment[name] else { return nil }
    if text.lowercased().hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
    return UInt64(text)
  }

  static func sequences(default count: Int) -> Int { number("VALUESTORE_RANDOM_SEQUENCES").map(Int.init) ?? count }
  static var replaySeed: UInt64? { number("VALUESTORE_RANDOM_SEED") }
  static var baseSeed: UInt64 { number("VALUESTORE_RANDOM_BASE_SEED") ?? defaultBaseSeed }
  static var avoiding: Set<RelKnownBug> {
    guard let text = ProcessInfo.processInfo.environment["VALUESTORE_RANDOM_KNOWN_BUGS"] else {
      return RelKnownBug.open
    }
    if text == "all" || text == "1" { return [] }
    let exposed = text.split(separator: ",").compactMap { RelKnownBug(rawValue: String($0)) }
    return RelKnownBug.open.subtracting(exposed)
  }
}

/// Runs `count` generated sequences (or the replayed one) and records the first failure, shrunk.
/// Returns the number of sequences run.
@discardableResult
func relRunRandomSequences(
  _ name: String, count: Int, generator: RelGenerator, runner: RelRunner, exact: Bool = true
) -> Int {
  let base = RelRandomConfig.baseSeed
  let seeds: [UInt64] =
    RelRandomConfig.replaySeed.map { [$0] }
    ?? (0..<RelRandomConfig.sequences(default: count)).map { RelRandom.sequenceSeed(base: base, index: $0) }
  var reportedSpurious = false
  /// The sequences that over-notified in the known way (counted, reported once).
  var spurious = 0
  defer {
    if spurious > 0 { print("\(name): \(spurious) of \(seeds.count) sequences over-notified (B6 family)") }
  }
  // A deadlock in a generated sequence aborts with a backtrace instead of hanging the run.
  let watchdog = Watchdog("randomized run \(name)")
  defer { watchdog.finish() }
  for (index, seed) in seeds.enumerated() {
    watchdog.progress()
    let ops = generator.sequence(seed: seed)
    guard let failure = runner.run(ops) else { continue }
    // Once the known spurious case was reported, later ones of its shape are not shrunk again; a
    // spurious notification of any other shape still fails (skipping every later spurious one hid
    // new bugs behind the first known one).
    if failure.kind == .spurious && reportedSpurious && (!exact || ops[failure.opIndex].isB6Shaped) {
      spurious += 1
      continue
    }
    let shrunk = runner.shrink(ops, failure)
    let listing = shrunk.ops.enumerated().map { "  \($0.offset). \($0.element)" }.joined(separator: "\n")
    let hex = "0x" + String(seed, radix: 16)
    let report = """
      \(name): sequence \(index) failed — \(shrunk.failure.kind.rawValue)
      seed: \(hex) (replay: VALUESTORE_RANDOM_SEED=\(hex) swift test --filter Reliability)
      shrunk from \(ops.count) to \(shrunk.ops.count) operations:
      \(listing)
      \(shrunk.failure)
      """
    if shrunk.failure.kind == .spurious && (!exact || shrunk.ops[shrunk.failure.opIndex].isB6Shaped) {
      // A lost notification always fails. Spurious ones still exist in holder mode for values
      // written back after an assignment, or an ancestor written back (B6 family, see
      // Design.md §3): they are reported, as known issues, until fixed — but only when the
      // mutation that over-notified is of that shape (a value assigned from another place, or the
      // root replaced); any other spurious notification in a holder or store fails. Bare values
      // may over-notify while a copy is alive (S11), which the model cannot always see (a copy an
      // observer's closure captured).
      // The run goes on: every remaining sequence is still checked for lost notifications.
      if !reportedSpurious {
        withKnownIssue("open spurious case (B6 family)", isIntermittent: true) { Issue.record(Comment(rawValue: report)) }
      }
      reportedSpurious = true
      spurious += 1
      continue
    }
    Issue.record(Comment(rawValue: report))
    return index + 1
  }
  return seeds.count
}
