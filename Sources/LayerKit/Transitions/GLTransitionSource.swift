// Reading a transition shader written in the gl-transitions form: one `vec4 transition(vec2 uv)`,
// getFromColor / getToColor, `progress`, `ratio`, and parameters as uniforms whose defaults live
// in comments (`uniform vec2 direction; // = vec2(-1.0, 0.0)`). Pure text work, no GL: the GPU
// backend hosts the adapted text in Shaders/transitions/transition_wrapper.frag, and a test reads
// the built-in files here to hold their defaults equal to TransitionEffects'.
//
// The form's dialect is GLSL 1.20 / WebGL 1 (`texture2D`, no precision statements); the backend
// compiles GLSL ES 3.00. `adapted(forGLSLES300:)` rewrites the text in place, token for token on
// the same lines, so a driver's line numbers are the user's.

/// The uniform types a gl-transitions parameter may have.
public enum TransitionUniformType: String, Hashable, Sendable, CaseIterable {
  case float, int, bool, vec2, vec3, vec4, ivec2
  /// An extra texture; it has no default and no `TransitionValue`.
  case sampler2D

  /// How many components a constructor of this type takes (1 for scalars and samplers).
  var componentCount: Int {
    switch self {
    case .vec2, .ivec2: 2
    case .vec3: 3
    case .vec4: 4
    default: 1
    }
  }
}

extension TransitionValue {
  /// The uniform type a value of this case sets.
  public var uniformType: TransitionUniformType {
    switch self {
    case .float: .float
    case .int: .int
    case .bool: .bool
    case .vec2: .vec2
    case .vec3: .vec3
    case .vec4: .vec4
    case .ivec2: .ivec2
    case .image: .sampler2D
    }
  }
}

/// One parameter of a transition shader: a uniform other than the reserved ones.
public struct TransitionUniform: Hashable, Sendable {
  public var name: String
  public var type: TransitionUniformType
  /// The value in the declaration's `= …` comment; nil when it has none (and always for samplers).
  public var `default`: TransitionValue?
  /// The 1-based line of the declaration in the shader file.
  public var line: Int

  public init(name: String, type: TransitionUniformType, default: TransitionValue?, line: Int) {
    self.name = name
    self.type = type
    self.default = `default`
    self.line = line
  }
}

/// Why a transition shader could not be read. Lines are 1-based lines of `file`.
public enum TransitionSourceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A `uniform` declaration that is not `uniform TYPE name[, name…];` with a supported type.
  case malformedUniform(file: String, line: Int, reason: String)
  /// A `= …` default comment whose value is not a literal or constructor of the uniform's type.
  case malformedDefault(file: String, line: Int, name: String, text: String)
  /// No `vec4 transition(vec2 uv)` function.
  case missingTransitionFunction(file: String)

  public var description: String {
    switch self {
    case .malformedUniform(let file, let line, let reason): "\(file):\(line): malformed uniform: \(reason)"
    case .malformedDefault(let file, let line, let name, let text):
      "\(file):\(line): default of uniform '\(name)' is not a value of its type: '\(text)'"
    case .missingTransitionFunction(let file):
      "\(file): no 'vec4 transition(vec2 uv)' function (gl-transitions form)"
    }
  }
}

/// Why a transition pass's parameters do not fit its effect.
public enum TransitionParameterError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No effect of that name; `available` lists those that exist.
  case unknownEffect(String, available: [String])
  /// The effect declares no parameter `name`; `available` lists those it declares, in order.
  case unknownParameter(name: String, effect: String, available: [String])
  /// The value's type is not the uniform's.
  case wrongType(name: String, effect: String, expected: TransitionUniformType, got: TransitionUniformType)

  public var description: String {
    switch self {
    case .unknownEffect(let name, let available):
      "no transition effect '\(name)'; effects: \(available.joined(separator: ", "))"
    case .unknownParameter(let name, let effect, let available):
      "transition '\(effect)' has no parameter '\(name)'; parameters: "
        + (available.isEmpty ? "none" : available.joined(separator: ", "))
    case .wrongType(let name, let effect, let expected, let got):
      "transition '\(effect)': parameter '\(name)' is \(expected.rawValue), got a \(got.rawValue)"
    }
  }
}

