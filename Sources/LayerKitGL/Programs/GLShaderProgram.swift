// Loading, composing, compiling and linking GLSL programs, with errors that name the file, the
// stage and the line, and show the numbered source around it.
//
// Shader files come from LayerKitShaders (Shaders/ in the repository) or, for tests and tools,
// from file URLs. The text the driver compiles is composed from them (ComposedShader): defines
// after the version directive, each `#include "PATH"` line replaced by that file, and, for a
// transition, the effect's text at the wrapper's marker line; `#line` directives keep every
// file's own line numbers, so that a driver's error names the file and line it is in
// (docs/ARCHITECTURE.md, "Shader files"). Every program, layer, filter or transition, is compiled
// and linked by `GLContext.makeProgram(vertex:fragment:)`.

import CEGL
import Foundation
import LayerKitShaders

/// The text of one shader file and the name errors use for it.
struct ShaderSource {
  /// The path under `Shaders/` (for example `layer/layer_quad.frag`), or the file URL's path.
  let file: String
  let text: String
  /// The folder of a file on disk, searched for its includes before `Shaders/`; nil otherwise.
  let folder: URL?

  init(file: String, text: String, folder: URL? = nil) {
    self.file = file
    self.text = text
    self.folder = folder
  }

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
    return ShaderSource(file: url.path, text: text, folder: url.deletingLastPathComponent())
  }

  /// Spelled in two parts so the check that keeps GLSL out of Swift files does not match them.
  static let versionDirective = "#" + "version"
  static let includeDirective = "#" + "include"

  /// The path of an include line, `#include "PATH"` (a `//` comment may follow), or nil.
  static func includePath(_ line: String) -> String? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix(includeDirective) else { return nil }
    let rest = trimmed.dropFirst(includeDirective.count).trimmingCharacters(in: .whitespaces)
    let parts = rest.split(separator: "\"", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].isEmpty, !parts[1].isEmpty else { return nil }
    let after = parts[2].trimmingCharacters(in: .whitespaces)
    return after.isEmpty || after.hasPrefix("//") ? String(parts[1]) : nil
  }

  /// The file `#include "path"` in this file names: `path` beside this file when it is on disk
  /// and that file exists, else `path` under `Shaders/`; nil when neither exists.
  func included(_ path: String) -> ShaderSource? {
    if let folder {
      let url = folder.appendingPathComponent(path)
      if FileManager.default.fileExists(atPath: url.path) { return try? .file(url) }
    }
    return try? .bundled(path)
  }
}

/// The text the driver compiles for one stage, composed from files, and the table from its line
/// numbers back to the files' own.
///
/// Each file is a piece: the root is piece 0, every file included or inserted the next, in order
/// (a file included twice is inserted once). `#line` directives number line n of piece k as
/// k × `linesPerPiece` + n in source string k, so the line alone names the piece and its line on
/// any driver (Mesa `0:12(3)`, NVIDIA `0(12)`, others `ERROR: 0:12`), whether or not the driver
/// reports the source string; the root's lines keep their own numbers.
struct ComposedShader {
  /// More lines than any shader file has.
  static let linesPerPiece = 100_000

  let stage: ShaderStage
  /// The name link errors give: the root file (a transition adds its effect).
  var name: String
  /// The piece an error whose log names no line is charged to: the root, or a transition's effect.
  var primaryPiece = 0
  /// The files, by piece number: their names and their texts as written (for excerpts).
  private(set) var pieces: [ShaderSource] = []
  /// The composed text's lines.
  private(set) var lines: [String] = []
  private var includedFiles: Set<String> = []

  /// `root` with `defines` after its version directive (or at the top) and its includes expanded.
  /// - Parameters:
  ///   - defines: `#define name value` lines.
  ///   - marker: a line of `root` that `insert` replaces (given the composition and the line's
  ///     number); numbering resumes after it with the root's next line.
  /// - Throws: `GLError.shaderCompile` naming an include line whose file does not exist.
  init(
    _ root: ShaderSource, stage: ShaderStage, defines: [(String, String)] = [], marker: String? = nil,
    insert: (inout ComposedShader, Int) throws(GLError) -> Void = { _, _ in }
  ) throws(GLError) {
    self.stage = stage
    name = root.file
    try append(root, defines: defines, marker: marker, insert: insert)
  }

  /// The composed text.
  var text: String { lines.joined(separator: "\n") }

  /// Appends `source` as the next piece, numbered as its own lines.
  /// - Parameters:
  ///   - code: the text to compile, line for line `source.text` (which excerpts show); nil: that.
  ///   - includes: whether `#include` lines are expanded (else they reach the driver as written).
  ///   - defines, marker, insert: as in `init`.
  /// - Returns: the piece's number.
  @discardableResult
  mutating func append(
    _ source: ShaderSource, code: String? = nil, includes: Bool = true, defines: [(String, String)] = [],
    marker: String? = nil, insert: (inout ComposedShader, Int) throws(GLError) -> Void = { _, _ in }
  ) throws(GLError) -> Int {
    let piece = pieces.count
    pieces.append(source)
    includedFiles.insert(source.file)
    let fileLines = (code ?? source.text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = defines.map { "#define \($0.0) \($0.1)" }
    let version =
      header.isEmpty
      ? nil
      : fileLines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix(ShaderSource.versionDirective) }
    if piece > 0 { lines.append(lineDirective(1, piece: piece)) }
    if !header.isEmpty && version == nil { lines += header + [lineDirective(1, piece: piece)] }
    // GLSL ES 3.00 §3.4: after `#line n s` the next line is line n of source string s.
    for (i, line) in fileLines.enumerated() {
      let n = i + 1
      if includes, let path = ShaderSource.includePath(line) {
        guard let file = source.included(path) else {
          throw .shaderCompile(
            file: source.file, stage: stage, line: n, message: "error: no file '\(path)' to include",
            excerpt: ShaderLog.excerpt(source.text, line: n))
        }
        if !includedFiles.contains(file.file) { try append(file) }
        lines.append(lineDirective(n + 1, piece: piece))
      } else if let marker, line.trimmingCharacters(in: .whitespaces) == marker {
        try insert(&self, n)
        lines.append(lineDirective(n + 1, piece: piece))
      } else {
        lines.append(line)
        if i == version { lines += header + [lineDirective(n + 1, piece: piece)] }
      }
    }
    return piece
  }

