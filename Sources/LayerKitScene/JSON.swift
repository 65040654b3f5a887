import Foundation

/// A JSON value as a scene file holds it: what `SceneFile` reads a document into before it builds
/// layers from it, and what it writes layers out as. Objects keep their keys in order, so a
/// written scene file reads top to bottom the way a person writes one (name first, sublayers
/// last).
public enum JSON: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSON])
  case object([(key: String, value: JSON)])

  public static func == (a: JSON, b: JSON) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.number(let x), .number(let y)): x == y
    case (.string(let x), .string(let y)): x == y
    case (.array(let x), .array(let y)): x == y
    case (.object(let x), .object(let y)):
      x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(b)
    case .number(let n): hasher.combine(n)
    case .string(let s): hasher.combine(s)
    case .array(let a): hasher.combine(a)
    case .object(let o):
      for (k, v) in o {
        hasher.combine(k)
        hasher.combine(v)
      }
    }
  }

  /// The member `key` of an object (nil for other values and missing keys).
  public subscript(key: String) -> JSON? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// How messages name the kind of a value that was found: "a string \"abc\"", "the number 3".
  public var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool(let b): "the boolean \(b)"
    case .number(let n): "the number \(JSON.format(n))"
    case .string(let s): "the string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
    case .array(let a): "an array of \(a.count) element\(a.count == 1 ? "" : "s")"
    case .object: "an object"
    }
  }

  // MARK: Reading

  /// Parses JSON text (RFC 8259). Numbers are read as Double; duplicate keys keep the last value.
  /// - Throws: `SceneFileError.invalidJSON` with the line and column of the first error.
  public static func parse(_ data: Data, file: String) throws(SceneFileError) -> JSON {
    var parser = Parser(bytes: [UInt8](data))
    do throws(Parser.Failure) {
      // A UTF-8 byte-order mark, as some editors write one, is not part of the document.
      if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.at = 3 }
      parser.skipSpace()
      let value = try parser.value(depth: 0)
      parser.skipSpace()
      guard parser.at == parser.bytes.count else { throw parser.failure("text after the end of the document") }
      return value
    } catch {
      let (line, column) = parser.position(of: error.offset)
      throw .invalidJSON(file: file, line: line, column: column, reason: error.reason)
    }
  }

  /// A small recursive-descent parser: keeps object key order (which Foundation's parsers do
  /// not) and reports where the text goes wrong.
  struct Parser {
    struct Failure: Error {
      var offset: Int
      var reason: String
    }

    let bytes: [UInt8]
    var at = 0
    /// Deeper nesting is refused rather than risking the stack.
    static let maxDepth = 512

    init(bytes: [UInt8]) { self.bytes = bytes }

    func failure(_ reason: String) -> Failure { Failure(offset: at, reason: reason) }

    func position(of offset: Int) -> (Int, Int) {
      var line = 1
      var column = 1
      for b in bytes.prefix(offset) {
        if b == UInt8(ascii: "\n") {
          line += 1
          column = 1
        } else if b & 0xC0 != 0x80 {
          column += 1
        }
      }
      return (line, column)
    }

    mutating func skipSpace() {
      while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    mutating func expect(_ word: String, _ value: JSON) throws(Failure) -> JSON {
      let w = Array(word.utf8)
      guard bytes.count - at >= w.count, Array(bytes[at..<at + w.count]) == w else {
        throw failure("unexpected character; expected a value")
      }
      at += w.count
      return value
    }

    mutating func value(depth: Int) throws(Failure) -> JSON {
      guard depth < Parser.maxDepth else { throw failure("nesting deeper than \(Parser.maxDepth) levels") }
      guard at < bytes.count else { throw failure("the document ends where a value was expected") }
      switch bytes[at] {
      case UInt8(ascii: "{"):
        at += 1
        var members: [(key: String, value: JSON)] = []
        // The keys so far, so a duplicate is found in constant time (an object of 100 000 keys
        // took minutes to parse).
        var keys: Set<String> = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
          at += 1
          return .object(members)
        }
        while true {
          skipSpace()
          guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw failure("expected a key in quotes") }
          let key = try string()
          skipSpace()
          guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
          at += 1
          skipSpace()
          let v = try value(depth: depth + 1)
          if !keys.insert(key).inserted, let i = members.firstIndex(where: { $0.key == key }) { members.remove(at: i) }
          members.append((key, v))
          skipSpace()
          guard at < bytes.count else { throw failure("the document ends inside an object") }
          if bytes[at] == UInt8(ascii: ",") {
            at += 1
            continue
          }
          guard bytes[at] == UInt8(ascii: "}") else { throw failure("expected ',' or '}' in an object") }
          at += 1
          return .object(members)
        }
      case UInt8(ascii: "["):
        at += 1
        var elements: [JSON] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
          at += 1
          return .array(elements)
        }
        while true {
          skipSpace()
          elements.append(try value(depth: depth + 1))
          skipSpace()
          guard at < bytes.count else { throw failure("the document ends inside an array") }
          if bytes[at] == UInt8(ascii: ",") {
            at += 1
            continue
          }
          guard bytes[at] == UInt8(ascii: "]") else { throw failure("expected ',' or ']' in an array") }
          at += 1
          return .array(elements)
        }
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): return try expect("true", .bool(true))
      case UInt8(ascii: "f"): return try expect("false", .bool(false))
      case UInt8(ascii: "n"): return try expect("null", .null)
      default: return try number()
      }
    }

    mutating func number() throws(Failure) -> JSON {
      let start = at
      func digits() {
        while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
      }
      if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
      let intStart = at
      digits()
      guard at > intStart else {
        at = start
        throw failure("unexpected character; expected a value")
      }
      if bytes[intStart] == UInt8(ascii: "0"), at - intStart > 1 {
        throw Failure(offset: intStart, reason: "a number may not start with 0")
      }
      if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
        at += 1
        let f = at
        digits()
        guard at > f else { throw failure("expected digits after '.'") }
      }
      if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
        at += 1
        if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
        let e = at
        digits()
        guard at > e else { throw failure("expected digits in the exponent") }
      }
      let text = String(decoding: bytes[start..<at], as: UTF8.self)
      guard let n = Double(text), n.isFinite else {
        throw Failure(offset: start, reason: "the number \(text) is out of range")
      }
      return .number(n)
    }

    mutating func string() throws(Failure) -> String {
      let start = at
      at += 1  // the opening quote
      var out: [UInt8] = []
      while true {
        guard at < bytes.count else { throw failure("the document ends inside a string") }
        let b = bytes[at]
        at += 1
        switch b {
        case UInt8(ascii: "\""):
          guard let s = String(validating: out, as: UTF8.self) else {
            throw Failure(offset: start, reason: "a string that is not UTF-8 text (a scene file is UTF-8)")
          }
          return s
        case UInt8(ascii: "\\"):
          guard at < bytes.count else { throw failure("the document ends inside a string") }
          let e = bytes[at]
          at += 1
          switch e {
          case UInt8(ascii: "\""): out.append(e)
          case UInt8(ascii: "\\"): out.append(e)
          case UInt8(ascii: "/"): out.append(e)
          case UInt8(ascii: "b"): out.append(8)
          case UInt8(ascii: "f"): out.append(12)
          case UInt8(ascii: "n"): out.append(10)
          case UInt8(ascii: "r"): out.append(13)
          case UInt8(ascii: "t"): out.append(9)
          case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
              guard bytes.count - at >= 6, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                throw failure("a lone UTF-16 surrogate in a \\u escape")
              }
              at += 2
              let low = try hex4()
              guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone UTF-16 surrogate in a \\u escape") }
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let u = Unicode.Scalar(scalar) else { throw failure("an invalid \\u escape") }
            out.append(contentsOf: Array(String(Character(u)).utf8))
          default: throw failure("an invalid escape in a string")
          }
        case 0..<0x20:
          throw failure("a control character inside a string (write it as an escape)")
        default:
          out.append(b)
        }
      }
    }

    mutating func hex4() throws(Failure) -> UInt32 {
      guard bytes.count - at >= 4, let v = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
      else { throw failure("expected four hex digits after \\u") }
      at += 4
      return v
    }
  }

  // MARK: Writing

  /// The value as indented JSON text, objects' keys in their order. Short arrays of numbers stay
  /// on one line, so a rectangle reads `[0, 0, 100, 50]`.
  public func formatted() -> String {
    var out = ""
    write(into: &out, indent: 0)
    out += "\n"
    return out
  }

  private func write(into out: inout String, indent: Int) {
    let pad = String(repeating: "  ", count: indent + 1)
    let close = String(repeating: "  ", count: indent)
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += JSON.format(n)
    case .string(let s): out += JSON.quote(s)
    case .array(let a):
      if a.isEmpty {
        out += "[]"
      } else if a.count <= 16,
        a.allSatisfy({ if case .number = $0 { true } else if case .string = $0 { true } else { false } })
      {
        var items: [String] = []
        for e in a {
          var s = ""
          e.write(into: &s, indent: 0)
          items.append(s)
        }
        out += "[" + items.joined(separator: ", ") + "]"
      } else {
        out += "[\n"
        for (i, e) in a.enumerated() {
          out += pad
          e.write(into: &out, indent: indent + 1)
          out += i == a.count - 1 ? "\n" : ",\n"
        }
        out += close + "]"
      }
    case .object(let o):
      if o.isEmpty {
        out += "{}"
        return
      }
      out += "{\n"
      for (i, m) in o.enumerated() {
        out += pad + JSON.quote(m.key) + ": "
        m.value.write(into: &out, indent: indent + 1)
        out += i == o.count - 1 ? "\n" : ",\n"
      }
      out += close + "}"
    }
  }

  /// The shortest text that reads back as the same Double; whole numbers without ".0".
  static func format(_ n: Double) -> String {
    if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    return "\(n)"
  }

  static func quote(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
      default: out.unicodeScalars.append(u)
      }
    }
    return out + "\""
  }
}

