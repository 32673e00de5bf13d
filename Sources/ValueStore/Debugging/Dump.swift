extension String {
  /// Creates a deterministic, multi-line textual dump of any value, for test failures and debug logs.
  ///
  /// Values print through `Mirror` in a Swift-like syntax: structs, classes and tuples list one field
  /// per line, collections label each element with its index, dictionaries and sets are sorted,
  /// optionals print their wrapped value or `nil`, and observable structs print only their fields.
  /// Nested values indent by two spaces. The same value always produces the same text, so dumps can
  /// be compared, diffed with ``diff(_:_:format:)``, and asserted against golden strings.
  ///
  /// ```swift
  /// struct User { var id = 1; var tags = ["admin"] }
  /// print(String(customDumping: User()))
  /// // User(
  /// //   id: 1,
  /// //   tags: [
  /// //     [0]: "admin"
  /// //   ]
  /// // )
  /// ```
  ///
  /// - Parameter value: The value to describe.
  public init<T>(customDumping value: T) {
    var dumper = ValueDumper()
    self = dumper.render(value, indent: 0)
  }
}

/// Renders one value tree as text. Create one per dump: it tracks the objects being visited.
struct ValueDumper {
  /// Objects on the path from the root to the value being rendered. Tracking only the current path,
  /// not every object seen, prints shared references in full and stops only at genuine cycles.
  private var objectsInProgress: Set<ObjectIdentifier> = []
  /// Names already worked out, as collections repeat the same element types many times over.
  private var typeNames: [ObjectIdentifier: String] = [:]

