// The programs that execute the `.transition` passes of a RenderList: effects/effect_quad.vert
// with transitions/transition_wrapper.frag hosting one effect file in the gl-transitions form
// (transitions/NAME.glsl for the built-ins, compiled at start-up; any file for tools and tests).
//
// The effect's text, adapted to GLSL ES 3.00 by GLTransitionSource (line for line), replaces the
// wrapper's marker line after `#line 1 1`, so the driver numbers it as the effect file; then comes
// its initializer function, numbered as the marker line except for the assignments, which carry
// `#line`s of the effect file's lines they were written on. The
// wrapper's own lines are numbered from `wrapperLineOffset` + their line (a `#line` after the
// version directive, another after the effect): Mesa reports no source-string number, so a
// reported line at or above the offset is the wrapper's and any other is the effect file's. Texture units: 0 the from-surface, 1 the to-surface, 4… the effect's own sampler2D
// uniforms (never bound here: they read as an incomplete texture).

import CEGL
import Foundation
import LayerKitRender

struct TransitionProgram {
  static let vertexFile = "effects/effect_quad.vert"
  static let wrapperFile = "transitions/transition_wrapper.frag"
  /// The wrapper line the effect's text replaces.
  static let marker = "// LAYERKIT_TRANSITION_SOURCE"
  /// Added to the wrapper's line numbers in the composed text, far above any effect file's lines.
  static let wrapperLineOffset = 100_000
  /// The first texture unit of an effect's own sampler2D uniforms (0–3 are TextureUnit's).
  static let firstExtraUnit = 4
  /// How many sampler2D parameters an effect may have (TextureUnit.extra0…extra3).
  static let maxExtraTextures = 4

  let program: ProgramHandle
  let source: GLTransitionSource
  private let progress: GLint
  private let ratio: GLint
  private let bounds: GLint
  private let outputOrigin: GLint
  /// One location per `source.uniforms` entry (-1 where the compiler removed it).
  private let locations: [GLint]

  /// A built-in effect: `transitions/<effect.file>`.
  init(context: GLContext, effect: TransitionEffect) throws(GLError) {
    let path = "transitions/" + effect.file
    guard let text = try? bundledShaderText(path) else { throw .resourceMissing(path) }
    try self.init(context: context, file: path, text: text)
  }

  /// Any effect text in the gl-transitions form; `file` names it in errors.
  init(context: GLContext, file: String, text: String) throws(GLError) {
    let source: GLTransitionSource
    do {
      source = try GLTransitionSource(text: text, file: file)
    } catch {
      let line: Int? =
        switch error {
        case .malformedUniform(_, let line, _), .malformedDefault(_, let line, _, _): line
        case .missingTransitionFunction: nil
        }
      throw .shaderCompile(
        file: file, stage: .fragment, line: line, message: error.description,
        excerpt: ShaderLog.excerpt(text, line: line))
    }
    guard let wrapper = try? bundledShaderText(Self.wrapperFile) else {
      throw .resourceMissing(Self.wrapperFile)
    }
    guard let vertex = try? bundledShaderText(Self.vertexFile) else { throw .resourceMissing(Self.vertexFile) }
    let composed = try Self.compose(
      wrapper: wrapper, effect: source.adapted(forGLSLES300: true),
      initializers: source.initializerFunction(sourceString: 1))
    let program = try Self.link(
      context: context, vertex: vertex, fragment: composed, effect: source, wrapper: wrapper)
    self.program = program
    self.source = source
    func location(_ name: String) -> GLint { context.uniformLocation(program, name) }
    progress = location("progress")
    ratio = location("ratio")
    bounds = location("u_bounds")
    outputOrigin = location("u_outputOrigin")
    locations = source.uniforms.map { location($0.name) }
    do {
      try context.useProgram(program)
      glUniform1i(location("from"), GLint(TextureUnit.paint.rawValue))
      glUniform1i(location("to"), GLint(TextureUnit.mask.rawValue))
      var unit = Self.firstExtraUnit
      for (u, l) in zip(source.uniforms, locations) where u.type == .sampler2D {
        glUniform1i(l, GLint(unit))
        unit += 1
      }
      try context.check("glUniform1i (transition samplers)")
    } catch {
      context.delete(program)
      throw error
    }
  }

