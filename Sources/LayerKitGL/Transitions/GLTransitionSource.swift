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
