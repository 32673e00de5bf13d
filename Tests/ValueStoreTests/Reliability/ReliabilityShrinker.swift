// Shrinking a failing sequence: the smallest sequence that still fails the same way is what the
// failure report prints, so a bug reads as a few operations rather than twenty.

extension RelRunner {
  /// Greedily removes operations, steps and paths while the sequence still fails the same way.
  func shrink(_ ops: [RelOp], _ failure: RelFailure) -> (ops: [RelOp], failure: RelFailure) {
    var best = (ops: Array(ops.prefix(failure.opIndex + 1)), failure: failure)
    func attempt(_ candidate: [RelOp]) -> Bool {
      guard let found = run(candidate), found.kind == best.failure.kind else { return false }
      best = (Array(candidate.prefix(found.opIndex + 1)), found)
      return true
    }
    var progress = true
    while progress {
      progress = false
      var i = best.ops.count - 1
      while i >= 0 {
        if i < best.ops.count {
          var candidate = best.ops
          candidate.remove(at: i)
          if attempt(candidate) {
            progress = true
          } else {
            for simpler in best.ops[i].simplifications {
              candidate = best.ops
              candidate[i] = simpler
              if attempt(candidate) {
                progress = true
                break
              }
            }
          }
        }
        i -= 1
      }
    }
    return best
  }
}

extension RelOp {
  /// Smaller variants of this operation, for shrinking.
  var simplifications: [RelOp] {
    switch self {
    case let .mutate(steps) where steps.count > 1:
      return steps.indices.map { i in .mutate(steps.enumerated().filter { $0.offset != i }.map(\.element)) }
    case let .transaction(groups):
      var result: [RelOp] = groups.map { .mutate($0) }
      if groups.count > 1 {
        result += groups.indices.map { i in .transaction(groups.enumerated().filter { $0.offset != i }.map(\.element)) }
      }
      for (g, group) in groups.enumerated() where group.count > 1 {
        for s in group.indices {
          var smaller = groups
          smaller[g].remove(at: s)
          result.append(.transaction(smaller))
        }
      }
      return result
    case let .track(spec):
      var result: [RelOp] = []
      if spec.paths.count > 1 {
        result += spec.paths.indices.map { i in
          var smaller = spec
          smaller.paths.remove(at: i)
          return .track(smaller)
        }
      }
      if spec.untrackedPath != nil {
        var smaller = spec
        smaller.untrackedPath = nil
        result.append(.track(smaller))
      }
      if spec.isLoop {
        var once = spec
        once.isLoop = false
        result.append(.track(once))
      }
      return result
    default:
      return []
    }
  }
}