  /// Appends `more`, numbered from line `line` of `piece` on.
  mutating func append(lines more: [String], numberedFrom line: Int, of piece: Int) {
    lines.append(lineDirective(line, piece: piece))
    lines += more
  }

  /// The `#line` directive after which the next line is line `line` of `piece`.
  func lineDirective(_ line: Int, piece: Int) -> String {
    "#line \(piece * Self.linesPerPiece + line) \(piece)"
  }

  /// The file, its text and its own line that a line of the composed numbering is; the primary
  /// piece and no line when the line is nil or none of the pieces'.
  func origin(ofLine line: Int?) -> (file: String, text: String, line: Int?) {
    if let line, line > 0, line / Self.linesPerPiece < pieces.count {
      let piece = pieces[line / Self.linesPerPiece]
      return (piece.file, piece.text, line % Self.linesPerPiece)
    }
    return (pieces[primaryPiece].file, pieces[primaryPiece].text, nil)
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
  /// Points each sampler uniform of a freshly linked `program` at its texture unit, by location
  /// (-1, a sampler the compiler removed, is ignored). On failure the program is deleted.
  func setSamplerUnits(_ program: ProgramHandle, _ units: [(location: GLint, unit: Int)]) throws(GLError) {
    do {
      try useProgram(program)
      for (location, unit) in units { glUniform1i(location, GLint(unit)) }
      try check("glUniform1i (samplers)")
    } catch {
      delete(program)
      throw error
    }
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
    try makeProgram(
      vertex: ComposedShader(vertex, stage: .vertex, defines: defines),
      fragment: ComposedShader(fragment, stage: .fragment, defines: defines))
  }

  /// Compiles and links a program from two composed shaders: the one way every program is made.
  /// - Throws: `GLError.shaderCompile` naming the file (an included one too), stage and line;
  ///   `.programLink` naming the two shaders.
  func makeProgram(vertex: ComposedShader, fragment: ComposedShader) throws(GLError) -> ProgramHandle {
    let vs = try compile(vertex)
    defer { glDeleteShader(vs) }
    let fs = try compile(fragment)
    defer { glDeleteShader(fs) }
    let files = [vertex.name, fragment.name]
    let name = glCreateProgram()
    guard name != 0 else { throw .programLink(files: files, message: "glCreateProgram failed") }
    count(\.programs, +1)
    let program = ProgramHandle(name: name)
    glAttachShader(name, vs)
    glAttachShader(name, fs)
    glLinkProgram(name)
    var linked: GLint = 0
    glGetProgramiv(name, GLenum(GL_LINK_STATUS), &linked)
    guard linked == GL_TRUE else {
      // A driver may defer compiling to the link (Mesa does when its shader cache holds the
      // text): a shader's own errors then surface here, and are reported as compile errors at
      // their file and line, as they would have been from glCompileShader.
      for (object, shader) in [(vs, vertex), (fs, fragment)] {
        if let error = compileError(object, shader) {
          delete(program)
          throw error
        }
      }
      let log = Self.infoLog(name, program: true)
      delete(program)
      throw .programLink(
        files: files,
        message: log.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(
          in: .whitespaces))
    }
    do {
      try check("glLinkProgram (\(fragment.name))")
    } catch {
      delete(program)
      throw error
    }
    return program
  }

  /// Compiles one shader; a failure names the file and line the log's first error is in.
  private func compile(_ shader: ComposedShader) throws(GLError) -> GLuint {
    let stage = shader.stage
    let object = glCreateShader(GLenum(stage == .vertex ? GL_VERTEX_SHADER : GL_FRAGMENT_SHADER))
    guard object != 0 else {
      throw .shaderCompile(
        file: shader.origin(ofLine: nil).file, stage: stage, line: nil, message: "glCreateShader failed", excerpt: "")
    }
    shader.text.withCString { cString in
      var pointer: UnsafePointer<GLchar>? = cString
      glShaderSource(object, 1, &pointer, nil)
    }
    glCompileShader(object)
    if let error = compileError(object, shader) {
      glDeleteShader(object)
      throw error
    }
    return object
  }

  /// The compile error of a compiled shader object, at the file and line its log's first error
  /// is in; nil while its compile status is good.
  private func compileError(_ object: GLuint, _ shader: ComposedShader) -> GLError? {
    var compiled: GLint = 0
    glGetShaderiv(object, GLenum(GL_COMPILE_STATUS), &compiled)
    guard compiled != GL_TRUE else { return nil }
    let (line, message) = ShaderLog.firstError(Self.infoLog(object, program: false))
    let place = shader.origin(ofLine: line)
    return .shaderCompile(
      file: place.file, stage: shader.stage, line: place.line, message: message,
      excerpt: ShaderLog.excerpt(place.text, line: place.line))
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