/// A transition shader in the gl-transitions form, parsed.
public struct GLTransitionSource: Sendable {
  /// Names the host provides; declarations of them are not parameters.
  public static let reservedNames: Set<String> = ["progress", "ratio", "from", "to"]

  /// The name errors use for the file (a path under `Shaders/`, or a file path).
  public let file: String
  /// The text as written.
  public let text: String
  /// The parameters, in declaration order.
  public let uniforms: [TransitionUniform]

  /// The parameter names, in declaration order.
  public var parameterNames: [String] { uniforms.map(\.name) }

  /// Parses `text`.
  /// - Parameters:
  ///   - text: the shader, in the gl-transitions form.
  ///   - file: the name errors give (a path under `Shaders/`, or the file's path).
  /// - Throws: `TransitionSourceError` naming the line of a malformed uniform or default, or a
  ///   missing `transition` function.
  public init(text: String, file: String) throws(TransitionSourceError) {
    self.file = file
    self.text = text
    let scan = Scan(text)
    var uniforms: [TransitionUniform] = []
    for decl in scan.uniformDeclarations() {
      let line = scan.line(at: decl.start)
      let body = decl.body.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        .map(String.init)
      // uniform [precision] TYPE names
      var words = body[...]
      if let first = words.first, ["lowp", "mediump", "highp"].contains(first) { words = words.dropFirst() }
      guard let typeWord = words.first else {
        throw .malformedUniform(file: file, line: line, reason: "no type")
      }
      let namesText = words.dropFirst().joined(separator: " ")
      let names = namesText.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingWhitespace()
      }
      guard !namesText.isEmpty, names.allSatisfy(Self.isIdentifier) else {
        throw .malformedUniform(
          file: file, line: line,
          reason: "expected 'uniform TYPE name[, name…];', got 'uniform \(decl.body.trimmingWhitespace())'")
      }
      let allReserved = names.allSatisfy { Self.reservedNames.contains($0) }
      guard let type = TransitionUniformType(rawValue: typeWord) else {
        if allReserved { continue }
        throw .malformedUniform(
          file: file, line: line,
          reason:
            "type '\(typeWord)' is not one of \(TransitionUniformType.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      var value: TransitionValue?
      if let comment = decl.defaultComment, type != .sampler2D {
        guard let parsed = Self.parseDefault(comment, type: type) else {
          throw .malformedDefault(file: file, line: line, name: names[0], text: comment)
        }
        value = parsed
      }
      for name in names where !Self.reservedNames.contains(name) {
        uniforms.append(TransitionUniform(name: name, type: type, default: value, line: line))
      }
    }
    guard scan.code.firstMatch(of: #/\bvec4\s+transition\s*\(/#) != nil else {
      throw .missingTransitionFunction(file: file)
    }
    self.uniforms = uniforms
  }

  /// Resolves a pass's parameters against the declared uniforms.
  /// - Parameters:
  ///   - parameters: values by name.
  ///   - effect: the effect's name, for errors.
  /// - Returns: for each uniform in order, the given value or its default (nil: neither; samplers).
  /// - Throws: `TransitionParameterError.unknownParameter` naming the parameters that exist, or
  ///   `.wrongType`.
  public func resolve(_ parameters: [String: TransitionValue], effect: String) throws(TransitionParameterError)
    -> [TransitionValue?]
  {
    for name in parameters.keys.sorted() where !uniforms.contains(where: { $0.name == name }) {
      throw .unknownParameter(name: name, effect: effect, available: uniforms.map(\.name))
    }
    return try uniforms.map { (u: TransitionUniform) throws(TransitionParameterError) -> TransitionValue? in
      guard let given = parameters[u.name] else { return u.default }
      guard given.uniformType == u.type else {
        throw .wrongType(name: u.name, effect: effect, expected: u.type, got: given.uniformType)
      }
      return given
    }
  }

  /// The text rewritten from the GLSL 1.20 / WebGL 1 dialect to GLSL ES 3.00, line for line:
  /// `texture2D` → `texture` (and `texture2DProj`, `texture2DLod`, `textureCube`), a `#version`
  /// line and declarations of only reserved names (`uniform float progress;`, the host's) blanked
  /// out. Comments are left as they are; no line is added or removed.
  /// - Parameter forGLSLES300: false returns the text unchanged.
  public func adapted(forGLSLES300: Bool = true) -> String {
    guard forGLSLES300 else { return text }
    let scan = Scan(text)
    var bytes = Array(text.utf8)
    // Blank declarations of only reserved names (the host declares those), keeping newlines.
    for decl in scan.uniformDeclarations() {
      let words = decl.body.split(whereSeparator: { " \t\r\n,".contains($0) }).map(String.init)
      let names = words.drop { !Self.reservedNames.contains($0) }
      guard !names.isEmpty, names.allSatisfy(Self.reservedNames.contains),
        words.count - names.count <= 2
      else { continue }
      for i in decl.start..<decl.end where bytes[i] != UInt8(ascii: "\n") { bytes[i] = UInt8(ascii: " ") }
    }
    // A `#version` line becomes a comment of the same line (its directive is the host's).
    let code = scan.maskedBytes
    var lineStart = 0
    for i in 0...code.count {
      if i == code.count || code[i] == UInt8(ascii: "\n") {
        var j = lineStart
        while j < i, code[j] == UInt8(ascii: " ") || code[j] == UInt8(ascii: "\t") { j += 1 }
        if j < i, code[j] == UInt8(ascii: "#"), String(decoding: code[j..<i], as: UTF8.self).hasPrefix("#" + "version")
        {
          bytes[j] = UInt8(ascii: "/")
          if j + 1 < i { bytes[j + 1] = UInt8(ascii: "/") } else { bytes[j] = UInt8(ascii: " ") }
        }
        lineStart = i + 1
      }
    }
    // Renamed built-ins, whole identifiers in code only.
    let renames: [String: String] = [
      "texture2D": "texture", "texture2DProj": "textureProj", "texture2DLod": "textureLod",
      "textureCube": "texture",
    ]
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    func isIdent(_ b: UInt8) -> Bool {
      (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }
    while i < bytes.count {
      if isIdent(code[i]) && code[i] == bytes[i] && (i == 0 || !isIdent(code[i - 1])) {
        var j = i
        while j < code.count, isIdent(code[j]), code[j] == bytes[j] { j += 1 }
        let word = String(decoding: bytes[i..<j], as: UTF8.self)
        if let replacement = renames[word], j == code.count || !isIdent(code[j]) {
          out += Array(replacement.utf8)
        } else {
          out += bytes[i..<j]
        }
        i = j
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  // MARK: - Defaults

  static func isIdentifier(_ s: String) -> Bool {
    s.wholeMatch(of: #/[A-Za-z_][A-Za-z0-9_]*/#) != nil
  }

  /// A default comment's value: the text after `=`, a literal or `TYPE(args)` of `type`.
  static func parseDefault(_ comment: String, type: TransitionUniformType) -> TransitionValue? {
    var t = comment.trimmingWhitespace()
    guard t.hasPrefix("=") else { return nil }
    t = String(t.dropFirst()).trimmingWhitespace()
    if t.hasSuffix(";") { t = String(t.dropLast()).trimmingWhitespace() }
    var args: [String]
    if let m = t.wholeMatch(of: #/([A-Za-z0-9_]+)\s*\((.*)\)/#) {
      guard String(m.1) == type.rawValue || (type == .float && m.1 == "float") else { return nil }
      args = m.2.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
      guard args.count == 1 || args.count == type.componentCount else { return nil }
      if args.count == 1 { args = Array(repeating: args[0], count: type.componentCount) }
    } else {
      guard type.componentCount == 1 else { return nil }
      args = [t]
    }
    switch type {
    case .float:
      return number(args[0]).map { .float($0) }
    case .int:
      return integer(args[0]).map { .int($0) }
    case .bool:
      switch args[0] {
      case "true": return .bool(true)
      case "false": return .bool(false)
      default: return nil
      }
    case .vec2:
      let v = args.compactMap(number)
      return v.count == 2 ? .vec2(SIMD2(v[0], v[1])) : nil
    case .vec3:
      let v = args.compactMap(number)
      return v.count == 3 ? .vec3(SIMD3(v[0], v[1], v[2])) : nil
    case .vec4:
      let v = args.compactMap(number)
      return v.count == 4 ? .vec4(SIMD4(v[0], v[1], v[2], v[3])) : nil
    case .ivec2:
      let v = args.compactMap(integer)
      return v.count == 2 ? .ivec2(SIMD2(v[0], v[1])) : nil
    case .sampler2D:
      return nil
    }
  }

  /// A GLSL float or int literal (`0.5`, `.5`, `1.`, `1e-3`, `-2`, an optional `f` suffix), as Float.
  static func number(_ s: String) -> Float? {
    guard s.wholeMatch(of: #/[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fF]?/#) != nil else { return nil }
    var t = s
    if t.hasSuffix("f") || t.hasSuffix("F") { t.removeLast() }
    if t.hasSuffix(".") { t += "0" }
    if let r = t.range(of: ".e") ?? t.range(of: ".E") { t.replaceSubrange(r, with: ".0e") }
    if t.hasPrefix(".") {
      t = "0" + t
    } else if t.hasPrefix("-.") {
      t = "-0" + t.dropFirst()
    } else if t.hasPrefix("+.") {
      t = "0" + t.dropFirst()
    }
    guard let v = Float(t), v.isFinite else { return nil }
    return v
  }

  /// A GLSL decimal int literal that fits Int32.
  static func integer(_ s: String) -> Int32? {
    guard s.wholeMatch(of: #/[+-]?\d+/#) != nil else { return nil }
    return Int32(s.hasPrefix("+") ? String(s.dropFirst()) : s)
  }
}

// MARK: - Scanning

/// The text with comments blanked to spaces (newlines kept), and the uniform declarations found in it.
private struct Scan {
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

extension StringProtocol {
  fileprivate func trimmingWhitespace() -> String {
    func ws(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" }
    guard let first = firstIndex(where: { !ws($0) }), let last = lastIndex(where: { !ws($0) }) else { return "" }
    return String(self[first...last])
  }
}

extension TransitionValue {
  /// A value written as on a command line, read as `type`: "0.5", "3", "true", "0.5,1" or
  /// "vec2(0.5, 1)". nil when the text is not a value of that type.
  public init?(parsing text: String, as type: TransitionUniformType) {
    var body = text.trimmingCharacters(in: .whitespaces)
    if let open = body.firstIndex(of: "("), body.hasSuffix(")") {
      body = String(body[body.index(after: open)..<body.index(before: body.endIndex)])
    }
    let parts = body.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    let floats = parts.compactMap { Float($0) }.filter(\.isFinite)
    switch type {
    case .float:
      guard parts.count == 1, let v = floats.first else { return nil }
      self = .float(v)
    case .int:
      guard parts.count == 1, let v = Int32(parts[0]) else { return nil }
      self = .int(v)
    case .bool:
      guard parts.count == 1, let v = Bool(parts[0]) else { return nil }
      self = .bool(v)
    case .vec2, .vec3, .vec4:
      let n = type.componentCount
      guard floats.count == parts.count, parts.count == n || parts.count == 1 else { return nil }
      let v = parts.count == 1 ? Array(repeating: floats[0], count: n) : floats
      switch type {
      case .vec2: self = .vec2(SIMD2(v[0], v[1]))
      case .vec3: self = .vec3(SIMD3(v[0], v[1], v[2]))
      default: self = .vec4(SIMD4(v[0], v[1], v[2], v[3]))
      }
    case .ivec2:
      let ints = parts.compactMap { Int32($0) }
      guard ints.count == parts.count, parts.count == 2 || parts.count == 1 else { return nil }
      self = .ivec2(parts.count == 1 ? SIMD2(repeating: ints[0]) : SIMD2(ints[0], ints[1]))
    case .sampler2D:
      return nil
    }
  }
}
