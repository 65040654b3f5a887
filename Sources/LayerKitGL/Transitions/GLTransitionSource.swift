// Reading a transition shader written in the gl-transitions form: one `vec4 transition(vec2 uv)`,
// getFromColor / getToColor, `progress`, `ratio`, and parameters as uniforms whose defaults live
// in comments (`uniform vec2 direction; // = vec2(-1.0, 0.0)`). Pure text work, no GL: the GPU
// backend hosts the adapted text in Shaders/transitions/transition_wrapper.frag, and a test reads
// the built-in files here to hold their defaults equal to TransitionEffects'.
//
// The form's dialect is GLSL 1.20 / WebGL 1 (`texture2D`, no precision statements); the backend
// compiles GLSL ES 3.00. `adapted(forGLSLES300:)` rewrites the text in place, token for token on
// the same lines, so a driver's line numbers are the user's. What GLSL ES 3.00 refuses and those
// hosts took is rewritten too: the initializers of non-`const` file-scope variables (GLSL ES 3.00
// takes only constant expressions there; authors read `progress` and uniforms) move into a
// function the host calls first (`initializerFunction`, each assignment under a `#line` of its
// own line), and a user function named like a later built-in (`texture`) is renamed with every
// use of its name.


import LayerKitRender

/// A transition shader in the gl-transitions form, parsed.
public struct GLTransitionSource: Sendable {
  /// The preprocessor directives of GLSL ES 3.00 (§3.4), by keyword ("" is the null directive).
  static let directives: Set<String> = [
    "", "define", "undef", "if", "ifdef", "ifndef", "else", "elif", "endif", "error", "pragma",
    "extension", "version", "line",
  ]

  /// Functions the host (transition_wrapper.frag) defines around the file.
  public static let hostFunctions: Set<String> = ["main", "getFromColor", "getToColor"]

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
  ///   - expandsIncludes: whether the host expands the file's `#include` lines (the built-in
  ///     files of `Shaders/`); a user's file may hold none.
  /// - Throws: `TransitionSourceError` naming the line of a malformed uniform or default, or of a
  ///   directive GLSL ES 3.00 does not have; or a missing `transition` function.
  public init(text: String, file: String, expandsIncludes: Bool = false) throws(TransitionSourceError) {
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
        // Quoted on one line and cut short: without its ';' the declaration runs into the code.
        let body = decl.body.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let shown = body.count <= 60 ? body : body.prefix(57) + "…"
        throw .malformedUniform(
          file: file, line: line, reason: "expected 'uniform TYPE name[, name…];', got 'uniform \(shown)'")
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
    // Only GLSL ES 3.00's own directives (§3.4). A driver that takes `#include` resolves it
    // against whatever it has seen (Mesa answers from its shader cache once it holds the text),
    // so the same file would render on one machine and fail on another: a gl-transitions shader
    // is one self-contained file, and anything else is refused here, before GL sees it.
    for (line, keyword) in scan.directives() {
      if !Self.directives.contains(keyword) && !(expandsIncludes && keyword == "include") {
        throw .unsupportedDirective(file: file, line: line, directive: keyword)
      }
    }
    // The functions the host defines around the file: a second definition would be reported at
    // the host's own lines, which say nothing to the file's author.
    for definition in scan.fileScope().definitions where Self.hostFunctions.contains(definition.name) {
      throw .hostFunction(file: file, line: scan.line(at: definition.offset), name: definition.name)
    }
    guard scan.code.firstMatch(of: #/\bvec4\s+transition\s*\(/#) != nil else {
      throw .missingTransitionFunction(file: file)
    }
    self.uniforms = uniforms
  }

  /// Resolves a pass's parameters against the declared uniforms (`[TransitionUniform].resolve`).
  public func resolve(_ parameters: [String: TransitionValue], effect: String) throws(TransitionParameterError)
    -> [TransitionValue?]
  {
    try uniforms.resolve(parameters, effect: effect)
  }

  /// The name of the function `initializerFunction(sourceString:)` defines; the host's main()
  /// calls it before `transition`.
  public static let initializerFunctionName = "lk_init_globals"

  /// The prefix of the names a user function named like a GLSL ES 3.00 built-in is renamed to.
  public static let renamedFunctionPrefix = "lk_user_"

  /// Built-in functions of GLSL ES 3.00 that GLSL 1.20 and WebGL 1 (GLSL ES 1.00) do not have, so
  /// that a shader written for those may define a function of the name (`vec4 texture(vec2 p)`).
  /// GLSL ES 3.00 forbids redefining or overloading a built-in (§6.1), so the adaptation renames
  /// such a function, and every use of its name, `lk_user_NAME`.
  static let laterBuiltInFunctions: Set<String> = [
    "texture", "textureProj", "textureLod", "textureOffset", "textureProjOffset", "textureLodOffset",
    "textureProjLod", "textureProjLodOffset", "textureGrad", "textureGradOffset", "textureProjGrad",
    "textureProjGradOffset", "textureSize", "texelFetch", "texelFetchOffset",
    "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "trunc", "round", "roundEven", "modf", "isnan", "isinf",
    "floatBitsToInt", "floatBitsToUint", "intBitsToFloat", "uintBitsToFloat", "packSnorm2x16",
    "unpackSnorm2x16", "packUnorm2x16", "unpackUnorm2x16", "packHalf2x16", "unpackHalf2x16",
    "determinant", "inverse", "transpose", "outerProduct",
  ]

