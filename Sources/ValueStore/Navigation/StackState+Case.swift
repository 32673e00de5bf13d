extension StackState {
  /// The payload of the element with `id` when that element is in the case `embed` constructs.
  /// Changing it through another case, or an element that is not there, changes nothing and is
  /// reported (a ``RuntimeWarning``: a test failure under `TestStore`), as TCA's
  /// `path[id:case:]` is. Setting nil pops just that element.
  ///
  /// ```swift
  /// state.path[id: 0, case: Path.State.detail]?.title = "Milk"
  /// state.path[id: 0, case: Path.State.edit]?.title = "Milk"   // #0 is a detail: reported
  /// ```
  public subscript<Case>(id id: StackElementID, case embed: @escaping @Sendable (Case) -> Element) -> Case? {
    get { self[id: id].flatMap(CasePath(embed).extract(from:)) }
    _modify {
      let path = CasePath(embed)
      var value = self[id: id].flatMap(path.extract(from:))
      let isInCase = value != nil
      yield &value
      guard isInCase else {
        RuntimeWarning.report("StackState[id: \(id), case:]: " + unrelatedCaseMessage(self[id: id]))
        return
      }
      self[id: id] = value.map(path.embed)
    }
  }
}

/// What modifying `value` through a case it is not in reports, ending as TCA's message does
/// (`Can't modify unrelated case "int"`).
func unrelatedCaseMessage<Root>(_ value: Root?) -> String {
  guard let value else { return "Can't modify a missing value." }
  let name = EnumPayload.caseName(of: value).map { String($0.dropFirst()) }
  return "Can't modify unrelated case" + (name.map { " \"\($0)\"" } ?? "")
}
