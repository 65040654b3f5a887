// Scanning a transition shader's text for GLTransitionSource: comments masked, uniform
// declarations, directives, the statements at file scope. Pure text work, no GL.

import LayerKitRender

// MARK: - Scanning

/// The text with comments blanked to spaces (newlines kept), and the uniform declarations found in it.
struct Scan {
  let bytes: [UInt8]
  let maskedBytes: [UInt8]
  /// Comments as (start, end) byte ranges of `bytes`, including their delimiters.
  let comments: [Range<Int>]
  let code: String

  init(_ text: String) {
    bytes = Array(text.utf8)
    var masked = bytes
    var comments: [Range<Int>] = []
    var i = 0
    let slash = UInt8(ascii: "/")
    let star = UInt8(ascii: "*")
    let newline = UInt8(ascii: "\n")
    while i < bytes.count {
      if bytes[i] == slash, i + 1 < bytes.count, bytes[i + 1] == slash {
        var j = i
        while j < bytes.count, bytes[j] != newline { j += 1 }
        comments.append(i..<j)
        for k in i..<j { masked[k] = UInt8(ascii: " ") }
        i = j
      } else if bytes[i] == slash, i + 1 < bytes.count, bytes[i + 1] == star {
        var j = i + 2
        while j < bytes.count, !(bytes[j] == star && j + 1 < bytes.count && bytes[j + 1] == slash) { j += 1 }
        j = min(j + 2, bytes.count)
        comments.append(i..<j)
        for k in i..<j where bytes[k] != newline { masked[k] = UInt8(ascii: " ") }
        i = j
      } else {
        i += 1
      }
    }
    maskedBytes = masked
    self.comments = comments
    code = String(decoding: masked, as: UTF8.self)
  }

  /// Every preprocessor directive outside comments, by its 1-based line and its keyword (the
  /// word after `#`; "" for a `#` alone on its line).
  func directives() -> [(line: Int, keyword: String)] {
    var result: [(line: Int, keyword: String)] = []
    var line = 1
    var atLineStart = true
    var i = 0
    while i < maskedBytes.count {
      let b = maskedBytes[i]
      if b == UInt8(ascii: "\n") {
        line += 1
        atLineStart = true
      } else if b == UInt8(ascii: "#") && atLineStart {
        var j = i + 1
        while j < maskedBytes.count, maskedBytes[j] == UInt8(ascii: " ") || maskedBytes[j] == UInt8(ascii: "\t") {
          j += 1
        }
        var k = j
        while k < maskedBytes.count, Self.isWordByte(maskedBytes[k]) { k += 1 }
        result.append((line, String(decoding: maskedBytes[j..<k], as: UTF8.self)))
        atLineStart = false
      } else if b != UInt8(ascii: " ") && b != UInt8(ascii: "\t") && b != UInt8(ascii: "\r") {
        atLineStart = false
      }
      i += 1
    }
    return result
  }

  static func isWordByte(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
  }

  /// The 1-based line of byte offset `offset`.
  func line(at offset: Int) -> Int {
    1 + bytes[..<min(offset, bytes.count)].reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
  }

  struct Declaration {
    /// Byte offsets of `uniform` and one past the `;` (or the end of the text).
    let start: Int
    let end: Int
    /// The code between `uniform` and `;`, comments blanked.
    let body: String
    /// The text of the comment holding the default, without its delimiters: one inside the
    /// declaration, else the one right after the `;` on the same line.
    let defaultComment: String?
  }

