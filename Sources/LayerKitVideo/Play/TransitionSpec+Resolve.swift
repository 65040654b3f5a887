import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// A spec made the timeline's transition, against the backends at hand.
extension TransitionSpec {
  /// The timeline's transition: a built-in effect checked against the catalogue, or a shader
  /// file read and loaded into `shaders` (the GPU); the parameters checked against the
  /// effect's declared types (a user's shader checked again with them).
  /// - Parameter random: picks the effect of a `random` spec.
  /// - Throws: `TransitionError` naming the spec; `RenderError.gpuOnlyEffect` for a shader file
  ///   without a backend that runs GLSL; the backend's errors for a shader that does not compile.
  public func resolve(
    duration: Double, timing: MediaTimingFunction, shaders: (any TransitionShaderHost)?,
    random: inout SeededRandom
  ) throws -> TimelineTransition {
    if effect == "random" {
      return try Self.random(&random).resolve(duration: duration, timing: timing, shaders: shaders, random: &random)
    }
    var name = effect
    let declared: [(name: String, type: TransitionUniformType)]
    if isFile {
      let text = try Self.shaderText(effect, what: "transition \(label)")
      guard let shaders else { throw RenderError.gpuOnlyEffect(effect) }
      name = "shader:" + effect
      declared = try shaders.loadTransition(name: name, text: text, file: effect).map { ($0.name, $0.type) }
    } else {
      guard let builtIn = TransitionEffects.all[effect] else {
        let near = Self.randomChoices.min {
          Spelling.editDistance($0.lowercased(), effect.lowercased())
            < Spelling.editDistance($1.lowercased(), effect.lowercased())
        }
        throw TransitionError.unknownEffect(spec: label, effect: effect, nearest: near, known: Self.randomChoices)
      }
      declared = Array(zip(builtIn.parameters.map(\.name), builtIn.parameterTypes)).map { ($0.0, $0.1) }
    }
    var values: [String: TransitionValue] = [:]
    if let subtype {
      guard declared.contains(where: { $0.name == "direction" }) else {
        throw TransitionError.noDirection(spec: label, effect: effect)
      }
      values["direction"] = .vec2(TransitionEffects.direction(subtype))
    } else if ["moveIn", "push", "reveal"].contains(effect) {
      values["direction"] = .vec2(TransitionEffects.direction(.fromLeft))
    }
    for (key, param) in parameters.sorted(by: { $0.key < $1.key }) {
      guard let type = declared.first(where: { $0.name == key })?.type else {
        throw TransitionError.unknownParameter(effect: effect, name: key, known: declared.map(\.name))
      }
      values[key] = try Self.value(param, named: key, as: type)
    }
    // A user's shader was checked with its defaults when loaded; with the values given too.
    if isFile, !parameters.isEmpty, let shaders {
      try shaders.checkTransition(name: name, parameters: values, file: effect)
    }
    return TimelineTransition(
      effect: name, builtIn: !isFile, parameters: values, duration: duration, timing: timing, label: label)
  }

  /// A parameter's value as the effect declares its type: numbers for floats and vectors (one
  /// number fills a vector), whole numbers for ints, true or false, `@FILE` for an image.
  static func value(_ param: Edit.Transition.Param, named name: String, as type: TransitionUniformType)
    throws -> TransitionValue
  {
    if type == .sampler2D {
      guard case .image(let path) = param else { throw TransitionError.expectedImage(name: name) }
      return .image(try ImageFile.read(URL(fileURLWithPath: path)))
    }
    let wrong = TransitionError.wrongType(name: name, text: param.text, type: type)
    let numbers: [Double]
    switch param {
    case .bool(let b):
      guard type == .bool else { throw wrong }
      return .bool(b)
    case .number(let n): numbers = [n]
    case .numbers(let a): numbers = a
    case .image, .other: throw wrong
    }
    let n = type.componentCount
    guard numbers.allSatisfy(\.isFinite), numbers.count == 1 || numbers.count == n, type != .bool else { throw wrong }
    let filled = numbers.count == 1 ? Array(repeating: numbers[0], count: n) : numbers
    switch type {
    case .float: return .float(Float(filled[0]))
    case .vec2: return .vec2(SIMD2(Float(filled[0]), Float(filled[1])))
    case .vec3: return .vec3(SIMD3(Float(filled[0]), Float(filled[1]), Float(filled[2])))
    case .vec4: return .vec4(SIMD4(Float(filled[0]), Float(filled[1]), Float(filled[2]), Float(filled[3])))
    case .int, .ivec2:
      let ints = filled.compactMap { $0 == $0.rounded() ? Int32(exactly: $0) : nil }
      guard ints.count == filled.count else { throw wrong }
      return type == .int ? .int(ints[0]) : .ivec2(SIMD2(ints[0], ints[1]))
    case .bool, .sampler2D: throw wrong
    }
  }

  /// The text of a shader file, refused naming `what` asked for it and the file when it is
  /// missing, not a regular file, larger than a shader may be, or not UTF-8 text.
  public static func shaderText(_ path: String, what: String) throws(TransitionError) -> String {
    if let irregular = MediaSource.irregularKind(path) {
      throw .unreadableShader(what: what, path: path, reason: "is \(irregular), not a regular file")
    }
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maxShaderSize {
      throw .unreadableShader(what: what, path: path, reason: "is \(size) bytes; a shader is at most \(maxShaderSize)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      let missing = !FileManager.default.fileExists(atPath: path)
      throw .unreadableShader(what: what, path: path, reason: missing ? ": no such file" : ": cannot be read")
    }
    guard let text = String(data: data, encoding: .utf8), !text.contains("\0") else {
      throw .unreadableShader(what: what, path: path, reason: "is not a shader: not UTF-8 text")
    }
    return text
  }
}
