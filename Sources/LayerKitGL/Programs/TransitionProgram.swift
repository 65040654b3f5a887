// The programs that execute the `.transition` passes of a RenderList: effects/effect_quad.vert
// with transitions/transition_wrapper.frag hosting one effect file in the gl-transitions form
// (transitions/NAME.glsl for the built-ins, compiled at their first use; any file for tools and tests).
//
// The effect's text, adapted to GLSL ES 3.00 by GLTransitionSource (line for line), replaces the
// wrapper's marker line as a piece of the ComposedShader of its own, numbered as the effect file;
// then comes its initializer function, numbered as the marker line except for the assignments,
// which carry `#line`s of the effect file's lines they were written on. A built-in effect's
// `#include` lines are expanded; a user's file is compiled as written. Texture units: 0 the
// from-surface, 1 the to-surface, 4… the effect's own sampler2D uniforms (never bound here: they
// read as an incomplete texture).

import CEGL
import LayerKitRender

struct TransitionProgram {
  static let vertexFile = "effects/effect_quad.vert"
  static let wrapperFile = "transitions/transition_wrapper.frag"
  /// The wrapper line the effect's text replaces.
  static let marker = "// LAYERKIT_TRANSITION_SOURCE"
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
  private let checkCoordinates: GLint
  /// One location per `source.uniforms` entry (-1 where the compiler removed it).
  private let locations: [GLint]

  /// A built-in effect: `transitions/<effect.file>`, its includes expanded, and the wrapper's
  /// LK_EXACT_ENDS defined when the catalogue says so (`TransitionEffect.exactEnds`).
  init(context: GLContext, effect: TransitionEffect) throws(GLError) {
    let file = try ShaderSource.bundled("transitions/" + effect.file)
    try self.init(
      context: context, effect: file, source: Self.parse(file, expandsIncludes: true), includes: true,
      defines: effect.exactEnds ? [("LK_EXACT_ENDS", "1")] : [])
  }

  /// Any effect text in the gl-transitions form, compiled as written; `file` names it in errors.
  init(context: GLContext, file: String, text: String) throws(GLError) {
    let effect = ShaderSource(file: file, text: text)
    try self.init(context: context, source: Self.parse(effect, expandsIncludes: false))
  }

  /// A user's effect already parsed (as a command parses a SPEC once), compiled as written.
  init(context: GLContext, source: GLTransitionSource) throws(GLError) {
    try self.init(
      context: context, effect: ShaderSource(file: source.file, text: source.text), source: source, includes: false,
      defines: [])
  }

  /// `effect` parsed in the gl-transitions form; a parse error becomes a compile error at its line.
  static func parse(_ effect: ShaderSource, expandsIncludes: Bool) throws(GLError) -> GLTransitionSource {
    do {
      return try GLTransitionSource(text: effect.text, file: effect.file, expandsIncludes: expandsIncludes)
    } catch {
      let line: Int? =
        switch error {
        case .malformedUniform(_, let line, _), .malformedDefault(_, let line, _, _),
          .unsupportedDirective(_, let line, _), .hostFunction(_, let line, _):
          line
        case .missingTransitionFunction: nil
        }
      throw .shaderCompile(
        file: effect.file, stage: .fragment, line: line, message: error.description,
        excerpt: ShaderLog.excerpt(effect.text, line: line))
    }
  }