  func uniformDeclarations() -> [Declaration] {
    var result: [Declaration] = []
    let word = Array("uniform".utf8)
    func isIdent(_ b: UInt8) -> Bool {
      (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }
    var i = 0
    while i + word.count <= maskedBytes.count {
      guard maskedBytes[i] == word[0], Array(maskedBytes[i..<(i + word.count)]) == word,
        i == 0 || !isIdent(maskedBytes[i - 1]),
        i + word.count == maskedBytes.count || !isIdent(maskedBytes[i + word.count])
      else {
        i += 1
        continue
      }
      var j = i + word.count
      while j < maskedBytes.count, maskedBytes[j] != UInt8(ascii: ";") { j += 1 }
      let body = String(decoding: maskedBytes[(i + word.count)..<j], as: UTF8.self)
      let end = min(j + 1, maskedBytes.count)
      var comment = comments.first { $0.lowerBound >= i && $0.upperBound <= j }
      if comment == nil {
        var k = end
        while k < bytes.count, bytes[k] == UInt8(ascii: " ") || bytes[k] == UInt8(ascii: "\t") { k += 1 }
        comment = comments.first { $0.lowerBound == k }
      }
      result.append(
        Declaration(
          start: i, end: end, body: body,
          defaultComment: comment.map { Self.commentBody(bytes[$0]) }.flatMap { $0.hasPrefix("=") ? $0 : nil }))
      i = end
    }
    return result
  }

  /// The initializer of a non-`const` file-scope variable (`float d = min(progress, 0.5);`).
  struct GlobalInitializer {
    /// The variable's name.
    let name: String
    /// Byte offsets of `bytes` from the `=` to the end of the initializer (before its `,` or `;`).
    let removed: Range<Int>
    /// The initializer expression, comments blanked and newlines kept, trimmed.
    let expression: String
    /// The 1-based line of the expression's first character.
    let line: Int
    /// The preprocessor conditionals the declaration lies in, outermost first: each as its `#if…`
    /// line and the `#elif` / `#else` lines up to the declaration's branch, so that replaying them
    /// (then `#endif`) selects the same branch.
    let conditionals: [[String]]
  }

  /// What lies at file scope: the initializers of variables and the names of functions.
  struct FileScope {
    var initializers: [GlobalInitializer] = []
    /// The functions defined or declared (prototypes), by name.
    var functionNames: Set<String> = []
    /// The functions defined (with a body), by name and the byte offset of their header.
    var definitions: [(name: String, offset: Int)] = []
  }

  /// Words that begin a file-scope statement that is no plain variable declaration (or whose
  /// initializer GLSL ES 3.00 takes as it is: `const`; or may not have one: the interface
  /// qualifiers).
  private static let nonVariableWords: Set<String> = [
    "const", "uniform", "attribute", "varying", "in", "out", "inout", "buffer", "shared", "precision",
    "struct", "layout", "invariant", "flat", "smooth", "centroid", "noperspective", "patch", "sample",
  ]
  private static let precisionWords: Set<String> = ["lowp", "mediump", "highp"]

  /// Walks the code at file scope: statements at brace depth 0 ending in `;`, function bodies
  /// skipped, preprocessor lines followed for their conditionals. A statement that a directive
  /// interrupts, that holds a `{ }` block (a struct), or that is not `[precision] TYPE name [=
  /// expression], …;` is left alone (a declaration of an array too): the driver judges it.
  func fileScope() -> FileScope {
    var scope = FileScope()
    let m = maskedBytes
    let newline = UInt8(ascii: "\n")
    var conditionals: [[String]] = []
    var depth = 0
    // The first byte of the statement at depth 0 being read, and whether it is to be left alone.
    var statementStart: Int?
    var leftAlone = false
    // The statement is a function header whose body is open: it ends with the body's `}`.
    var functionBody = false
    var atLineStart = true
    var i = 0
    while i < m.count {
      let b = m[i]
      if b == newline {
        atLineStart = true
        i += 1
        continue
      }
      if isSpace(b) {
        i += 1
        continue
      }
      if atLineStart && b == UInt8(ascii: "#") {
        // A directive runs to the end of its line, and on past a newline escaped by `\`.
        var j = i
        while j < m.count {
          if m[j] == newline {
            var k = j - 1
            while k > i, m[k] == UInt8(ascii: "\r") { k -= 1 }
            if m[k] != UInt8(ascii: "\\") { break }
          }
          j += 1
        }
        let directive = String(decoding: m[i..<j], as: UTF8.self).trimmingWhitespace()
        let keyword = directive.dropFirst().drop { $0 == " " || $0 == "\t" }.prefix { $0.isLetter }
        switch keyword {
        case "if", "ifdef", "ifndef": conditionals.append([directive])
        case "elif", "else": if !conditionals.isEmpty { conditionals[conditionals.count - 1].append(directive) }
        case "endif": _ = conditionals.popLast()
        default: break
        }
        if statementStart != nil { leftAlone = true }
        i = j
        continue
      }
      atLineStart = false
      if depth == 0 && statementStart == nil {
        statementStart = i
        leftAlone = false
        functionBody = false
      }
      switch b {
      case UInt8(ascii: "{"):
        if depth == 0, let start = statementStart {
          // After a parameter list, a function's body; else a struct or block, left alone.
          if m[start..<i].contains(UInt8(ascii: ")")) {
            functionBody = true
            if !leftAlone, let name = Self.functionName(m, start..<i) {
              scope.functionNames.insert(name)
              scope.definitions.append((name, start))
            }
          } else {
            leftAlone = true
          }
        }
        depth += 1
      case UInt8(ascii: "}"):
        depth = max(depth - 1, 0)
        if depth == 0 && functionBody { statementStart = nil }
      case UInt8(ascii: ";") where depth == 0:
        if let start = statementStart, !leftAlone {
          if let name = Self.functionName(m, start..<i) {
            scope.functionNames.insert(name)
          } else {
            scope.initializers += declaration(start..<i, conditionals: conditionals)
          }
        }
        statementStart = nil
      default:
        break
      }
      i += 1
    }
    return scope
  }

  /// The name of the function a header or prototype `[precision] TYPE name(` declares.
  private static func functionName(_ m: [UInt8], _ range: Range<Int>) -> String? {
    var reader = Reader(bytes: m, position: range.lowerBound, end: range.upperBound)
    guard var type = reader.identifier() else { return nil }
    if precisionWords.contains(type) { type = reader.identifier() ?? "" }
    guard !type.isEmpty, !nonVariableWords.contains(type), let name = reader.identifier(),
      reader.next == UInt8(ascii: "(")
    else { return nil }
    return name
  }

  /// The initializers of `[precision] TYPE name [= expression], …;` (the statement without its
  /// `;`); none for anything else or any declarator of an array.
  private func declaration(_ range: Range<Int>, conditionals: [[String]]) -> [GlobalInitializer] {
    var reader = Reader(bytes: maskedBytes, position: range.lowerBound, end: range.upperBound)
    guard var type = reader.identifier() else { return [] }
    if Self.precisionWords.contains(type) { type = reader.identifier() ?? "" }
    guard !type.isEmpty, !Self.nonVariableWords.contains(type) else { return [] }
    var result: [GlobalInitializer] = []
    while true {
      guard let name = reader.identifier() else { return [] }
      switch reader.next {
      case nil:
        return result
      case UInt8(ascii: ","):
        reader.position += 1
        continue
      case UInt8(ascii: "=") where reader.peek(1) != UInt8(ascii: "="):
        let equals = reader.position
        reader.position += 1
        // The expression runs to a `,` outside brackets, or to the end of the statement.
        var nesting = 0
        while let c = reader.peek(0) {
          if c == UInt8(ascii: "(") || c == UInt8(ascii: "[") {
            nesting += 1
          } else if c == UInt8(ascii: ")") || c == UInt8(ascii: "]") {
            nesting -= 1
            guard nesting >= 0 else { return [] }
          } else if c == UInt8(ascii: ","), nesting == 0 {
            break
          }
          reader.position += 1
        }
        guard nesting == 0 else { return [] }
        var first = equals + 1
        while first < reader.position, isSpace(maskedBytes[first]) || maskedBytes[first] == UInt8(ascii: "\n") {
          first += 1
        }
        guard first < reader.position else { return [] }
        let expression = String(decoding: maskedBytes[first..<reader.position], as: UTF8.self).trimmingWhitespace()
        result.append(
          GlobalInitializer(
            name: name, removed: equals..<reader.position, expression: expression, line: line(at: first),
            conditionals: conditionals))
        guard reader.next == UInt8(ascii: ",") else { return result }
        reader.position += 1
      default:
        // `name[…]`, or not a declaration at all.
        return []
      }
    }
  }

  /// A comment's text without `//` or `/* */`, trimmed.
  static func commentBody(_ c: ArraySlice<UInt8>) -> String {
    var s = String(decoding: c, as: UTF8.self)
    if s.hasPrefix("//") {
      s.removeFirst(2)
    } else {
      s.removeFirst(2)
      if s.hasSuffix("*/") { s.removeLast(2) }
    }
    return s.trimmingWhitespace()
  }
}

/// Reads identifiers and punctuation of code (comments blanked), skipping white space.
struct Reader {
  let bytes: [UInt8]
  var position: Int
  let end: Int