// MARK: - Codable

/// A scene document can sit inside other Codable types (a project file, a test fixture): it
/// decodes from and encodes to any Codable format that has JSON's kinds of values. Object key
/// order is kept where the container keeps it.
extension JSON: Codable {
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  public init(from decoder: any Decoder) throws {
    if let keyed = try? decoder.container(keyedBy: Key.self) {
      var members: [(key: String, value: JSON)] = []
      for key in keyed.allKeys { members.append((key.stringValue, try keyed.decode(JSON.self, forKey: key))) }
      self = .object(members)
      return
    }
    if var list = try? decoder.unkeyedContainer() {
      var elements: [JSON] = []
      while !list.isAtEnd { elements.append(try list.decode(JSON.self)) }
      self = .array(elements)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let b = try? single.decode(Bool.self) {
      self = .bool(b)
    } else if let n = try? single.decode(Double.self) {
      self = .number(n)
    } else {
      self = .string(try single.decode(String.self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var c = encoder.singleValueContainer()
      try c.encodeNil()
    case .bool(let b):
      var c = encoder.singleValueContainer()
      try c.encode(b)
    case .number(let n):
      var c = encoder.singleValueContainer()
      try c.encode(n)
    case .string(let s):
      var c = encoder.singleValueContainer()
      try c.encode(s)
    case .array(let a):
      var c = encoder.unkeyedContainer()
      for e in a { try c.encode(e) }
    case .object(let o):
      var c = encoder.container(keyedBy: Key.self)
      for (k, v) in o { try c.encode(v, forKey: Key(stringValue: k)) }
    }
  }
}
