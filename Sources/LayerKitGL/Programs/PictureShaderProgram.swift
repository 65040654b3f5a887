// The program of a picture shader (ShaderPainter: editly's `gl` layer): a user's fragment shader
// in GLSL ES 1.00 as WebGL 1 compiles it (`gl_FragColor`, `gl_FragCoord`, the uniforms
// `resolution` and `time`), with layer/picture_shader.vert or the user's own vertex shader,
// drawn as a triangle fan over the whole picture into the attribute `position`.
//
// The files are compiled as written: composed with no defines, so ComposedShader adds no version
// directive and no `#line` (a file without a version directive stays GLSL ES 1.00, the language
// WebGL 1 compiles), and with no includes, which WebGL 1 does not have (an include line is
// refused at its line before GL sees the file, as GLTransitionSource refuses one). Errors name
// the file, the stage and the line, as every other program's do.

import CEGL
import Foundation
import LayerKitRender

struct PictureShaderProgram {
  /// LayerKit's own vertex shader, the one editly uses when the layer names none.
  static let vertexFile = "layer/picture_shader.vert"
  /// The attribute the quad's corners go into, and the uniforms a picture shader may declare.
  static let positionName = "position"
  static let resolutionName = "resolution"
  static let timeName = "time"

  let program: ProgramHandle
  /// The location of the vec2 attribute `position`.
  let position: GLuint
  /// The location of `resolution` (vec2) and `time` (float); -1 where the shaders do not use them.
  let resolution: GLint
  let time: GLint

  /// Compiles and links the picture shader of `fragment` and `vertex` (nil: LayerKit's own).
  /// - Throws: `GLError.resourceMissing` for a file that does not exist or cannot be read,
  ///   `.shaderCompile` naming the file, the stage and the line (also for a file larger than
  ///   `GLRenderer.maxShaderSize`, not UTF-8 text, with an include line, a vertex shader with no
  ///   active vec2 attribute `position`, or `resolution` / `time` of another type),
  ///   `.programLink`.
  init(context: GLContext, fragment: URL, vertex: URL?) throws(GLError) {
    let fragmentSource = try Self.load(fragment, stage: .fragment)
    let vertexSource: ShaderSource
    if let vertex {
      vertexSource = try Self.load(vertex, stage: .vertex)
    } else {
      vertexSource = try .bundled(Self.vertexFile)
    }
    let program = try context.makeProgram(
      vertex: ComposedShader(vertexSource, stage: .vertex),
      fragment: ComposedShader(fragmentSource, stage: .fragment))
    do throws(GLError) {
      let attributes = Self.active(program, attributes: true)
      guard let position = attributes[Self.positionName], position == GLenum(GL_FLOAT_VEC2) else {
        let declared = attributes[Self.positionName].map { " (it is \(Self.typeName($0)))" } ?? ""
        throw Self.declarationError(
          vertexSource, stage: .vertex, name: Self.positionName,
          message:
            "error: no active vec2 attribute `position`\(declared): the picture's corners go into it, "
            + "and the vertex position is made from it")
      }
      let uniforms = Self.active(program, attributes: false)
      for (name, type) in [(Self.resolutionName, GLenum(GL_FLOAT_VEC2)), (Self.timeName, GLenum(GL_FLOAT))] {
        guard let declared = uniforms[name], declared != type else { continue }
        // Charged to the shader that declares it (the fragment shader when both do).
        let (source, stage): (ShaderSource, ShaderStage) =
          Self.declarationLine(fragmentSource, name) == nil && Self.declarationLine(vertexSource, name) != nil
          ? (vertexSource, .vertex) : (fragmentSource, .fragment)
        throw Self.declarationError(
          source, stage: stage, name: name,
          message:
            "error: uniform `\(name)` is \(Self.typeName(declared)); a picture shader's is \(Self.typeName(type))")
      }
      let location = glGetAttribLocation(program.name, Self.positionName)
      guard location >= 0 else {
        throw Self.declarationError(
          vertexSource, stage: .vertex, name: Self.positionName, message: "error: attribute `position` has no location")
      }
      self.position = GLuint(location)
      resolution = context.uniformLocation(program, Self.resolutionName)
      time = context.uniformLocation(program, Self.timeName)
      try context.check("glGetAttribLocation (picture shader)")
    } catch {
      context.delete(program)
      throw error
    }
    self.program = program
  }

  /// Sets `resolution` and `time` where the program uses them; the program must be current.
  func set(width: Int, height: Int, time t: Float, context: GLContext) throws(GLError) {
    if resolution >= 0 { glUniform2f(resolution, Float(width), Float(height)) }
    if time >= 0 { glUniform1f(time, t) }
    try context.check("glUniform* (picture shader)")
  }

  // MARK: - Files