  /// The byte `offset` bytes on, nil at the end.
  func peek(_ offset: Int) -> UInt8? {
    position + offset < end ? bytes[position + offset] : nil
  }

  /// The next byte that is not white space (moving up to it), nil at the end.
  var next: UInt8? {
    mutating get {
      while position < end, isSpace(bytes[position]) || bytes[position] == UInt8(ascii: "\n") { position += 1 }
      return peek(0)
    }
  }

  /// The identifier that comes next, read; nil (reading nothing) when something else does.
  mutating func identifier() -> String? {
    guard let first = next, isIdentifierByte(first), !(first >= 0x30 && first <= 0x39) else { return nil }
    let start = position
    while position < end, isIdentifierByte(bytes[position]) { position += 1 }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }
}

/// A byte of a GLSL identifier (or number): a letter, digit or `_`.
func isIdentifierByte(_ b: UInt8) -> Bool {
  (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
}

/// White space within a line.
func isSpace(_ b: UInt8) -> Bool {
  b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\r") || b == 0x0B || b == 0x0C
}

extension StringProtocol {
  func trimmingWhitespace() -> String {
    func ws(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" }
    guard let first = firstIndex(where: { !ws($0) }), let last = lastIndex(where: { !ws($0) }) else { return "" }
    return String(self[first...last])
  }
}
