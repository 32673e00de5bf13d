/// A scenario's measurements; `nil` where the scenario has no such side.
struct ScenarioResult: Encodable, Sendable {
  let name: String
  let note: String
  let ours: Measurement?
  let apple: Measurement?
  let plain: Measurement?

  /// How many times slower Apple's Observation is than ValueStore (above 1: ValueStore is faster).
  var appleOverOurs: Double? { ratio(apple, ours) }
  /// What ValueStore's observability costs over no observation at all.
  var oursOverPlain: Double? { ratio(ours, plain) }

  private enum CodingKeys: String, CodingKey {
    case name, note, ours, apple, plain, appleOverOurs, oursOverPlain
  }

  // Encodes the ratios too, and absent sides as null rather than leaving their keys out.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(note, forKey: .note)
    try container.encode(ours, forKey: .ours)
    try container.encode(apple, forKey: .apple)
    try container.encode(plain, forKey: .plain)
    try container.encode(appleOverOurs, forKey: .appleOverOurs)
    try container.encode(oursOverPlain, forKey: .oursOverPlain)
  }
}

private func ratio(_ numerator: Measurement?, _ denominator: Measurement?) -> Double? {
  guard let numerator, let denominator else { return nil }
  return numerator.median / denominator.median
}
