import Testing
@testable import ValueStore

/// The indexed lookup of a registration table finds exactly what a scan of it finds, in the same
/// order with the same key paths, whatever the keys, the changes, the removals and the inactive
/// observers — below and above the size it starts indexing at.
@Suite struct RegistrationTableTests {
  @Test(arguments: [3, RegistrationTable.indexThreshold, 200]) func indexedLookupEqualsAScan(size: Int) {
    var random = SystemRandomNumberGenerator()
    let keys: [FieldKey] = [FieldKey(rawValue: 0), FieldKey(rawValue: 8), FieldKey(rawValue: 16), .any, .identity, .structure, .elements, .element(1), .element(2)]
    let keyPaths: [AnyKeyPath?] = [nil, \Child.Fields.count, \Child.Fields.title]
    for _ in 0..<50 {
      var table = RegistrationTable()
      var observers: [Observer] = []
      for _ in 0..<size {
        let observer = Observer { _ in }
        if Int.random(in: 0..<5, using: &random) == 0 { withRegistry { observer.deactivate(&$0) } }
        observers.append(observer)
        table.append(
          Registration(
            observer: observer, key: keys.randomElement(using: &random)!,
            keyPath: keyPaths.randomElement(using: &random)!))
        if Int.random(in: 0..<40, using: &random) == 0 { table.removeAll { !$0.observer.isActive } }
        let changes = (0..<Int.random(in: 1...3, using: &random)).map { _ in
          Change(key: keys.filter { $0 != .any }.randomElement(using: &random)!, keyPath: keyPaths.randomElement(using: &random)!)
        }
        let indexed = table.matching(changes)
        let scanned = table.all.matching(changes)
        #expect(indexed.map { ObjectIdentifier($0.observer) } == scanned.map { ObjectIdentifier($0.observer) })
        #expect(indexed.map(\.keyPath) == scanned.map(\.keyPath))
        let probe = table.all.randomElement(using: &random)
        if let probe {
          let found = table.contains(probe.observer, key: probe.key)
          let stranger = table.contains(Observer { _ in }, key: probe.key)
          #expect(found && !stranger)
        }
      }
      withExtendedLifetime(observers) {}  // `_ = observers` does not keep it alive in an optimized build
    }
  }
}
