import Foundation

/// Where and when the numbers were taken: they mean little without it.
struct MachineContext: Encodable, Sendable {
  let swiftVersion: String
  let cores: Int
  let operatingSystem: String
  /// The 1/5/15-minute load averages at start (Linux): other work on the machine shows up here.
  let loadAverage: String?
  let date: String

  static func current() -> MachineContext {
    MachineContext(
      swiftVersion: toolchainVersion(),
      cores: ProcessInfo.processInfo.activeProcessorCount,
      operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString,
      loadAverage: (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
        .map { $0.split(separator: " ").prefix(3).joined(separator: " ") },
      date: Date().formatted(.iso8601))
  }

  var header: String {
    """
    ValueStore benchmarks — \(date)
    Swift: \(swiftVersion)
    Machine: \(cores) cores, \(operatingSystem)\(loadAverage.map { ", load average \($0)" } ?? "")
    Times are this thread's CPU time per operation: median of the samples, ±% is half their
    min–max range. Absolute numbers on a shared machine with few cores are noisy (other work
    still competes for caches); the ratios between columns of the same run are what to compare.
    """
  }
}

/// The first line of `swift --version`: the toolchain on the PATH, normally the one that built us.
private func toolchainVersion() -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["swift", "--version"]
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  guard (try? process.run()) != nil else { return "unknown" }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let firstLine = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
  return firstLine ?? "unknown"
}