  /// The wrapper with its marker line replaced by the effect's text and then its initializer
  /// function (`GLTransitionSource.initializerFunction`, made for source string 1), between
  /// `#line` directives.
  static func compose(wrapper: String, effect: String, initializers: String) throws(GLError) -> String {
    var lines = wrapper.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let m = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == marker }),
      let v = lines.firstIndex(where: {
        $0.trimmingCharacters(in: .whitespaces).hasPrefix(ShaderSource.versionDirective)
      }), v < m
    else {
      throw .resourceMissing("\(wrapperFile): no version directive before a '\(marker)' line")
    }
    // GLSL ES 3.00 §3.4: after `#line n s` the next line is n of source string s.
    let o = wrapperLineOffset
    lines.replaceSubrange(
      m...m, with: ["#line 1 1", effect, "#line \(o + m + 1) 0", initializers, "#line \(o + m + 2) 0"])
    lines.insert("#line \(o + v + 2) 0", at: v + 1)
    return lines.joined(separator: "\n")
  }

  /// Sets the pass's uniforms (`values` from `source.resolve`); the program must be current.
  /// Binding the surfaces is the caller's.
  func setPass(_ pass: TransitionPass, values: [TransitionValue?], context: GLContext) throws(GLError) {
    let b = pass.bounds
    glUniform1f(progress, pass.progress)
    glUniform1f(ratio, Float(b.width) / Float(b.height))
    glUniform4f(bounds, Float(b.x), Float(b.y), Float(b.width), Float(b.height))
    glUniform2f(outputOrigin, Float(b.x), Float(b.y))
    for (i, u) in source.uniforms.enumerated() where u.type != .sampler2D {
      let l = locations[i]
      // A uniform with neither a value nor a default is zero, whatever an earlier pass set.
      switch values[i] ?? Self.zero(u.type) {
      case .float(let v): glUniform1f(l, v)
      case .int(let v): glUniform1i(l, GLint(v))
      case .bool(let v): glUniform1i(l, v ? 1 : 0)
      case .vec2(let v): glUniform2f(l, v.x, v.y)
      case .vec3(let v): glUniform3f(l, v.x, v.y, v.z)
      case .vec4(let v): glUniform4f(l, v.x, v.y, v.z, v.w)
      case .ivec2(let v): glUniform2i(l, GLint(v.x), GLint(v.y))
      case .image: break  // bound to its texture unit by the caller
      }
    }
    try context.check("glUniform* (transition \(pass.effect))")
  }

  static func zero(_ type: TransitionUniformType) -> TransitionValue {
    switch type {
    case .float, .sampler2D: .float(0)
    case .int: .int(0)
    case .bool: .bool(false)
    case .vec2: .vec2(.zero)
    case .vec3: .vec3(.zero)
    case .vec4: .vec4(.zero)
    case .ivec2: .ivec2(.zero)
    }
  }

  // MARK: - Compiling with two source strings

  private static func link(
    context: GLContext, vertex: String, fragment: String, effect: GLTransitionSource, wrapper: String
  ) throws(GLError) -> ProgramHandle {
    let vs = try compile(vertex, stage: .vertex) { _, line in (vertexFile, vertex, line) }
    defer { glDeleteShader(vs) }
    let fs = try compile(fragment, stage: .fragment) { sourceString, line in
      guard let line else { return (effect.file, effect.text, nil) }
      if sourceString != 1 && line >= wrapperLineOffset { return (wrapperFile, wrapper, line - wrapperLineOffset) }
      return (effect.file, effect.text, line)
    }
    defer { glDeleteShader(fs) }
    let files = [vertexFile, "\(wrapperFile) + \(effect.file)"]
    let name = glCreateProgram()
    guard name != 0 else { throw .programLink(files: files, message: "glCreateProgram failed") }
    let program = ProgramHandle(name: name)
    glAttachShader(name, vs)
    glAttachShader(name, fs)
    glLinkProgram(name)
    var linked: GLint = 0
    glGetProgramiv(name, GLenum(GL_LINK_STATUS), &linked)
    guard linked == GL_TRUE else {
      let log = GLContext.infoLog(name, program: true)
      context.delete(program)
      throw .programLink(
        files: files,
        message: log.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces))
    }
    do {
      try context.check("glLinkProgram (transition \(effect.file))")
    } catch {
      context.delete(program)
      throw error
    }
    return program
  }

  /// Compiles one shader; on failure `origin` maps the log's source string and line to the file,
  /// its text and its own line.
  private static func compile(
    _ text: String, stage: ShaderStage, origin: (Int, Int?) -> (file: String, text: String, line: Int?)
  ) throws(GLError) -> GLuint {
    let shader = glCreateShader(GLenum(stage == .vertex ? GL_VERTEX_SHADER : GL_FRAGMENT_SHADER))
    guard shader != 0 else {
      throw .shaderCompile(
        file: origin(0, nil).file, stage: stage, line: nil, message: "glCreateShader failed", excerpt: "")
    }
    text.withCString { cString in
      var pointer: UnsafePointer<GLchar>? = cString
      glShaderSource(shader, 1, &pointer, nil)
    }
    glCompileShader(shader)
    var compiled: GLint = 0
    glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
    guard compiled == GL_TRUE else {
      let log = GLContext.infoLog(shader, program: false)
      glDeleteShader(shader)
      let entry = firstErrorEntry(log)
      let (line, message) = entry.map(ShaderLog.parse) ?? (nil, "no info log")
      let place = origin(entry.flatMap(sourceString) ?? 0, line)
      throw .shaderCompile(
        file: place.file, stage: stage, line: place.line, message: message,
        excerpt: ShaderLog.excerpt(place.text, line: place.line))
    }
    return shader
  }

  /// The first log line that reports an error (as ShaderLog.firstError chooses it).
  static func firstErrorEntry(_ log: String) -> String? {
    let lines = log.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    return lines.first { $0.range(of: "error", options: .caseInsensitive) != nil } ?? lines.first
  }

  /// The source string number of a log line: Mesa `1:12(3): …`, NVIDIA `1(12) : …`,
  /// `ERROR: 1:12: …`.
  static func sourceString(_ entry: String) -> Int? {
    if let m = entry.firstMatch(of: #/^\s*(?:ERROR|WARNING)\s*:\s*(\d+):\d+/#) { return Int(m.1) }
    if let m = entry.firstMatch(of: #/^\s*(\d+)[:(]\d+/#) { return Int(m.1) }
    return nil
  }

  // MARK: - Checking passes before any GL call

  /// The values of every transition pass's uniforms, resolved against its program.
  /// - Throws: `TransitionParameterError` (unknown effect or parameter, wrong type).
  static func check(_ list: RenderList, programs: [String: TransitionProgram]) throws(TransitionParameterError) {
    for op in list.ops {
      guard case .transition(let pass) = op else { continue }
      guard let program = programs[pass.effect] else {
        throw .unknownEffect(pass.effect, available: programs.keys.sorted())
      }
      _ = try program.source.resolve(pass.parameters, effect: pass.effect)
    }
  }
}

/// The text of a shipped shader file (LayerKitShaders), through the locator the other programs use.
private func bundledShaderText(_ path: String) throws -> String {
  guard let url = ShaderBundleLocator.url(path) else { throw GLError.resourceMissing(path) }
  return try String(contentsOf: url, encoding: .utf8)
}
