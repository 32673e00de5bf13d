import Foundation

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let settings: HarnessSettings = options.quick ? .quick : .full
let scenarios = allScenarios.filter { scenario in
  options.filters.isEmpty || options.filters.contains { scenario.name.localizedCaseInsensitiveContains($0) }
}
guard !scenarios.isEmpty else {
  let filters = options.filters.map { "\"\($0)\"" }.joined(separator: " or ")
  FileHandle.standardError.write(Data("no scenario matches \(filters)\n".utf8))
  exit(1)
}

let context = MachineContext.current()
print(context.header)
print()
let results = runScenarios(scenarios, settings: settings)
print(table(results))
let goalChecks = checkGoals(results)
print()
print(goalsTable(goalChecks))
if let path = options.jsonPath {
  do {
    try JSONReport(context: context, settings: settings, results: results, goals: goalChecks).write(to: path)
  } catch {
    FileHandle.standardError.write(Data("cannot write \(path): \(error)\n".utf8))
    exit(1)
  }
}
