// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "ValueStore",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "ValueStore", targets: ["ValueStore"]),
    .library(name: "StoreTesting", targets: ["StoreTesting"]),
    .executable(name: "CounterDemo", targets: ["CounterDemo"]),
  ],
  dependencies: [],
  targets: [
    .target(name: "ValueStore"),
    .target(name: "StoreTesting", dependencies: ["ValueStore"]),
    .executableTarget(name: "CounterDemo", dependencies: ["ValueStore"]),
    .testTarget(name: "ValueStoreTests", dependencies: ["ValueStore", "MallocProbe", "TestParallelism"]),
    // The allocator's bytes in use, for the tests that show memory stays flat (C: `mallinfo2`).
    .target(name: "MallocProbe", path: "Tests/MallocProbe"),
    // Caps Swift Testing's parallelism in the test process (C: set before `main`).
    .target(name: "TestParallelism", path: "Tests/TestParallelism"),
    .testTarget(name: "StoreTestingTests", dependencies: ["StoreTesting", "ValueStore"]),
    .testTarget(name: "CounterDemoTests", dependencies: ["CounterDemo", "StoreTesting", "ValueStore"]),
  ],
  swiftLanguageModes: [.v6]
)
