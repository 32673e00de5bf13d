import ValueStore

/// The latest number fact, and the number whose fact is being worked out.
struct FactState: ObservableState, Equatable, Sendable {
  struct Fields: Equatable, Sendable {
    var pending: Int?
    var fact: String?
  }
  var _$fields = Observed(Fields())
}

/// Works out a fact about a number after a short delay, standing in for a network request.
///
/// A newer request cancels the pending one, so a slow answer never overwrites a newer question.
struct FactFeature: Reducer {
  enum Action: Equatable, Sendable {
    case request(Int)
    case response(String)
  }

  enum CancelID: Hashable, Sendable { case fact }

  /// How long working out a fact takes.
  static let delay = Duration.milliseconds(500)

  let clock: any Clock<Duration>

  func reduce(into state: inout FactState, action: Action) -> Effect<Action> {
    switch action {
    case let .request(number):
      state.pending = number
      return Self.response(about: number, on: clock).cancellable(id: CancelID.fact, cancelInFlight: true)
    case let .response(fact):
      state.pending = nil
      state.fact = fact
      return .none
    }
  }

  /// The fact about `number`, ``delay`` after now: the deadline is fixed when the fact is asked
  /// for, not when the effect's task first runs.
  private static func response(about number: Int, on clock: some Clock<Duration>) -> Effect<Action> {
    let deadline = clock.now.advanced(by: delay)
    return .run { send in
      try await clock.sleep(until: deadline, tolerance: nil)
      await send(.response(fact(about: number)))
    }
  }

  /// A fact about `number`, computed offline: its parity and its prime factorization.
  ///
  /// ```swift
  /// FactFeature.fact(about: 12)  // "12 is even; 12 = 2² × 3."
  /// ```
  static func fact(about number: Int) -> String {
    let parity = number.isMultiple(of: 2) ? "even" : "odd"
    let magnitude = number.magnitude
    guard magnitude >= 2 else { return "\(number) is \(parity) and neither prime nor composite." }
    let factors = primeFactors(of: magnitude)
    if factors.count == 1 && factors[0].exponent == 1 {
      return number > 0 ? "\(number) is \(parity) and prime." : "\(number) is \(parity); \(magnitude) is prime."
    }
    let product = factors.map { $0.exponent == 1 ? "\($0.prime)" : "\($0.prime)\(superscript($0.exponent))" }
    let sign = number < 0 ? "-" : ""
    return "\(number) is \(parity); \(number) = \(sign)\(product.joined(separator: " × "))."
  }

  /// Trial division; fast for the magnitudes commands accept (see `Command.maxFactNumber`).
  private static func primeFactors(of number: UInt) -> [(prime: UInt, exponent: Int)] {
    var factors: [(prime: UInt, exponent: Int)] = []
    var rest = number
    var divisor: UInt = 2
    while divisor * divisor <= rest {
      var exponent = 0
      while rest.isMultiple(of: divisor) {
        rest /= divisor
        exponent += 1
      }
      if exponent > 0 { factors.append((divisor, exponent)) }
      divisor += divisor == 2 ? 1 : 2
    }
    if rest > 1 { factors.append((rest, 1)) }
    return factors
  }

  private static func superscript(_ exponent: Int) -> String {
    let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
    return String(String(exponent).map { digits[$0.wholeNumberValue!] })
  }
}