  /// Renders `value` as text whose first line continues the caller's current line (after a label)
  /// and whose later lines carry absolute indentation, with closing delimiters at `indent` spaces.
  mutating func render(_ value: Any, indent: Int) -> String {
    // `AnyHashable`, typically a dictionary key, is a transparent box: print what it holds. The type
    // check comes first because casting any `Hashable` value to `AnyHashable` succeeds by boxing it.
    if type(of: value) == AnyHashable.self, let box = value as? AnyHashable {
      return render(box.base, indent: indent)
    }
    if let text = Self.leafText(of: value, indent: indent) { return text }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first else { return "nil" }
      return render(wrapped.value, indent: indent)
    case .tuple:
      return Self.block("(", fields(of: mirror.children, indent: indent), ")", indent: indent)
    case .collection:
      return renderCollection(value, mirror, indent: indent)
    case .dictionary:
      return renderDictionary(mirror, indent: indent)
    case .set:
      return renderSet(mirror, indent: indent)
    case .enum:
      return renderEnum(value, mirror, indent: indent)
    case .class:
      return renderObject(value, mirror, indent: indent)
    default:  // Structs, plus values with no display style: leaf types and custom mirrors.
      return renderStruct(value, mirror, indent: indent)
    }
  }

  private mutating func renderStruct(_ value: Any, _ mirror: Mirror, indent: Int) -> String {
    if let shared = value as? any SharedDumpable { return render(shared.dumpedValue, indent: indent) }
    let children = Self.structChildren(mirror)
    if children.isEmpty {
      if let description = Self.ownDescription(of: value, indent: indent) { return description }
      // Metatypes, functions and other non-struct values have no meaningful `Name()` form.
      guard mirror.displayStyle == .struct else { return String(describing: value) }
    }
    let name = typeName(mirror.subjectType)
    return Self.block("\(name)(", fields(of: children, indent: indent), ")", indent: indent)
  }

  private mutating func renderObject(_ value: Any, _ mirror: Mirror, indent: Int) -> String {
    let name = typeName(mirror.subjectType)
    let object = ObjectIdentifier(value as AnyObject)
    guard objectsInProgress.insert(object).inserted else { return "\(name)(\u{21A9}\u{FE0E})" }
    defer { objectsInProgress.remove(object) }

    // A class mirror reflects only its own stored properties; inherited ones live on the
    // superclass mirrors and print first, base class outermost.
    var children: [Mirror.Child] = []
    var level: Mirror? = mirror
    while let current = level {
      children.insert(contentsOf: current.children, at: 0)
      level = current.superclassMirror
    }
    if children.isEmpty, let description = Self.ownDescription(of: value, indent: indent) {
      return description
    }
    return Self.block("\(name)(", fields(of: children, indent: indent), ")", indent: indent)
  }

  private mutating func renderEnum(_ value: Any, _ mirror: Mirror, indent: Int) -> String {
    let name = typeName(mirror.subjectType)
    guard let payload = mirror.children.first else {
      // A payload-less case reflects nothing; without a custom description, the default one is
      // exactly the case name.
      return Self.ownDescription(of: value, indent: indent) ?? "\(name).\(value)"
    }
    let caseName = payload.label.map { "\(name).\($0)" } ?? name
    // Several (or labeled) associated values reflect as one tuple; print them as arguments.
    let payloadMirror = Mirror(reflecting: payload.value)
    let arguments =
      payloadMirror.displayStyle == .tuple
      ? fields(of: payloadMirror.children, indent: indent)
      : [render(payload.value, indent: indent + 2)]
    // Short payloads read best inline, as in source (`.move(from: 1, to: 2)`); anything spanning
    // several lines gets the same block layout as a struct.
    if arguments.allSatisfy({ !$0.contains("\n") }) {
      return "\(caseName)(\(arguments.joined(separator: ", ")))"
    }
    return Self.block("\(caseName)(", arguments, ")", indent: indent)
  }

  private mutating func renderCollection(_ value: Any, _ mirror: Mirror, indent: Int) -> String {
    // An identified collection's elements are addressed by id, others' by offset.
    let ids = (value as? any IdentifiedElements)?._elementIDs
    let elements = mirror.children.enumerated().map { offset, element in
      let address = ids.map { "id: \($0[offset])" } ?? element.label ?? String(offset)
      return "[\(address)]: " + render(element.value, indent: indent + 2)
    }
    let (open, close) = collectionDelimiters(value, mirror)
    return Self.block(open, elements, close, indent: indent)
  }

  /// `[` and `]` for arrays, the default collection; other collection types name themselves.
  mutating func collectionDelimiters(_ value: Any, _ mirror: Mirror) -> (open: String, close: String) {
    if value is any PlainArray { return ("[", "]") }
    return ("\(typeName(mirror.subjectType))([", "])")
  }

  private mutating func renderDictionary(_ mirror: Mirror, indent: Int) -> String {
    guard !mirror.children.isEmpty else { return "[:]" }
    let entries = mirror.children.map { element in
      // Elements reflect as `(key:value:)` tuples; a custom mirror may use labeled children instead.
      let pair = Mirror(reflecting: element.value).children.map(\.value)
      let (key, value) = pair.count == 2 ? (pair[0], pair[1]) : (element.label as Any, element.value)
      let keyText = render(key, indent: indent + 2)
      let text = "\(keyText): \(render(value, indent: indent + 2))"
      return SortableEntry(key: key, keyText: keyText, text: text)
    }
    return Self.block("[", Self.sortedForDisplay(entries).map(\.text), "]", indent: indent)
  }

  private mutating func renderSet(_ mirror: Mirror, indent: Int) -> String {
    let entries = mirror.children.map { element in
      let text = render(element.value, indent: indent + 2)
      return SortableEntry(key: element.value, keyText: text, text: text)
    }
    let name = typeName(mirror.subjectType)
    return Self.block("\(name)([", Self.sortedForDisplay(entries).map(\.text), "])", indent: indent)
  }

  /// A struct's printed children. Observable structs keep their fields in one `_$fields` storage
  /// property whose mirror hides the observation bookkeeping; printing through it makes them read
  /// like the struct they model. Shared values declared beside it print under their own names
  /// (`_count` is `count`).
  static func structChildren(_ mirror: Mirror) -> Mirror.Children {
    let children = mirror.children
    guard let storage = children.first, storage.label == "_$fields" else { return children }
    let fields = Mirror(reflecting: storage.value).children
    return children.count == 1 ? fields : Mirror.Children(Array(fields) + children.dropFirst().map(Self.unwrapped))
  }

  mutating func typeName(_ type: Any.Type) -> String {
    if let name = typeNames[ObjectIdentifier(type)] { return name }
    let name = Self.uncachedTypeName(type)
    typeNames[ObjectIdentifier(type)] = name
    return name
  }

  /// A property wrapper's storage (`_count`) under the property's name, for a shared value.
  private static func unwrapped(_ child: Mirror.Child) -> Mirror.Child {
    guard child.value is any SharedDumpable, let label = child.label, label.hasPrefix("_") else { return child }
    return (String(label.dropFirst()), child.value)
  }

  /// Renders children as `label: value`; tuple positions (`.0`) and unlabeled children print bare.
  private mutating func fields(of children: some Sequence<Mirror.Child>, indent: Int) -> [String] {
    children.map { child in Self.fieldPrefix(child.label) + render(child.value, indent: indent + 2) }
  }

  /// What precedes a child's value: `label: `, or nothing for tuple positions (`.0`) and
  /// unlabeled children.
  static func fieldPrefix(_ label: String?) -> String {
    guard let label, !label.hasPrefix(".") else { return "" }
    return "\(label): "
  }

  /// Lays out rendered items one per line between `open` and `close`, separated by commas and
  /// indented one level deeper; an empty container stays on one line (`Name()`, `[]`).
  static func block(_ open: String, _ items: [String], _ close: String, indent: Int) -> String {
    guard !items.isEmpty else { return open + close }
    let itemStart = "\n" + String(repeating: " ", count: indent + 2)
    return open + itemStart + items.joined(separator: "," + itemStart)
      + "\n" + String(repeating: " ", count: indent) + close
  }
}

/// Marks the array types that print as bare `[…]` literals rather than `TypeName([…])`.
protocol PlainArray {}
extension Array: PlainArray {}
extension ContiguousArray: PlainArray {}
extension ArraySlice: PlainArray {}
