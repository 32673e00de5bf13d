extension Optional {
  /// The payload of a presented enum (a destination) when it is in the case `embed` constructs.
  /// Changing it through another case, or while nothing is presented, changes nothing and is
  /// reported (a ``RuntimeWarning``: a test failure under `TestStore`), as TCA's
  /// `$destination[case:]` is. Setting nil dismisses.
  ///
  /// ```swift
  /// state.destination[case: Destination.State.edit]?.title = "Milk"
  /// state.destination[case: Destination.State.alert] = nil   // an edit is shown: reported
  /// ```
  public subscript<Case>(case embed: @escaping @Sendable (Case) -> Wrapped) -> Case? {
    get { flatMap(CasePath(embed).extract(from:)) }
    _modify {
      let path = CasePath(embed)
      var value = flatMap(path.extract(from:))
      let isInCase = value != nil
      yield &value
      guard isInCase else {
        RuntimeWarning.report("\(Wrapped.self)?[case:]: " + unrelatedCaseMessage(self))
        return
      }
      self = value.map(path.embed)
    }
  }
}