  private init(
    context: GLContext, effect: ShaderSource, source: GLTransitionSource, includes: Bool, defines: [(String, String)]
  ) throws(GLError) {
    let program: ProgramHandle
    do {
      program = try context.makeProgram(
        vertex: ComposedShader(.bundled(Self.vertexFile), stage: .vertex),
        fragment: Self.compose(effect, source: source, includes: includes, defines: defines))
    } catch .shaderCompile(let file, let stage, let line, let message, let excerpt)
      where !includes && file != effect.file
    {
      // A user's effect broke the host around it (a wrong signature, an unclosed brace, its own
      // main): the error stays at the host's line, and names the user's file, the cause.
      throw .shaderCompile(
        file: file, stage: stage, line: line,
        message: "\(message) (in the host around \(effect.file): check its transition(vec2) function, its "
          + "braces, and names the host defines: main, getFromColor, getToColor)",
        excerpt: excerpt)
    }
    self.program = program
    self.source = source
    func location(_ name: String) -> GLint { context.uniformLocation(program, name) }
    progress = location("progress")
    ratio = location("ratio")
    bounds = location("u_bounds")
    outputOrigin = location("u_outputOrigin")
    checkCoordinates = location("lk_checkCoordinates")
    locations = source.uniforms.map { location($0.name) }
    // from and to, then the effect's own sampler2D parameters on units extra0… in order.
    let extras = zip(source.uniforms, locations).filter { $0.0.type == .sampler2D }.enumerated().map {
      (location: $0.element.1, unit: Self.firstExtraUnit + $0.offset)
    }
    try context.setSamplerUnits(
      program,
      [(location("from"), TextureUnit.paint.rawValue), (location("to"), TextureUnit.mask.rawValue)] + extras)
  }

  /// The wrapper (with `defines`) with its marker line replaced by the effect's adapted text (a
  /// piece of its own, its includes expanded when `includes`) and then its initializer function.
  static func compose(
    _ effect: ShaderSource, source: GLTransitionSource, includes: Bool, defines: [(String, String)] = []
  ) throws(GLError) -> ComposedShader {
    var inserted = false
    var shader = try ComposedShader(.bundled(wrapperFile), stage: .fragment, defines: defines, marker: marker) {
      composed, markerLine throws(GLError) in
      let piece = try composed.append(effect, code: source.adapted(forGLSLES300: true), includes: includes)
      composed.primaryPiece = piece
      // Its `#line LINE piece`s name lines of the effect file: numbered as the piece's lines.
      let initializers = source.initializerFunction(sourceString: piece).split(
        separator: "\n", omittingEmptySubsequences: false
      ).map {
        let words = $0.split(separator: " ")
        guard words.count == 3, words[0] == "#line", words[2] == "\(piece)", let line = Int(words[1]) else {
          return String($0)
        }
        return composed.lineDirective(line, piece: piece)
      }
      composed.append(lines: initializers, numberedFrom: markerLine, of: 0)
      inserted = true
    }
    guard inserted else { throw .resourceMissing("\(wrapperFile): no '\(marker)' line") }
    shader.name = "\(wrapperFile) + \(effect.file)"
    return shader
  }

  /// Sets the pass's uniforms (`values` from `source.resolve`); the program must be current.
  /// Binding the surfaces is the caller's.
  /// - Parameter probe: for the registration check only, never a frame: 1 or 2, the value an
  ///   image read at a coordinate that is not a finite number gives (`lk_probeColor` in the
  ///   wrapper); 0 for a frame.
  func setPass(
    _ pass: TransitionPass, values: [TransitionValue?], probe: Int32 = 0, context: GLContext
  ) throws(GLError) {
    let b = pass.bounds
    glUniform1i(checkCoordinates, probe)
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

  // MARK: - Checking passes before any GL call

  /// The values of every transition pass's uniforms, resolved against its program.
  /// - Throws: `TransitionParameterError` (unknown effect or parameter, wrong type).
  static func check(_ list: RenderList, programs: [String: TransitionProgram]) throws(TransitionParameterError) {
    for op in list.ops {
      guard case .transition(let pass) = op else { continue }
      guard let program = programs[pass.effect] else {
        // The built-ins not used yet have no program but are there all the same.
        throw .unknownEffect(pass.effect, available: Set(programs.keys).union(TransitionEffects.all.keys).sorted())
      }
      _ = try program.source.resolve(pass.parameters, effect: pass.effect)
    }
  }
}
