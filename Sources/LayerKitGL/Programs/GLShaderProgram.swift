// Loading, compiling and linking GLSL programs, with errors that name the file, the stage and the
// line, and show the numbered source around it.
//
// Shader files come from LayerKitShaders (Shaders/ in the repository) or, for tests and tools,
// from file URLs. When defines are prepended they go after the version directive, followed by a `#line`
// directive, so the driver's line numbers stay those of the file.

import CEGL
import Foundation
import LayerKitShaders

/// The text of one shader file and the name errors use for it.
struct ShaderSource {
  /// The path under `Shaders/` (for example `layer/layer_quad.frag`), or the file URL's path.
  let file: String
  let text: String

  /// A file shipped in LayerKitShaders, by its path under `Shaders/`.
  static func bundled(_ path: String) throws(GLError) -> ShaderSource {
    guard let text = try? ShaderBundle.source(path) else { throw .resourceMissing(path) }
    return ShaderSource(file: path, text: text)
  }

  /// Any shader file on disk.
  static func file(_ url: URL) throws(GLError) -> ShaderSource {
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
      throw .resourceMissing(url.path)
    }
    return ShaderSource(file: url.path, text: text)
  }

  /// Spelled in two parts so the check that keeps GLSL out of Swift files does not match it.
  static let versionDirective = "#" + "version"

  /// The text to compile: `defines` inserted after the version directive (or at the top), then a
  /// `#line` naming the file's next line. GLSL ES 3.00 §3.4: after `#line n` the next line is n.
  func prepared(defines: [(String, String)]) -> String {
    guard !defines.isEmpty else { return text }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = defines.map { "#define \($0.0) \($0.1)" }
    if let versionIndex = lines.firstIndex(where: {
      $0.trimmingCharacters(in: .whitespaces).hasPrefix(Self.versionDirective)
    }) {
      lines.insert(contentsOf: header + ["#line \(versionIndex + 2)"], at: versionIndex + 1)
    } else {
      lines.insert(contentsOf: header + ["#line 1"], at: 0)
    }
    return lines.joined(separator: "\n")
  }
}

/// Reading driver info logs.
package enum ShaderLog {
  /// The first error of a compile log: its line (when the format is known) and its text.
  package static func firstError(_ log: String) -> (line: Int?, message: String) {
    let lines = log.split(whereSeparator: \.isNewline).map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
    let chosen = lines.first { $0.range(of: "error", options: .caseInsensitive) != nil } ?? lines.first
    guard let chosen else { return (nil, "no info log") }
    return parse(chosen)
  }

  /// Splits one log line into its source line number and message. Known forms:
  /// Mesa `0:12(3): error: …`, NVIDIA `0(12) : error C0000: …`, ANGLE and others
  /// `ERROR: 0:12: …`.
  package static func parse(_ entry: String) -> (line: Int?, message: String) {
    if let m = entry.wholeMatch(of: #/\s*\d+:(\d+)\(\d+\)\s*:\s*(.*)/#) {
      return (Int(m.1), String(m.2))
    }
    if let m = entry.wholeMatch(of: #/\s*\d+\((\d+)\)\s*:\s*(.*)/#) {
      return (Int(m.1), String(m.2))
    }
    if let m = entry.wholeMatch(of: #/\s*(?:ERROR|WARNING)\s*:\s*\d+:(\d+)\s*:\s*(.*)/#) {
      return (Int(m.1), "error: " + String(m.2))
    }
    return (nil, entry)
  }

  /// The numbered lines of `text` within `radius` of `line`, the line itself marked with `>`.
  package static func excerpt(_ text: String, line: Int?, radius: Int = 2) -> String {
    guard let line else { return "" }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard line >= 1, line <= lines.count else { return "" }
    let range = max(1, line - radius)...min(lines.count, line + radius)
    let width = String(range.upperBound).count
    return range.map { n in
      let number = String(n)
      let padded = String(repeating: " ", count: width - number.count) + number
      return "\(n == line ? ">" : " ") \(padded) | \(lines[n - 1])"
    }.joined(separator: "\n")
  }
}

extension GLContext {
  /// Compiles and links a program from two shader files.
  /// - Parameters:
  ///   - vertex: the vertex shader.
  ///   - fragment: the fragment shader.
  ///   - defines: `#define name value` lines inserted after the version directive in both.
  /// - Throws: `GLError.shaderCompile` naming the file, stage and line; `.programLink`.
  func makeProgram(vertex: ShaderSource, fragment: ShaderSource, defines: [(String, String)] = [])
    throws(GLError) -> ProgramHandle
  {
    let vs = try compile(vertex, stage: .vertex, defines: defines)
    defer { glDeleteShader(vs) }
    let fs = try compile(fragment, stage: .fragment, defines: defines)
    defer { glDeleteShader(fs) }
    let name = glCreateProgram()
    guard name != 0 else {
      throw .programLink(files: [vertex.file, fragment.file], message: "glCreateProgram failed")
    }
    let program = ProgramHandle(name: name)
    glAttachShader(name, vs)
    glAttachShader(name, fs)
    glLinkProgram(name)
    var linked: GLint = 0
    glGetProgramiv(name, GLenum(GL_LINK_STATUS), &linked)
    guard linked == GL_TRUE else {
      let log = Self.infoLog(name, program: true)
      delete(program)
      throw .programLink(
        files: [vertex.file, fragment.file],
        message: log.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(
          in: .whitespaces))
    }
    do {
      try check("glLinkProgram")
    } catch {
      delete(program)
      throw error
    }
    return program
  }

  private func compile(_ source: ShaderSource, stage: ShaderStage, defines: [(String, String)])
    throws(GLError) -> GLuint
  {
    let shader = glCreateShader(GLenum(stage == .vertex ? GL_VERTEX_SHADER : GL_FRAGMENT_SHADER))
    guard shader != 0 else {
      throw .shaderCompile(
        file: source.file, stage: stage, line: nil, message: "glCreateShader failed", excerpt: "")
    }
    let text = source.prepared(defines: defines)
    text.withCString { cString in
      var pointer: UnsafePointer<GLchar>? = cString
      glShaderSource(shader, 1, &pointer, nil)
    }
    glCompileShader(shader)
    var compiled: GLint = 0
    glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
    guard compiled == GL_TRUE else {
      let log = Self.infoLog(shader, program: false)
      glDeleteShader(shader)
      let (line, message) = ShaderLog.firstError(log)
      throw .shaderCompile(
        file: source.file, stage: stage, line: line, message: message,
        excerpt: ShaderLog.excerpt(source.text, line: line))
    }
    return shader
  }

  /// A shader's or program's info log (the driver's compile or link messages).
  static func infoLog(_ object: GLuint, program: Bool) -> String {
    var length: GLint = 0
    if program {
      glGetProgramiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
    } else {
      glGetShaderiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
    }
    guard length > 1 else { return "" }
    var buffer = [GLchar](repeating: 0, count: Int(length) + 1)
    if program {
      glGetProgramInfoLog(object, GLsizei(buffer.count), nil, &buffer)
    } else {
      glGetShaderInfoLog(object, GLsizei(buffer.count), nil, &buffer)
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The location of a uniform; -1 (ignored by glUniform*) when the compiler removed it.
  func uniformLocation(_ program: ProgramHandle, _ name: String) -> GLint {
    glGetUniformLocation(program.name, name)
  }
}

/// Where the shipped shader files lie on disk.
enum ShaderBundleLocator {
  static func url(_ path: String) -> URL? {
    guard let base = ShaderBundle.resourceURL else { return nil }
    let url = base.appendingPathComponent(path)
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }
}
