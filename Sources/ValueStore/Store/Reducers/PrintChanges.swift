extension Reducer {
  /// Logs each action and the state change it caused, as a diff (the debugging aid of the store).
  ///
  /// ```swift
  /// Store(initialState: Counter()) { CounterFeature().printChanges() }
  /// // received action: CounterFeature.Action.increment
  /// //   Counter(
  /// // -   count: 0
  /// // +   count: 1
  /// //   )
  /// ```
  ///
  /// It keeps the state before each action to compare, so each action's first write forks the
  /// state (one allocation): use it while debugging, not in production.
  public func printChanges(
    to output: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> Reduce<State, Action> {
    Reduce { state, action in
      let before = state
      let effect = self.reduce(into: &state, action: action)
      let change = untracked { diff(before, state) }
      output(
        "received action: \(String(customDumping: action))\n"
          + (change.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n") }
            ?? "  (No state changes)"))
      return effect
    }
  }
}
