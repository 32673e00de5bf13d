/// An enum whose cases can be tested, read and changed through its case constructors: add the
/// conformance (no members to write) to actions and enum states.
///
/// ```swift
/// enum Destination: CasePathable { case edit(EditForm.State), detail(Detail.State) }
///
/// destination.is(Destination.edit)               // true
/// mode.is(.idle)                                  // a case without payload
/// destination[case: Destination.edit]?.title     // the payload, or nil
/// destination.modify(Destination.edit) { $0.title = "Milk" }   // in a test's expectation
/// ```
public protocol CasePathable {}

extension CasePathable {
  /// Whether this value is the case `embed` constructs.
  @inlinable
  public func `is`<Value>(_ embed: @escaping @Sendable (Value) -> Self) -> Bool {
    CasePath(embed).extract(from: self) != nil
  }

  /// Whether this value is in the same case as `other` (for cases without payload: `.is(.idle)`).
  @inlinable
  public func `is`(_ other: Self) -> Bool {
    EnumTag.tag(of: self) == EnumTag.tag(of: other)
  }

  /// The payload if this value is the case `embed` constructs.
  @inlinable
  public subscript<Value>(case embed: @escaping @Sendable (Value) -> Self) -> Value? {
    CasePath(embed).extract(from: self)
  }

  /// Changes the payload of the case `embed` constructs, in place; nil, changing nothing, if this
  /// value is another case.
  @inlinable @discardableResult
  public mutating func modify<Value, Result>(
    _ embed: @escaping @Sendable (Value) -> Self, _ body: (inout Value) throws -> Result
  ) rethrows -> Result? {
    try CasePath(embed).modify(&self, body)
  }
}
