/// Dismisses the presented feature (or pops the stack element) whose effect calls it — TCA's
/// `@Dependency(\.dismiss)`.
///
/// ```swift
/// @Dependency(\.dismiss) var dismiss
/// …
/// return .run { _ in
///   try await save()
///   await dismiss()
/// }
/// ```
///
/// The same as `send.dismiss()` in that effect, and as returning ``Effect/dismiss`` from the
/// reducer. Outside a presentation (or outside an effect) it reports and does nothing.
public struct DismissEffect: Sendable {
  @MainActor
  public func callAsFunction(fileID: StaticString = #fileID, line: UInt = #line) {
    guard !Task.isCancelled else { return }
    guard let dismissal = EffectContext.dismissal else {
      RuntimeWarning.report(
        "dismiss() at \(fileID):\(line) was called outside an effect of a presented feature; ignored.")
      return
    }
    dismissal.run()
  }
}

extension DependencyValues {
  /// Dismisses the presented feature whose effect calls it.
  public var dismiss: DismissEffect {
    get { DismissEffect() }
    set {}  // nothing to override: it dismisses whatever presents the effect's feature
  }
}
