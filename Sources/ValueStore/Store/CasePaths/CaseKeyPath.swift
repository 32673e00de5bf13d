/// The cases a *case key path* goes through, by name: `\.path[id: 0].detail.delegate.deleteSyncUp`
/// names the action `.path(.element(id: 0, action: .detail(.delegate(.deleteSyncUp(…)))))`, as
/// TCA's `@CasePathable` key paths do — without a macro: each component is a name (a dynamic
/// member), matched against a value's case at run time.
///
/// ```swift
/// await store.receive(\.recordingMemo.delegate.didFinish.success)
/// await store.receive(\.rows[id: 3].factResponse, "3 is a good number.")
/// ```
///
/// `[id:]` steps into an element action (``StackAction``'s or ``IdentifiedAction``'s `.element`);
/// ``PresentationAction/presented(_:)`` (and an optional's `.some`) is stepped through without
/// being named, as in TCA. In a test store's `send`, a path builds its action:
/// `send(\.path[id: 0].detail.titleChanged, "x")`, `send(\.destination.edit.binding.title, "x")`
/// (a binding by its field). The
/// names are not checked by the compiler: a misspelled one matches no action, and the failure
/// shows the path and the action received. (It costs the type checker one member per component,
/// like a stored property's.)
@dynamicMemberLookup
public struct Cases<Root>: Sendable {
  enum Step: Hashable, Sendable {
    case name(String)
    case id(AnyHashableSendable)
  }

  private(set) var steps: [Step] = []

  init() {}

  /// The case named `name` of the value reached so far.
  public subscript(dynamicMember name: String) -> Cases<Root> {
    var cases = self
    cases.steps.append(.name(name))
    return cases
  }

  /// The element action with `id` (a stack's or an identified collection's `.element(id:action:)`).
  public subscript<ID: Hashable & Sendable>(id id: ID) -> Cases<Root> {
    var cases = self
    cases.steps.append(.id(AnyHashableSendable(id)))
    return cases
  }
}

/// A nested case named through ``Cases``: `\.path[id: 0].detail.delegate`.
public typealias CaseKeyPath<Root> = KeyPath<Cases<Root>, Cases<Root>>

extension KeyPath where Root == Value {
  /// The payload of `root` if it is in the case this path names (`()` for a case without one).
  public func extract<Enum>(from root: Enum) -> Any? where Root == Cases<Enum> {
    var current: Any = root
    for step in Cases<Enum>()[keyPath: self].steps {
      guard let next = Cases<Enum>.step(step, from: current) else { return nil }
      current = next
    }
    return current
  }
}

extension Cases {
  /// What `step` reaches from `value`: its payload if in the named case, stepping through a
  /// presentation's `.presented` first; an element's action if its id is the one named.
  static func step(_ step: Step, from value: Any) -> Any? {
    if case let .name(field) = step, let binding = value as? any CaseKeyPathBinding {
      return binding.value(ifSets: field)
    }
    guard let (name, payload) = caseOf(value) else { return nil }
    switch step {
    case let .name(expected):
      if name == expected { return payload ?? () }
      if value is any CaseKeyPathTransparent, let payload { return Self.step(step, from: payload) }
      return nil
    case let .id(expected):
      guard name == "element", let payload else { return nil }
      let element = Mirror(reflecting: payload).children.map(\.value)
      guard element.count == 2, let id = element[0] as? any Hashable else { return nil }
      return key(id) == key(expected.base) ? element[1] : nil
    }
  }

  /// An id as compared: a stack element id as its number (`[id: 0]`).
  private static func key(_ id: any Hashable) -> AnyHashable {
    (id as? any CaseKeyPathID)?.caseKeyPathID ?? AnyHashable(id)
  }

  /// The case name of `value` and its payload (nil for a case without one); nil if not an enum.
  private static func caseOf(_ value: Any) -> (name: String, payload: Any?)? {
    func open<T>(_ value: T) -> (String, Any?)? {
      guard EnumTag.isEnum(T.self) else { return nil }
      let mirror = Mirror(reflecting: value)
      if let child = mirror.children.first, let label = child.label {
        // One labeled value (`case loaded(value: Int)`) reads as a one-element tuple: its value.
        let payload = Mirror(reflecting: child.value)
        if payload.displayStyle == .tuple, payload.children.count == 1, let only = payload.children.first {
          return (label, only.value)
        }
        return (label, child.value)
      }
      guard let info = EnumPayload.caseInfo(T.self, tag: EnumTag.tag(of: value)) else { return nil }
      return (info.name, nil)
    }
    return open(value)
  }

  /// `\.path[id: 0].detail`, as written.
  static func describe(_ path: KeyPath<Cases, Cases>) -> String {
    "\\." + Cases()[keyPath: path].steps.map { step -> String in
      switch step {
      case let .name(name): "." + name
      case let .id(id): "[id: \(id.base)]"
      }
    }.joined().dropFirst()
  }
}

/// `\.path[id: 0].detail`, as written (for failure messages).
@_spi(Testing) public func _describe<Enum>(_ path: CaseKeyPath<Enum>) -> String {
  Cases<Enum>.describe(path)
}

/// An enum whose payload case (`PresentationAction.presented`, `Optional.some`) case key paths
/// step through unnamed.
protocol CaseKeyPathTransparent {}

extension Optional: CaseKeyPathTransparent {}

/// An id written as another value in case key paths (`StackElementID` as its number: `[id: 0]`).
protocol CaseKeyPathID {
  var caseKeyPathID: AnyHashable { get }
  init?(caseKeyPathID: AnyHashable)
}

/// The action `path` names, carrying `payload` in its last case (nil for a case without one); for
/// a test store's `send(\.a.b, value)`.
@_spi(Testing) public func _embed<Enum>(_ path: CaseKeyPath<Enum>, _ payload: (any Sendable)?) throws -> Enum {
  try Cases<Enum>.embed(path, payload)
}

/// Why `path` with `payload` can name no action — a payload of another type than its case
/// carries — or nil; for a test store's `receive(\.a.b, payload)`. (A path `send` cannot build —
/// an indirect case — may still name received actions: nil.)
@_spi(Testing) public func _embedMistake<Enum, Value>(_ path: CaseKeyPath<Enum>, _ payload: Value) -> String? {
  // Built only to be checked and dropped: `Value` is the payload's type, `Sendable` or not.
  do {
    _ = try Cases<Enum>.embed(path, unsafeBitCast(payload as Any, to: (any Sendable).self))
    return nil
  } catch {
    return error.isPayloadMismatch ? error.description : nil
  }
}
