// swift-tools-version: 6.0
import PackageDescription

// The benchmarks live in their own package so the library's package stays free of benchmark-only
// products and their release-build settings. `swift run -c release ValueStoreBenchmarks --help`.
let package = Package(
  name: "ValueStoreBenchmarks",
  // The same floor as the library: Observation, Synchronization and ValueStore itself need it.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [
    // The library in the enclosing repository, as checked out. `name:` because a path dependency's
    // identity is otherwise its directory's name, which depends on where the repository was cloned.
    .package(name: "ValueStore", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "ValueStoreBenchmarks",
      dependencies: [
        .product(name: "ValueStore", package: "ValueStore"),
        .product(name: "StoreTesting", package: "ValueStore"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
