import Foundation

/// Where the code runs, which decides the value a dependency has when nothing overrides it: its
/// key's `liveValue`, `testValue` or `previewValue`.
///
/// The context is the process's unless overridden: `.test` under `swift test` (XCTest or Swift
/// Testing), `.preview` in an Xcode preview, `.live` otherwise. The environment variable
/// `SWIFT_DEPENDENCIES_CONTEXT` (`live`, `test`, `preview`) overrides the inference, as in
/// swift-dependencies.
///
/// ```swift
/// @Dependency(\.context) var context   // .test inside a test
/// withDependencies { $0.context = .live } operation: { … }
/// ```
public enum DependencyContext: Sendable {
  case live, test, preview

  /// The process's context.
  static let process: DependencyContext = {
    let environment = ProcessInfo.processInfo.environment
    switch environment["SWIFT_DEPENDENCIES_CONTEXT"] {
    case "live": return .live
    case "test": return .test
    case "preview": return .preview
    default: break
    }
    if environment["XCODE_RUNNING_FOR_PREVIEWS"] == "1" { return .preview }
    return isTestProcess(environment: environment, arguments: ProcessInfo.processInfo.arguments) ? .test : .live
  }()

  /// Whether this process runs tests: XCTest's environment, or an `.xctest` bundle or runner among
  /// the arguments (`swift test` runs `…PackageTests.xctest`, for XCTest and Swift Testing alike).
  static func isTestProcess(environment: [String: String], arguments: [String]) -> Bool {
    let keys = ["XCTestBundlePath", "XCTestConfigurationFilePath", "XCTestSessionIdentifier"]
    if keys.contains(where: { environment[$0] != nil }) { return true }
    return arguments.contains { argument in
      let url = URL(fileURLWithPath: argument)
      return url.lastPathComponent == "xctest" || url.pathExtension == "xctest"
    }
  }
}
