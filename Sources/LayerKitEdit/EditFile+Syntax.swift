import Foundation
import LayerKit

/// Where a file that is not JSON5 goes wrong: Foundation's JSON5 reader says only that the data is
/// not valid, so a file it refuses is walked once more by this scanner — JSON5's grammar (comments,
/// trailing commas, unquoted keys, single-quoted strings, hex numbers, Infinity and NaN, a leading
/// `+`) checked, nothing built — to name the line and column of the first thing out of place, and
/// what was expected there.
extension EditFile {
  struct SyntaxScanner {
    let bytes: [UInt8]
    var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    struct Failure: Swift.Error {
      var offset: Int
      var expected: String
    }

    /// "line 4, column 7: found ']', expected a value", or nil when the scanner finds no fault.
    static func locate(_ bytes: [UInt8]) -> String? {
      var scanner = SyntaxScanner(bytes)
      do {
        try scanner.skipSpace()
        try scanner.value()
        try scanner.skipSpace()
        if scanner.i < bytes.count { throw Failure(offset: scanner.i, expected: "the end of the file") }
        return nil
      } catch let failure as Failure {
        return scanner.describe(failure)
      } catch {
        return nil
      }
    }

    /// The most arrays and objects an edit file nests (editly's deepest is 4): deeper ones are
    /// refused before a recursive reader would run out of stack.
    static let maxDepth = 64

    /// Where the file first nests arrays and objects deeper than `maxDepth` ("line 1, column 65:
    /// …"), or nil. One pass, no recursion: brackets inside strings and comments do not count.
    static func tooDeep(_ bytes: [UInt8]) -> String? {
      var depth = 0
      var i = 0
      while i < bytes.count {
        let c = bytes[i]
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
          i += 1
          while i < bytes.count, bytes[i] != c {
            i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
          }
        case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/"):
          while i < bytes.count, bytes[i] != 0x0A { i += 1 }
        case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
          i += 2
          while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
          i += 1
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          depth += 1
          if depth > maxDepth {
            return SyntaxScanner(bytes).describe(
              Failure(offset: i, expected: "at most \(maxDepth) arrays and objects one inside another"))
          }
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
          depth -= 1
        default: break
        }
        i += 1
      }
      return nil
    }

    func describe(_ f: Failure) -> String {
      var line = 1
      var column = 1
      for b in bytes.prefix(f.offset) {
        if b == 0x0A {
          line += 1
          column = 1
        } else if b & 0xC0 != 0x80 {
          column += 1
        }
      }
      let found: String
      if f.offset >= bytes.count {
        found = "the end of the file"
      } else {
        let end = bytes[f.offset...].prefix { $0 != 0x0A && $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }.prefix(12)
        found = "'\(String(decoding: end, as: UTF8.self))'"
      }
      return "line \(line), column \(column): found \(found), expected \(f.expected)"
    }

    var current: UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func skipSpace() throws {
      while let c = current {
        if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0B || c == 0x0C || c == 0xA0 {
          i += 1
        } else if c == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
          while let d = current, d != 0x0A { i += 1 }
        } else if c == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
          let start = i
          i += 2
          while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
          guard i + 1 < bytes.count else { throw Failure(offset: start, expected: "a comment closed by */") }
          i += 2
        } else if c == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBB, bytes[i + 2] == 0xBF {
          i += 3  // a byte-order mark
        } else {
          return
        }
      }
    }

    mutating func value() throws {
      guard let c = current else { throw Failure(offset: i, expected: "a value") }
      switch c {
      case UInt8(ascii: "{"): try container(close: UInt8(ascii: "}"), keyed: true)
      case UInt8(ascii: "["): try container(close: UInt8(ascii: "]"), keyed: false)
      case UInt8(ascii: "\""), UInt8(ascii: "'"): try string()
      default:
        if try word(["true", "false", "null"]) { return }
        try number()
      }
    }

    mutating func container(close: UInt8, keyed: Bool) throws {
      i += 1
      try skipSpace()
      while current != close {
        if keyed {
          try key()
          try skipSpace()
          guard current == UInt8(ascii: ":") else { throw Failure(offset: i, expected: "':' after the key") }
          i += 1
          try skipSpace()
        }
        try value()
        try skipSpace()
        if current == UInt8(ascii: ",") {
          i += 1
          try skipSpace()
        } else if current != close {
          throw Failure(offset: i, expected: "',' or '\(Character(Unicode.Scalar(close)))'")
        }
      }
      i += 1
    }

    mutating func key() throws {
      guard let c = current else { throw Failure(offset: i, expected: "a key") }
      if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { return try string() }
      let start = i
      while let d = current, d == UInt8(ascii: "_") || d == UInt8(ascii: "$") || d >= 0x80 || isAlphanumeric(d) {
        i += 1
      }
      if i == start || isDigit(bytes[start]) { throw Failure(offset: start, expected: "a key") }
    }

    mutating func string() throws {
      let quote = bytes[i]
      let start = i
      i += 1
      while let c = current, c != quote {
        if c == UInt8(ascii: "\\") { i += 1 } else if c == 0x0A { break }
        i += 1
      }
      guard current == quote else { throw Failure(offset: start, expected: "a string closed on its line") }
      i += 1
    }

    mutating func word(_ words: [String]) throws -> Bool {
      for w in words {
        let u = Array(w.utf8)
        if bytes[i...].starts(with: u), !(i + u.count < bytes.count && isAlphanumeric(bytes[i + u.count])) {
          i += u.count
          return true
        }
      }
      return false
    }

    mutating func number() throws {
      let start = i
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { i += 1 }
      if try word(["Infinity", "NaN"]) { return }
      if current == UInt8(ascii: "0"), i + 1 < bytes.count, bytes[i + 1] | 0x20 == UInt8(ascii: "x") {
        i += 2
        let digits = i
        while let d = current, isHexDigit(d) { i += 1 }
        if i == digits { throw Failure(offset: start, expected: "a value") }
        return
      }
      var digits = 0
      while let d = current,
        isDigit(d) || d == UInt8(ascii: ".") || d | 0x20 == UInt8(ascii: "e")
          || ((d == UInt8(ascii: "+") || d == UInt8(ascii: "-")) && bytes[i - 1] | 0x20 == UInt8(ascii: "e"))
      {
        if isDigit(d) { digits += 1 }
        i += 1
      }
      if digits == 0 { throw Failure(offset: start, expected: "a value") }
    }

    func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    func isHexDigit(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x66) }
    func isAlphanumeric(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) }
  }
}
