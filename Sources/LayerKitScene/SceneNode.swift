import LayerKit

/// A value of the document with the path that leads to it: everything the decoder reads goes
/// through one of these, so every error it throws names where the value is.
struct SceneNode {
  let value: JSON
  let path: String

  init(_ value: JSON, path: String) {
    self.value = value
    self.path = path
  }

  static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  func invalid(_ expected: String) -> SceneFileError {
    .invalidValue(path: path, found: value.kindDescription, expected: expected)
  }

  var isNull: Bool { if case .null = value { true } else { false } }

  func number(_ expected: String = "a number") throws(SceneFileError) -> Double {
    guard case .number(let n) = value else { throw invalid(expected) }
    return n
  }

  /// A number at least `minimum`.
  func number(atLeast minimum: Double) throws(SceneFileError) -> Double {
    let n = try number("a number ≥ \(JSON.format(minimum))")
    guard n >= minimum else { throw invalid("a number ≥ \(JSON.format(minimum))") }
    return n
  }

  /// A number within `range` (LayerKit's Limits), named in the message.
  func number(in range: ClosedRange<Double>) throws(SceneFileError) -> Double {
    let expected = "a number from \(JSON.format(range.lowerBound)) to \(JSON.format(range.upperBound))"
    let n = try number(expected)
    guard range.contains(n) else { throw invalid(expected) }
    return n
  }

  func integer(atLeast minimum: Int) throws(SceneFileError) -> Int {
    let expected = "a whole number ≥ \(minimum)"
    let n = try number(expected)
    guard n == n.rounded(), n >= Double(minimum), n < 1e9 else { throw invalid(expected) }
    return Int(n)
  }

  func bool() throws(SceneFileError) -> Bool {
    guard case .bool(let b) = value else { throw invalid("true or false") }
    return b
  }

  func string(_ expected: String = "a string") throws(SceneFileError) -> String {
    guard case .string(let s) = value else { throw invalid(expected) }
    return s
  }

  /// One of an enumeration's raw values; a near miss is suggested.
  func choice<E: RawRepresentable & CaseIterable>(_ type: E.Type) throws(SceneFileError) -> E
  where E.RawValue == String {
    E(rawValue: try choice(names: E.allCases.map(\.rawValue)))!
  }

  /// One of `names`; a near miss is suggested.
  func choice(names: [String]) throws(SceneFileError) -> String {
    let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
    let s = try string("one of \(list)")
    guard names.contains(s) else {
      let hint = SceneFileError.suggestion(for: s, among: names).map { " (did you mean \"\($0)\"?)" } ?? ""
      throw invalid("one of \(list)\(hint)")
    }
    return s
  }

  func array(_ expected: String = "an array") throws(SceneFileError) -> [SceneNode] {
    guard case .array(let a) = value else { throw invalid(expected) }
    return a.enumerated().map { SceneNode($1, path: "\(path)[\($0)]") }
  }

  /// An array of exactly `count` numbers (one of `counts`).
  func numbers(_ counts: Set<Int>, expected: String) throws(SceneFileError) -> [Double] {
    guard case .array(let a) = value, counts.contains(a.count) else { throw invalid(expected) }
    var out: [Double] = []
    for (i, e) in a.enumerated() {
      guard case .number(let n) = e else {
        throw SceneNode(e, path: "\(path)[\(i)]").invalid("a number (in \(expected))")
      }
      out.append(n)
    }
    return out
  }

  /// An array of numbers of any length.
  func numberList() throws(SceneFileError) -> [Double] {
    var out: [Double] = []
    for e in try array("an array of numbers") { out.append(try e.number()) }
    return out
  }

  /// The members of an object, checked against the keys it may have: an unknown key is an error
  /// that suggests the nearest known one.
  func object(_ expected: String = "an object", keys: [String]) throws(SceneFileError) -> SceneObject {
    guard case .object(let members) = value else { throw invalid(expected) }
    for (k, _) in members where !keys.contains(k) {
      throw .unknownKey(
        path: path, key: k, suggestion: SceneFileError.suggestion(for: k, among: keys), known: keys)
    }
    return SceneObject(members: members, path: path)
  }
}

/// An object whose keys have been checked.
struct SceneObject {
  let members: [(key: String, value: JSON)]
  let path: String

  subscript(key: String) -> SceneNode? {
    members.first { $0.key == key }.map { SceneNode($0.value, path: SceneNode.join(path, key)) }
  }

  func has(_ key: String) -> Bool { members.contains { $0.key == key } }

  func required(_ key: String) throws(SceneFileError) -> SceneNode {
    guard let n = self[key] else { throw .missingKey(path: path, key: key) }
    return n
  }

  /// The keys present, in document order.
  var keys: [String] { members.map(\.key) }
}

/// Builds a JSON object member by member, in order, skipping what is absent.
struct ObjectBuilder {
  var members: [(key: String, value: JSON)] = []

  mutating func add(_ key: String, _ value: JSON?) {
    if let value { members.append((key, value)) }
  }

  var json: JSON { .object(members) }
}
