#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long and how often each measurement runs.
struct HarnessSettings: Sendable {
  /// CPU time one sample aims for; iterations are calibrated to reach it.
  var sampleNanoseconds: Double
  /// Samples taken after the warm-up; the median of them is reported.
  var samples: Int

  static let full = HarnessSettings(sampleNanoseconds: 25_000_000, samples: 11)
  /// For CI: enough to catch an order-of-magnitude regression, in a few seconds.
  static let quick = HarnessSettings(sampleNanoseconds: 5_000_000, samples: 3)
}

/// The nanoseconds per operation of each sample of one workload, and how many iterations a sample ran.
struct Measurement: Encodable, Sendable {
  let iterations: Int
  let samples: [Double]

  var median: Double { samples.sorted()[samples.count / 2] }
  var min: Double { samples.min()! }
  var max: Double { samples.max()! }
  /// Half the min–max range relative to the median: "±3%".
  var relativeSpread: Double { (max - min) / 2 / median }

  private enum CodingKeys: String, CodingKey { case medianNs, minNs, maxNs, samplesNs, iterations }

  // Writes the summary next to the raw samples, so a reader of the JSON needs no arithmetic.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(median, forKey: .medianNs)
    try container.encode(min, forKey: .minNs)
    try container.encode(max, forKey: .maxNs)
    try container.encode(samples, forKey: .samplesNs)
    try container.encode(iterations, forKey: .iterations)
  }
}

/// Measures workloads side by side: calibrates each, warms each up, then takes the samples in
/// turns (one run of each, then the next round), so that a burst of other work on the machine
/// lands on every column of a row alike and their ratios hold.
///
/// Every run starts from fresh state (a 100k-element array that has not grown, a value nobody
/// observes yet), made outside the timed region.
func measure(_ workloads: [Workload], settings: HarnessSettings) -> [Measurement] {
  let iterations = workloads.map { calibrate($0, target: settings.sampleNanoseconds) }
  // Warm-up: caches, allocator pools, lazily made thread-locals and metadata. A workload calibrated
  // to one iteration has just run exactly that: its calibration was the warm-up.
  for (workload, count) in zip(workloads, iterations) where count > 1 { _ = workload.run(count) }
  var samples = Array(repeating: [Double](), count: workloads.count)
  for _ in 0..<settings.samples {
    for index in workloads.indices {
      let operations = Double(iterations[index] * workloads[index].operationsPerIteration)
      samples[index].append(workloads[index].run(iterations[index]) / operations)
    }
  }
  return workloads.indices.map { Measurement(iterations: iterations[$0], samples: samples[$0]) }
}

/// The iteration count whose run takes about `target` nanoseconds (at least one iteration).
///
/// Grows ×10 with one run per step while a run is far below the target, then decides on the
/// fastest of three runs at the first count that reaches a tenth of it: a page fault or a cold
/// cache in one run must not shrink every sample. A single iteration that already takes the whole
/// target needs no second opinion (a dump of 10,000 rows). Keeping the steps to one run each
/// matters for scenarios whose fresh state is expensive (100k rows with 1k observers).
private func calibrate(_ workload: Workload, target: Double) -> Int {
  var iterations = 1
  while true {
    let elapsed = workload.run(iterations)
    if iterations == 1 && elapsed >= target { return 1 }
    // Below a tenth of the target the clock's resolution and one-off costs dominate: grow ×10.
    if elapsed < target / 10 {
      iterations *= 10
      continue
    }
    let fastest = Swift.min(elapsed, workload.run(iterations), workload.run(iterations))
    if fastest < target / 10 {
      iterations *= 10
    } else {
      return Swift.max(1, Int(Double(iterations) * target / fastest))
    }
  }
}

/// This thread's CPU time in nanoseconds. Not wall time: on a shared machine the benchmark is
/// descheduled for milliseconds at a time, which would land in random samples. Every workload runs
/// on this thread (observers run on the thread that makes the change), so nothing it does is
/// missed. Contention for caches and memory bandwidth still shows.
func threadCPUNanoseconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}