  /// The text rewritten from the GLSL 1.20 / WebGL 1 dialect to GLSL ES 3.00, line for line:
  /// `texture2D` → `texture` (and `texture2DProj`, `texture2DLod`, `textureCube`), a `#version`
  /// line and declarations of only reserved names (`uniform float progress;`, the host's) blanked
  /// out; a user function named like a GLSL ES 3.00 built-in (`laterBuiltInFunctions`) renamed
  /// `lk_user_NAME` with every use of the name; and the `= initializer` of each non-`const`
  /// file-scope variable blanked (`float d = min(progress, 0.5);` → `float d;`), which
  /// `initializerFunction(sourceString:)` assigns instead. Comments are left as they are; no line
  /// is added or removed.
  /// - Parameter forGLSLES300: false returns the text unchanged.
  public func adapted(forGLSLES300: Bool = true) -> String {
    guard forGLSLES300 else { return text }
    let scan = Scan(text)
    let scope = scan.fileScope()
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
    // Initializers of file-scope variables: GLSL ES 3.00 takes only constant expressions there
    // (§4.3), the WebGL 1 and GLSL 1.20 hosts of the form any. The declaration stays where it is
    // (uses before and after see the same variable); initializerFunction assigns the value.
    // Comments in an initializer stay (its code is in the function now).
    for global in scope.initializers {
      for i in global.removed where scan.maskedBytes[i] == bytes[i] && bytes[i] != UInt8(ascii: "\n") {
        bytes[i] = UInt8(ascii: " ")
      }
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
    let renamed = Self.renamingIdentifiers(bytes, code: code, renames: identifierRenames(scope))
    return String(decoding: renamed, as: UTF8.self)
  }

  /// GLSL ES 3.00 text that defines `void lk_init_globals()`: the initializers `adapted` took out
  /// of file-scope declarations, assigned in source order, each under the preprocessor
  /// conditionals it lay in and a `#line LINE sourceString` so that a driver reports an error in
  /// it on the user's own line. It goes after the adapted text (the initializers may call any of
  /// its functions); with no such initializer its body is empty.
  /// - Parameter sourceString: the source string number the adapted text is compiled as.
  public func initializerFunction(sourceString: Int) -> String {
    let scan = Scan(text)
    let scope = scan.fileScope()
    let renames = identifierRenames(scope)
    var lines = ["void \(Self.initializerFunctionName)() {"]
    for global in scope.initializers {
      let expression = String(
        decoding: Self.renamingIdentifiers(
          Array(global.expression.utf8), code: Array(global.expression.utf8), renames: renames),
        as: UTF8.self)
      lines += global.conditionals.flatMap { $0 }
      lines += ["#line \(global.line) \(sourceString)", "\(global.name) = \(expression);"]
      lines += global.conditionals.map { _ in "#endif" }
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  /// The identifiers the adaptation replaces: the GLSL 1.20 texture functions by their GLSL ES
  /// 3.00 names, and the user's functions named like GLSL ES 3.00 built-ins by `lk_user_NAME`
  /// (so that the user's `texture2D(…)`, now `texture(…)`, still means the built-in).
  private func identifierRenames(_ scope: Scan.FileScope) -> [String: String] {
    var renames: [String: String] = [
      "texture2D": "texture", "texture2DProj": "textureProj", "texture2DLod": "textureLod",
      "textureCube": "texture",
    ]
    for name in scope.functionNames.intersection(Self.laterBuiltInFunctions) {
      renames[name] = Self.renamedFunctionPrefix + name
    }
    return renames
  }

  /// `bytes` with every whole identifier of code that `renames` names replaced. `code` is `bytes`
  /// with comments blanked (or otherwise rewritten): an identifier counts only where the two agree.
  private static func renamingIdentifiers(_ bytes: [UInt8], code: [UInt8], renames: [String: String]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      if isIdentifierByte(code[i]) && code[i] == bytes[i] && (i == 0 || !isIdentifierByte(code[i - 1])) {
        var j = i
        while j < code.count, isIdentifierByte(code[j]), code[j] == bytes[j] { j += 1 }
        let word = String(decoding: bytes[i..<j], as: UTF8.self)
        if let replacement = renames[word], j == code.count || !isIdentifierByte(code[j]) {
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
    return out
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
    // The value ends at the first `;`; authors go on with a note after it
    // (`// = 0.4 ; // if 0.0, the effect is off`).
    if let semicolon = t.firstIndex(of: ";") { t = String(t[..<semicolon]).trimmingWhitespace() }
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
      // WebGL hosts set a bool uniform from a number, so authors write `// = 1` as often as `true`.
      switch args[0] {
      case "true", "1": return .bool(true)
      case "false", "0": return .bool(false)
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
private struct Reader {
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
private func isIdentifierByte(_ b: UInt8) -> Bool {
  (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
}

/// White space within a line.
private func isSpace(_ b: UInt8) -> Bool {
  b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\r") || b == 0x0B || b == 0x0C
}

extension StringProtocol {
  fileprivate func trimmingWhitespace() -> String {
    func ws(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" }
    guard let first = firstIndex(where: { !ws($0) }), let last = lastIndex(where: { !ws($0) }) else { return "" }
    return String(self[first...last])
  }
}
