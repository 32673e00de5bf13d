// A holder's field key paths (see FieldBridges.swift, "Key paths"): argument-less for the first
// fields it bridges, which Observation hashes and compares as cheaply as an `@Observable`
// property's; a subscript with an `Int` after those.

/// The key path a read of a field records (its type: what Observation is handed).
@usableFromInline
typealias FieldKeyPath = KeyPath<FieldBridges, Bool> & Sendable

extension FieldBridges {
  /// The key path of generation `generation` (0 or 1) of the field at `field` (its index).
  static func keyPath(field: Int, generation: UInt32) -> FieldKeyPath {
    let slot = 2 * field + Int(generation)
    return slot < pool.count ? pool[slot] : \FieldBridges.[slot: slot]
  }

  /// Stored properties, so that each is a distinct key path (an offset), never read or written.
  private static let pool: [FieldKeyPath] = [
    \.k0, \.k1, \.k2, \.k3, \.k4, \.k5, \.k6, \.k7,
    \.k8, \.k9, \.k10, \.k11, \.k12, \.k13, \.k14, \.k15,
    \.k16, \.k17, \.k18, \.k19, \.k20, \.k21, \.k22, \.k23,
    \.k24, \.k25, \.k26, \.k27, \.k28, \.k29, \.k30, \.k31,
  ]

  subscript(slot _: Int) -> Bool { false }
}