  /// A user's shader file, at most `GLRenderer.maxShaderSize` bytes of UTF-8 text with no
  /// include line.
  static func load(_ url: URL, stage: ShaderStage) throws(GLError) -> ShaderSource {
    let path = url.path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
      let handle = FileHandle(forReadingAtPath: path)
    else { throw .resourceMissing(path) }
    defer { try? handle.close() }
    // Bounded before it reaches the compiler (a 1.2 MB one-line shader crashed Mesa's), and
    // read no further than that, whatever the file claims its size is.
    let data: Data
    do {
      data = try handle.read(upToCount: GLRenderer.maxShaderSize + 1) ?? Data()
    } catch {
      throw .resourceMissing(path)
    }
    guard data.count <= GLRenderer.maxShaderSize else {
      throw .shaderCompile(
        file: path, stage: stage, line: nil,
        message: "error: more than \(GLRenderer.maxShaderSize) bytes; a picture shader file is at most that",
        excerpt: "")
    }
    guard let text = String(data: data, encoding: .utf8), !text.contains("\0") else {
      throw .shaderCompile(file: path, stage: stage, line: nil, message: "error: not UTF-8 text", excerpt: "")
    }
    // ComposedShader would expand an include line (from Shaders/ or beside the file), which
    // WebGL 1 does not: refused, comments included, so the driver sees the file as written.
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let includeLine =
      Scan(text).directives().first { $0.keyword == "include" }?.line
      ?? lines.firstIndex { ShaderSource.includePath(String($0)) != nil }.map { $0 + 1 }
    if let line = includeLine {
      throw .shaderCompile(
        file: path, stage: stage, line: line,
        message: "error: include directives are not GLSL ES 1.00 (WebGL 1 has none); write the file whole",
        excerpt: ShaderLog.excerpt(text, line: line))
    }
    return ShaderSource(file: path, text: text)
  }

  // MARK: - Checks after linking

  /// The program's active attributes (or uniforms) by name, with their GL types.
  private static func active(_ program: ProgramHandle, attributes: Bool) -> [String: GLenum] {
    var count: GLint = 0
    var longest: GLint = 0
    glGetProgramiv(program.name, GLenum(attributes ? GL_ACTIVE_ATTRIBUTES : GL_ACTIVE_UNIFORMS), &count)
    glGetProgramiv(
      program.name, GLenum(attributes ? GL_ACTIVE_ATTRIBUTE_MAX_LENGTH : GL_ACTIVE_UNIFORM_MAX_LENGTH), &longest)
    var result: [String: GLenum] = [:]
    var name = [GLchar](repeating: 0, count: Int(max(longest, 1)) + 1)
    for i in 0..<max(count, 0) {
      var length: GLsizei = 0
      var size: GLint = 0
      var type: GLenum = 0
      if attributes {
        glGetActiveAttrib(program.name, GLuint(i), GLsizei(name.count), &length, &size, &type, &name)
      } else {
        glGetActiveUniform(program.name, GLuint(i), GLsizei(name.count), &length, &size, &type, &name)
      }
      let text = String(decoding: name.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      result[text] = type
    }
    return result
  }

  /// The first line of `source`, outside comments, holding the word `uniform` or `attribute`
  /// and the word `name`.
  private static func declarationLine(_ source: ShaderSource, _ name: String) -> Int? {
    let lines = Scan(source.text).code.split(separator: "\n", omittingEmptySubsequences: false)
    func words(_ line: Substring) -> Set<Substring> {
      Set(line.split { !($0.isLetter || $0.isNumber || $0 == "_") })
    }
    return lines.firstIndex {
      let w = words($0)
      return w.contains(Substring(name)) && (w.contains("uniform") || w.contains("attribute"))
    }.map { $0 + 1 }
  }

  /// A compile error at the line declaring `name` in `source` (no line where none does).
  private static func declarationError(_ source: ShaderSource, stage: ShaderStage, name: String, message: String)
    -> GLError
  {
    let line = declarationLine(source, name)
    return .shaderCompile(
      file: source.file, stage: stage, line: line, message: message, excerpt: ShaderLog.excerpt(source.text, line: line)
    )
  }

  /// The GLSL name of an attribute's or uniform's GL type, for errors.
  private static func typeName(_ type: GLenum) -> String {
    switch Int32(type) {
    case GL_FLOAT: "float"
    case GL_FLOAT_VEC2: "vec2"
    case GL_FLOAT_VEC3: "vec3"
    case GL_FLOAT_VEC4: "vec4"
    case GL_INT: "int"
    case GL_INT_VEC2: "ivec2"
    case GL_BOOL: "bool"
    case GL_FLOAT_MAT2: "mat2"
    case GL_FLOAT_MAT4: "mat4"
    default: "of GL type 0x\(String(type, radix: 16))"
    }
  }
}
