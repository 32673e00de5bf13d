/// A hashable, sendable value of any type: `AnyHashable` that is `Sendable`, as
/// swift-concurrency-extras' `AnyHashableSendable`.
///
/// An existential `any Hashable & Sendable` is not itself `Hashable`; this box is, so it can be a
/// dictionary key, a `Set` element or an id that crosses actors. Two boxes are equal when the
/// `AnyHashable`s of their values are (values of different types differ, but numbers compare by
/// value: `Int8(1)` and `1` are equal), and a box equals the `AnyHashable` of its value.
///
/// ```swift
/// let ids: Set<AnyHashableSendable> = [1, "one", AnyHashableSendable(Row.ID(7))]
/// ids.contains(1)                                    // true
/// AnyHashableSendable(1) == AnyHashableSendable(2)   // false
/// AnyHashableSendable(1).base as? Int                // 1
/// ```
public struct AnyHashableSendable: Hashable, Sendable {
  /// The value in the box.
  public let base: any Hashable & Sendable

  /// Boxes `base`; a box is not boxed again.
  ///
  /// ```swift
  /// let id = AnyHashableSendable(42)
  /// ```
  public init(_ base: some Hashable & Sendable) {
    if let box = base as? AnyHashableSendable {
      self = box
    } else {
      self.base = base
    }
  }

  /// Boxes an existential value (`any Hashable & Sendable`), opening it.
  ///
  /// ```swift
  /// let value: any Hashable & Sendable = 42
  /// let id = AnyHashableSendable(value)
  /// ```
  @_disfavoredOverload
  public init(_ base: any Hashable & Sendable) {
    self.init(base)  // opens the existential: the generic initializer
  }

  /// Whether the values are equal as `AnyHashable`s.
  ///
  /// ```swift
  /// AnyHashableSendable(1) == AnyHashableSendable(1)     // true
  /// AnyHashableSendable(1) == AnyHashableSendable("1")   // false
  /// ```
  public static func == (lhs: Self, rhs: Self) -> Bool {
    AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  /// Hashes the value as its `AnyHashable` does: `AnyHashableSendable(1).hashValue` is
  /// `AnyHashable(1).hashValue`.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(AnyHashable(base))
  }
}

extension AnyHashableSendable: CustomStringConvertible, CustomDebugStringConvertible {
  /// The value's description: `"1"` for `AnyHashableSendable(1)`.
  public var description: String { String(describing: base) }

  /// `AnyHashableSendable(1)`, with the value's debug description.
  public var debugDescription: String { "AnyHashableSendable(\(String(reflecting: base)))" }
}

extension AnyHashableSendable: CustomReflectable {
  /// One child, `value`: dumps and diffs show the value in the box.
  public var customMirror: Mirror { Mirror(self, children: ["value": base]) }
}

// `AnyHashable(box)` is the `AnyHashable` of the value in the box, as `AnyHashable(AnyHashable(x))`
// is `AnyHashable(x)`: so a box equals `x as AnyHashable` and casts back to `x`'s type
// (`box as AnyHashable as? Int`). The standard library's hook for this is underscored; upstream
// uses it too.
extension AnyHashableSendable: _HasCustomAnyHashableRepresentation {
  /// The `AnyHashable` of the value: `AnyHashable(AnyHashableSendable(1)) == AnyHashable(1)`.
  public func _toCustomAnyHashable() -> AnyHashable? { AnyHashable(base) }
}

extension AnyHashableSendable: ExpressibleByBooleanLiteral {
  /// A boxed `Bool`: `let flag: AnyHashableSendable = true`.
  public init(booleanLiteral value: Bool) { self.init(value) }
}

extension AnyHashableSendable: ExpressibleByIntegerLiteral {
  /// A boxed `Int`: `let id: AnyHashableSendable = 42`.
  public init(integerLiteral value: Int) { self.init(value) }
}

extension AnyHashableSendable: ExpressibleByFloatLiteral {
  /// A boxed `Double`: `let ratio: AnyHashableSendable = 4.2`.
  public init(floatLiteral value: Double) { self.init(value) }
}

extension AnyHashableSendable: ExpressibleByStringLiteral {
  /// A boxed `String`: `let name: AnyHashableSendable = "Blob"`.
  public init(stringLiteral value: String) { self.init(value) }
}
