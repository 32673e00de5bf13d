import Foundation

/// The results as one Markdown table (readable in a terminal, pastable into an issue), followed by
/// what each row's operation includes.
func table(_ results: [ScenarioResult]) -> String {
  let header = [
    "scenario", "ValueStore ns/op", "Apple @Observable ns/op", "plain struct ns/op", "Apple/ours", "ours/plain",
  ]
  let rows = results.map { result in
    [
      result.name, cell(result.ours), cell(result.apple), cell(result.plain),
      ratio(result.appleOverOurs), ratio(result.oursOverPlain),
    ]
  }
  let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
  func line(_ cells: [String]) -> String {
    let padded = cells.indices.map { column in
      // Text left, numbers right, so magnitudes line up.
      column == 0 ? pad(cells[column], widths[column]) : padLeft(cells[column], widths[column])
    }
    return "| " + padded.joined(separator: " | ") + " |"
  }
  let separator = "|" + widths.indices.map { column in
    String(repeating: "-", count: widths[column] + 1) + (column == 0 ? "-" : ":")
  }.joined(separator: "|") + "|"
  let notes = results.map { "- \($0.name): \($0.note)" }
  return ([line(header), separator] + rows.map(line) + ["", "What one operation is:"] + notes)
    .joined(separator: "\n")
}

private let notApplicable = "—"

/// "12.3 ±4%": the median and half the min–max range of the samples.
private func cell(_ measurement: Measurement?) -> String {
  guard let measurement else { return notApplicable }
  return "\(nanoseconds(measurement.median)) ±\(Int((measurement.relativeSpread * 100).rounded()))%"
}

private func ratio(_ value: Double?) -> String {
  guard let value else { return notApplicable }
  return String(format: value < 10 ? "%.2f×" : "%.0f×", value)
}

/// Three significant digits where they matter, no false precision above that.
private func nanoseconds(_ value: Double) -> String {
  switch value {
  case ..<10: String(format: "%.2f", value)
  case ..<100: String(format: "%.1f", value)
  case ..<10_000: String(format: "%.0f", value)
  // Grouped, so that a 10k-row dump's 120,000,000 ns reads at a glance.
  default: Int(value.rounded()).formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
  }
}

private func pad(_ text: String, _ width: Int) -> String {
  text + String(repeating: " ", count: width - text.count)
}

private func padLeft(_ text: String, _ width: Int) -> String {
  String(repeating: " ", count: width - text.count) + text
}
