/// Edit scripts between two sequences of lines, by Myers' O((N+M)·D) algorithm with its
/// linear-space "middle snake" refinement: fast when dumps differ in a few places (D small), and
/// memory stays linear even when they differ everywhere.
enum LineDiff {
  /// One step of an edit script; applied in order, the steps turn the old lines into the new ones.
  enum Edit: Equatable {
    /// The next old line is also the next new line.
    case keep
    /// The next old line is not in the new lines.
    case remove
    /// The next new line is not in the old lines.
    case insert
  }

  /// An edit script from `old` to `new`: a shortest one, unless a shortest one is too costly to
  /// find (see `Search.costLimit`) and the search settles for a near-shortest one.
  static func editScript<Line: Hashable>(from old: [Line], to new: [Line]) -> [Edit] {
    // Interned as integers, lines compare in constant time in the search loops.
    var ids: [Line: Int] = [:]
    func id(_ line: Line) -> Int {
      if let id = ids[line] { return id }
      ids[line] = ids.count
      return ids.count - 1
    }
    var search = Search(old: old.map(id), new: new.map(id))
    search.diff(0..<old.count, 0..<new.count)
    return search.script
  }

  private struct Search {
    let old: [Int]
    let new: [Int]
    /// How far a search goes before settling for a near-optimal split: see `middleSnake`.
    /// Searching costs up to about 3·(N+M)·costLimit steps, so the limit shrinks as the input
    /// grows, keeping even unrelated large dumps within a few million steps. Small inputs, and any
    /// input whose edit distance stays under twice the limit, still get a shortest script.
    let costLimit: Int
    var script: [Edit] = []

    init(old: [Int], new: [Int]) {
      self.old = old
      self.new = new
      costLimit = max(32, (1 << 21) / max(1, old.count + new.count))
    }

    /// Appends the edits turning `old[oldRange]` into `new[newRange]`.
    mutating func diff(_ oldRange: Range<Int>, _ newRange: Range<Int>) {
      // Matching the common prefix and suffix directly is linear and leaves the search only the
      // changed middle; for a single local change that middle is tiny.
      var (oldStart, oldEnd, newStart, newEnd) =
        (oldRange.lowerBound, oldRange.upperBound, newRange.lowerBound, newRange.upperBound)
      while oldStart < oldEnd, newStart < newEnd, old[oldStart] == new[newStart] {
        oldStart += 1
        newStart += 1
      }
      while oldStart < oldEnd, newStart < newEnd, old[oldEnd - 1] == new[newEnd - 1] {
        oldEnd -= 1
        newEnd -= 1
      }
      script += repeatElement(.keep, count: oldStart - oldRange.lowerBound)
      if let split = middleSnake(oldStart..<oldEnd, newStart..<newEnd) {
        diff(oldStart..<split.old, newStart..<split.new)
        diff(split.old..<oldEnd, split.new..<newEnd)
      } else {
        script += repeatElement(.remove, count: oldEnd - oldStart)
        script += repeatElement(.insert, count: newEnd - newStart)
      }
      script += repeatElement(.keep, count: oldRange.upperBound - oldEnd)
    }

    /// A point on a shortest edit path through the two ranges, strictly between its ends, found by
    /// searching forward from the start and backward from the end until the paths overlap
    /// (Myers 1986, section 4b). Past `costLimit` steps, the point the forward search got furthest
    /// instead: any point splits the problem correctly, the part before it then has a shortest
    /// script, and the rest repeats the search. `nil` when a range is empty or the ranges share
    /// no line, so everything is removed and inserted.
    ///
    /// The ranges must not start or end with a common line.
    private func middleSnake(_ oldRange: Range<Int>, _ newRange: Range<Int>) -> (old: Int, new: Int)? {
      let n = oldRange.count
      let m = newRange.count
      guard n > 0, m > 0 else { return nil }
      // The paths meet by d = ⌈D/2⌉ ≤ maxD, unless the ranges share no line.
      let maxD = (n + m + 1) / 2
      let lastD = min(maxD, costLimit)
      // `forward[offset + k]` is the furthest x reached on diagonal k = x - y from the start;
      // `backward` the same measured from the ends. -1 marks a diagonal not reached yet. Sized by
      // the search depth, not the input, as a costly problem is searched once per cut.
      let offset = lastD
      var forward = [Int](repeating: -1, count: 2 * lastD + 2)
      var backward = forward
      forward[offset + 1] = 0
      backward[offset + 1] = 0
      let delta = n - m
      // With odd delta the paths can first meet while extending forward, otherwise backward.
      let meetsForward = delta % 2 != 0
      // Diagonals that ran off the edit graph are skipped from then on.
      var (forwardStartTrim, forwardEndTrim, backwardStartTrim, backwardEndTrim) = (0, 0, 0, 0)
      // The fallback point: most progress (x + y) short of the end, ties going to the diagonal
      // nearest the end's, so that a run of pure removals is not cut as insertions or vice versa.
      var furthest: (x: Int, y: Int)?
      var furthestProgress = 0
      var furthestDrift = Int.max

      // `while` rather than `stride` loops: this is the hot path, and debug builds are slow enough
      // at iterating strides to matter.
      for d in 0..<lastD {
        var k = -d + forwardStartTrim
        while k <= d - forwardEndTrim {
          defer { k += 2 }
          let i = offset + k
          var x = k == -d || (k != d && forward[i - 1] < forward[i + 1]) ? forward[i + 1] : forward[i - 1] + 1
          var y = x - k
          while x < n, y < m, old[oldRange.lowerBound + x] == new[newRange.lowerBound + y] {
            x += 1
            y += 1
          }
          forward[i] = x
          if x > n {
            forwardEndTrim += 2
          } else if y > m {
            forwardStartTrim += 2
          } else {
            let j = offset + delta - k
            if meetsForward, j >= 0, j < backward.count, backward[j] != -1, x >= n - backward[j] {
              return (oldRange.lowerBound + x, newRange.lowerBound + y)
            }
            let progress = x + y
            let drift = abs(k - delta)
            if progress < n + m,
              progress > furthestProgress || (progress == furthestProgress && drift < furthestDrift)
            {
              (furthest, furthestProgress, furthestDrift) = ((x, y), progress, drift)
            }
          }
        }
        k = -d + backwardStartTrim
        while k <= d - backwardEndTrim {
          defer { k += 2 }
          let i = offset + k
          var x = k == -d || (k != d && backward[i - 1] < backward[i + 1]) ? backward[i + 1] : backward[i - 1] + 1
          var y = x - k
          while x < n, y < m, old[oldRange.upperBound - 1 - x] == new[newRange.upperBound - 1 - y] {
            x += 1
            y += 1
          }
          backward[i] = x
          if x > n {
            backwardEndTrim += 2
          } else if y > m {
            backwardStartTrim += 2
          } else {
            let j = offset + delta - k
            if !meetsForward, j >= 0, j < forward.count, forward[j] != -1, forward[j] >= n - x {
              let forwardX = forward[j]
              return (oldRange.lowerBound + forwardX, newRange.lowerBound + forwardX - (j - offset))
            }
          }
        }
      }
      guard maxD > costLimit, let furthest else { return nil }
      return (oldRange.lowerBound + furthest.x, newRange.lowerBound + furthest.y)
    }
  }
}
