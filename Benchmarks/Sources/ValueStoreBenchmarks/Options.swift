import Foundation

/// The command line.
struct Options {
  var quick = false
  var jsonPath: String?
  /// A scenario runs if its name contains any of them; all run if there is none.
  var filters: [String] = []

  static let usage = """
    usage: ValueStoreBenchmarks [--quick] [--filter SUBSTRING]... [--json FILE]
      --quick             fewer, shorter samples: a smoke run for CI, in seconds
      --filter SUBSTRING  only the scenarios whose name contains SUBSTRING (case-insensitive);
                          repeated, those whose name contains any of them
      --json FILE         also write the results to FILE
    """

  /// Parses `arguments` (without the program name); exits with the usage on anything unknown.
  static func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--quick": options.quick = true
      case "--json": options.jsonPath = value(of: argument, from: &remaining)
      case "--filter": options.filters.append(value(of: argument, from: &remaining))
      case "--help", "-h":
        print(usage)
        exit(0)
      default: fail("unknown argument \(argument)")
      }
    }
    return options
  }

  private static func value(of option: String, from arguments: inout ArraySlice<String>) -> String {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    return value
  }

  private static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n\(usage)\n".utf8))
    exit(2)
  }
}
