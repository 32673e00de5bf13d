import Foundation
import StoreTesting
import Testing
import ValueStore

/// swift-dependencies' `DependencyTests` and the escaping cases of its `DependencyValuesTests`,
/// case by case (same names): a `@Dependency` keeps the values in force where its owner was made.
@Suite(.timeLimit(.minutes(1))) struct DependencyEscapingTests {
  final class Model {
    @Dependency(\.int) var int
    @Dependency(\.string) var string
    func child() -> Model { withDependencies(from: self) { Model() } }
    func child() async -> Model {
      await withDependencies(from: self) {
        await Task.yield()
        return Model()
      }
    }
  }

  @Test func testExtendingLifetimeToChildModels() {
    @Dependency(\.int) var int: Int
    #expect(int == 42)
    #expect(Model().int == 42)
    #expect(Model().string == "goodbye")

    let model = withDependencies { $0.int = 1729 } operation: {
      withDependencies { $0.string = "howdy" } operation: { Model() }
    }
    #expect(model.int == 1729 && model.string == "howdy")
    withDependencies {
      $0.int = 0
      $0.string = "cya"
    } operation: {
      #expect(model.int == 0 && model.string == "cya")
    }
    #expect(model.int == 1729 && model.string == "howdy")

    let child = model.child()
    #expect(child.int == 1729 && child.string == "howdy")
    withDependencies {
      $0.int = 0
      $0.string = "cya"
    } operation: {
      #expect(child.int == 0 && child.string == "cya")
    }
    #expect(child.int == 1729 && child.string == "howdy")

    let grandchild = child.child()
    #expect(grandchild.int == 1729 && grandchild.string == "howdy")

    let greatGrandchild = withDependencies {
      $0.int = 9000
      $0.string = "cool"
    } operation: {
      grandchild.child()
    }
    #expect(greatGrandchild.int == 9000 && greatGrandchild.string == "cool")
    withDependencies {
      $0.int = 0
      $0.string = "cya"
    } operation: {
      #expect(greatGrandchild.int == 0 && greatGrandchild.string == "cya")
    }
    #expect(greatGrandchild.int == 9000 && greatGrandchild.string == "cool")
  }

  @Test func testInvalidScope() async {
    final class NoDependencies {}
    let issues = await recordIssues {
      withDependencies(from: NoDependencies()) {}
    }
    #expect(issues.count == 1 && issues[0].message.contains("has no dependencies to pass on"), "\(issues)")
  }

  @Test func testExtendingLifetimeToChildModels_Async() async {
    let model = await withDependencies {
      await Task.yield()
      $0.int = 1729
    } operation: {
      await withDependencies {
        await Task.yield()
        $0.string = "howdy"
      } operation: { () -> Model in
        await Task.yield()
        return Model()
      }
    }
    #expect(model.int == 1729 && model.string == "howdy")
    await withDependencies {
      $0.int = 0
      $0.string = "cya"
    } operation: {
      await Task.yield()
      #expect(model.int == 0 && model.string == "cya")
    }
    let child = await model.child()
    #expect(child.int == 1729 && child.string == "howdy")
    let greatGrandchild = await withDependencies {
      await Task.yield()
      $0.int = 9000
      $0.string = "cool"
    } operation: {
      await child.child()
    }
    #expect(greatGrandchild.int == 9000 && greatGrandchild.string == "cool")
  }

  @Test func testDependencyType() {
    struct MyDependency: TestDependencyKey {
      static var testValue: Int { 0 }
    }
    @Dependency(MyDependency.self) var int: Int
    #expect(int == 0)
    withDependencies { $0[MyDependency.self] = 42 } operation: {
      #expect(int == 42)
    }
  }

  /// An escaped continuation brings the values back in a `DispatchQueue` callback, twice.
  @Test func testEscape() async {
    let values = await withCheckedContinuation { (done: CheckedContinuation<[Int], Never>) in
      withDependencies { $0.fullDependency.value = 42 } operation: {
        withEscapedDependencies { continuation in
          DispatchQueue.global().async {
            let first = continuation.yield { DependencyValues.current.fullDependency.value }
            DispatchQueue.global().async {
              continuation.yield {
                @Dependency(\.fullDependency.value) var value: Int
                done.resume(returning: [first, value])
              }
            }
          }
        }
      }
    }
    #expect(values == [42, 42])
  }

  @MainActor
  final class FeatureModel {
    @Dependency(\.fullDependency) var fullDependency
    var value = 0

    /// Reads the dependency in a main-queue callback, through the model's property.
    func readLater(_ done: @escaping @Sendable () -> Void) {
      DispatchQueue.main.async {
        MainActor.assumeIsolated { self.value = self.fullDependency.value }
        done()
      }
    }

    /// Reads the dependency in a main-queue callback, through a local `@Dependency`.
    func readLocallyLater(_ done: @escaping @Sendable () -> Void) {
      DispatchQueue.main.async {
        @Dependency(\.fullDependency) var fullDependency: FullDependency
        MainActor.assumeIsolated { self.value = fullDependency.value }
        done()
      }
    }

    /// Reads the dependency in a main-queue callback, with the escaped values, overriding it
    /// there if `override` is given.
    func readEscaped(override: Int? = nil, _ done: @escaping @Sendable () -> Void) {
      withEscapedDependencies { continuation in
        DispatchQueue.main.async {
          continuation.yield {
            withDependencies {
              if let override { $0.fullDependency.value = override }
            } operation: {
              MainActor.assumeIsolated { self.value = self.fullDependency.value }
            }
          }
          done()
        }
      }
    }
  }

  @MainActor @Test func testEscapingInFeatureModel_InstanceVariablePropagated() async {
    let model = withDependencies { $0.fullDependency.value = 42 } operation: { FeatureModel() }
    await withCheckedContinuation { done in model.readLater { done.resume() } }
    #expect(model.value == 42)
  }

  @MainActor @Test func testEscapingInFeatureModel_NotPropagated() async {
    let model = withDependencies { $0.fullDependency.value = 42 } operation: { FeatureModel() }
    await withCheckedContinuation { done in model.readLocallyLater { done.resume() } }
    #expect(model.value == 3)
  }

  @MainActor @Test func testEscapingInFeatureModelWithOverride() async {
    let model = FeatureModel()
    await withDependencies { $0.fullDependency.value = 42 } operation: {
      await withCheckedContinuation { done in model.readEscaped { done.resume() } }
    }
    #expect(model.value == 42)
  }

  @MainActor @Test func testEscapingInFeatureModelWithOverride_OverrideEscaped() async {
    let model = FeatureModel()
    await withDependencies { $0.fullDependency.value = 42 } operation: {
      await withCheckedContinuation { done in model.readEscaped(override: 999) { done.resume() } }
    }
    #expect(model.value == 999)
  }

  @MainActor @Test func testEscapingInFeatureModelWithOverride_NotPropagated() async {
    let model = FeatureModel()
    await withDependencies { $0.fullDependency.value = 42 } operation: {
      await withCheckedContinuation { done in model.readLater { done.resume() } }
    }
    #expect(model.value == 3)
  }
}
